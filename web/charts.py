"""The running difference of a match as a small SVG chart, drawn on the server.

Team 0's lead is above the middle line, team 1's below; a bazzi won is a marked point with
the winning team's initial, at the lead it reached, and the line then drops straight back to
the difference after it (zero: L2). The chart carries a title and a description in words, so
a screen reader gets what the picture shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import NamedTuple

from django.utils.translation import gettext as _

WIDTH, HEIGHT, PAD = 640, 220, 34
LEAD = 100  # L2: a lead of 100 wins a bazzi, so the scale always shows it


class Point(NamedTuple):
    """One deal on the chart: the lead it reached, the running difference after it (the
    same, unless the deal won a bazzi and the difference went back), the bazzi's team."""

    deal: int
    reached: int
    after: int
    bazzi: int | None = None


def running_difference(points: Sequence[Point], teams: Sequence[str]) -> str:
    """Return an ``<svg>`` element charting the deals' running difference.

    >>> svg = running_difference([Point(1, 40, 40), Point(2, 110, 0, 0)], ["Aces", "Kings"])
    >>> svg.startswith("<svg") and "deal 2: +110, bazzi to Aces, back to +0" in svg
    True
    """
    a, b = (escape(t) for t in teams)
    ahead_a, ahead_b = (_("%(team)s ahead") % {"team": t} for t in (a, b))
    title = _("Running difference, %(a)s minus %(b)s") % {"a": a, "b": b}
    if not points:
        desc = _("No deal has been scored yet.")
    else:
        said = [
            _("deal %(deal)s: %(reached)s") % {"deal": p.deal, "reached": f"{p.reached:+d}"}
            + (
                _(", bazzi to %(team)s") % {"team": escape(teams[p.bazzi])}
                if p.bazzi is not None
                else ""
            )
            + (
                _(", back to %(after)s") % {"after": f"{p.after:+d}"}
                if p.after != p.reached
                else ""
            )
            for p in points
        ]
        desc = "; ".join(said) + "."
    top = max([LEAD, *(abs(p.reached) for p in points), *(abs(p.after) for p in points)])
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
    parts.append(f'<text x="{PAD + 4}" y="{PAD - 8}" class="chart-label">{ahead_a}</text>')
    parts.append(
        f'<text x="{PAD + 4}" y="{HEIGHT - PAD + 20}" class="chart-label">{ahead_b}</text>'
    )
    if points:
        line = [(x(0), y(0))]
        for i, p in enumerate(points):  # up to the lead reached, then straight down after it
            line.append((x(i + 1), y(p.reached)))
            if p.after != p.reached:
                line.append((x(i + 1), y(p.after)))
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in line)
        parts.append(f'<polyline points="{path}" class="chart-line"/>')
        for i, p in enumerate(points):
            px, py = x(i + 1), y(p.reached)
            if p.bazzi is None:
                parts.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3" class="chart-point"/>')
                continue
            initial = escape(teams[p.bazzi][:1].upper())
            name = escape(teams[p.bazzi])
            said_bazzi = _("Deal %(deal)s: bazzi to %(team)s") % {"deal": p.deal, "team": name}
            parts.append(
                f'<g class="chart-bazzi"><title>{said_bazzi}</title>'
                f'<circle cx="{px:.1f}" cy="{py:.1f}" r="9"/>'
                f'<text x="{px:.1f}" y="{py + 4:.1f}" text-anchor="middle">{initial}</text></g>'
            )
    parts.append("</svg>")
    return "".join(parts)
