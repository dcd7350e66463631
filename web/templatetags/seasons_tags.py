"""What the desk's pages show of the seasons app: whether an evening was seeded by its
members' ratings (``{% rating_seeding tournament as seeded %}``)."""

from __future__ import annotations

from django import template

from seasons.models import RatingSeeding
from tournaments.models import Tournament

register = template.Library()


@register.simple_tag
def rating_seeding(tournament: Tournament) -> RatingSeeding | None:
    """Return the record of the tournament's seeding by members' ratings, if it was."""
    return RatingSeeding.objects.filter(tournament=tournament).first()
