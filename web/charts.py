"""The running difference of a match as a small SVG chart, drawn on the server.

Team 0's lead is above the middle line, team 1's below; a bazzi won is a marked point with
the winning team's initial. The chart carries a title and a description in words, so a
screen reader gets what the picture shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

WIDTH, HEIGHT, PAD = 640, 220, 34
LEAD = 100  # L2: a lead of 100 wins a bazzi, so the scale always shows it


def running_difference(points: Sequence[tuple[int, int, int | None]], teams: Sequence[str]) -> str:
    """Return an ``<svg>`` element charting (deal, running difference, bazzi team) points.

    >>> svg = running_difference([(1, 40, None), (2, 110, 0)], ["Aces", "Kings"])
    >>> svg.startswith("<svg") and "bazzi" in svg
    True
    """
    a, b = (escape(t) for t in teams)
    title = f"Running difference, {a} minus {b}"
    if not points:
        desc = "No deal has been scored yet."
    else:
        words = [
            f"deal {deal}: {diff:+d}"
            + (f", bazzi to {escape(teams[bazzi])}" if bazzi is not None else "")
            for deal, diff, bazzi in points
        ]
        desc = "; ".join(words) + "."
    top = max([LEAD, *(abs(d) for _, d, _ in points)])
    inner_w, inner_h = WIDTH - 2 * PAD, HEIGHT - 2 * PAD
    count = max(len(points), 1)

    def x(i: int) -> float:
        return PAD + inner_w * (i / count)

    def y(diff: int) -> float:
        return PAD + inner_h / 2 - (diff / top) * (inner_h / 2)

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="chart-title chart-desc" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="chart-title">{title}</title>',
        f'<desc id="chart-desc">{desc}</desc>',
        f'<rect x="{PAD}" y="{PAD}" width="{inner_w}" height="{inner_h}" class="chart-bg"/>',
    ]
    for level in (LEAD, -LEAD):
        parts.append(
            f'<line x1="{PAD}" x2="{WIDTH - PAD}" y1="{y(level):.1f}" y2="{y(level):.1f}" '
            'class="chart-lead"/>'
        )
    parts.append(
        f'<line x1="{PAD}" x2="{WIDTH - PAD}" y1="{y(0):.1f}" y2="{y(0):.1f}" class="chart-zero"/>'
    )
    parts.append(f'<text x="4" y="{y(LEAD) + 4:.1f}" class="chart-label">+{LEAD}</text>')
    parts.append(f'<text x="4" y="{y(-LEAD) + 4:.1f}" class="chart-label">-{LEAD}</text>')
    parts.append(f'<text x="{PAD + 4}" y="{PAD - 8}" class="chart-label">{a} ahead</text>')
    parts.append(
        f'<text x="{PAD + 4}" y="{HEIGHT - PAD + 20}" class="chart-label">{b} ahead</text>'
    )
    if points:
        line = [(x(0), y(0))] + [(x(i + 1), y(d)) for i, (_, d, _) in enumerate(points)]
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in line)
        parts.append(f'<polyline points="{path}" class="chart-line"/>')
        for i, (deal, diff, bazzi) in enumerate(points):
            px, py = x(i + 1), y(diff)
            if bazzi is None:
                parts.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3" class="chart-point"/>')
                continue
            initial = escape(teams[bazzi][:1].upper())
            name = escape(teams[bazzi])
            parts.append(
                f'<g class="chart-bazzi"><title>Deal {deal}: bazzi to {name}</title>'
                f'<circle cx="{px:.1f}" cy="{py:.1f}" r="9"/>'
                f'<text x="{px:.1f}" y="{py + 4:.1f}" text-anchor="middle">{initial}</text></g>'
            )
    parts.append("</svg>")
    return "".join(parts)
