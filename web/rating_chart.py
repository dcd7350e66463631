"""A member's rating over time as a small SVG chart, drawn on the server (like ``charts``).

The line is the rating (``mu``) after each rated match; the dashed line under it is the
conservative estimate (``mu - 3 sigma``), which rises towards the line as the member's rating
grows surer. The chart carries a title and a description in words for a screen reader.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import NamedTuple

WIDTH, HEIGHT, PAD = 640, 220, 34


class Point(NamedTuple):
    """One rated match: when (as a label), the rating and its uncertainty after it."""

    label: str
    mu: float
    sigma: float


def rating_over_time(points: Sequence[Point], name: str) -> str:
    """Return an ``<svg>`` element charting the member's rating after each match.

    >>> svg = rating_over_time([Point("2 Jan", 27.1, 7.0), Point("9 Jan", 28.0, 6.1)], "Asha")
    >>> svg.startswith("<svg") and "9 Jan: 28.0" in svg
    True
    """
    who = escape(name)
    title = f"Rating of {who} after each match"
    if not points:
        desc = "No rated match yet."
    else:
        first, last = points[0], points[-1]
        desc = (
            f"{len(points)} match(es), from {escape(first.label)}: {first.mu:.1f} "
            f"to {escape(last.label)}: {last.mu:.1f} (uncertainty {last.sigma:.1f})."
        )
    lows = [p.mu - 3 * p.sigma for p in points] or [0.0]
    highs = [p.mu for p in points] or [50.0]
    bottom, top = min(0.0, *lows), max(50.0, *highs)
    inner_w, inner_h = WIDTH - 2 * PAD, HEIGHT - 2 * PAD
    count = max(len(points), 1)

    def x(i: int) -> float:
        return PAD + inner_w * ((i + 1) / (count + 1))

    def y(value: float) -> float:
        return PAD + inner_h - (value - bottom) / (top - bottom) * inner_h

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="rating-title rating-desc" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="rating-title">{title}</title>',
        f'<desc id="rating-desc">{desc}</desc>',
        f'<rect x="{PAD}" y="{PAD}" width="{inner_w}" height="{inner_h}" class="chart-bg"/>',
        f'<line x1="{PAD}" x2="{WIDTH - PAD}" y1="{y(25):.1f}" y2="{y(25):.1f}" '
        'class="chart-zero"/>',
        f'<text x="4" y="{y(25) + 4:.1f}" class="chart-label">25</text>',
        f'<text x="4" y="{y(top) + 4:.1f}" class="chart-label">{top:.0f}</text>',
        f'<text x="4" y="{y(bottom) + 4:.1f}" class="chart-label">{bottom:.0f}</text>',
    ]
    if points:
        sure = " ".join(f"{x(i):.1f},{y(p.mu - 3 * p.sigma):.1f}" for i, p in enumerate(points))
        line = " ".join(f"{x(i):.1f},{y(p.mu):.1f}" for i, p in enumerate(points))
        parts.append(f'<polyline points="{sure}" class="chart-line chart-lead"/>')
        parts.append(f'<polyline points="{line}" class="chart-line"/>')
        for i, p in enumerate(points):
            parts.append(
                f'<circle cx="{x(i):.1f}" cy="{y(p.mu):.1f}" r="3" class="chart-point">'
                f"<title>{escape(p.label)}: {p.mu:.1f} ± {p.sigma:.1f}</title></circle>"
            )
    parts.append("</svg>")
    return "".join(parts)
