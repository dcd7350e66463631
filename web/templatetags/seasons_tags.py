"""What the pages show of the seasons app: whether an evening was seeded by its
members' ratings (``{% rating_seeding tournament as seeded %}``), a change of rating with
its sign (``{{ moved|signed }}``)."""

from __future__ import annotations

from django import template

from seasons.models import RatingSeeding
from tournaments.models import Tournament

register = template.Library()


@register.simple_tag
def rating_seeding(tournament: Tournament) -> RatingSeeding | None:
    """Return the record of the tournament's seeding by members' ratings, if it was."""
    return RatingSeeding.objects.filter(tournament=tournament).first()


@register.filter
def signed(value: float) -> str:
    """Return a change of rating with its sign and one decimal: "+1.2", "±0.0", and a loss
    with a minus sign (U+2212)."""
    shown = f"{abs(value):.1f}"
    if shown == "0.0":
        return "±0.0"
    return ("+" if value > 0 else "\u2212") + shown


@register.filter
def percent(value: float) -> str:
    """Return a chance as a whole percentage: "62 %"."""
    return f"{round(value * 100)} %"
