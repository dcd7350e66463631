"""Template tags of a club's calendar (``{% load calendar_tags %}``): its ``webcal:`` address,
which a calendar application subscribes to (only a public club's: an application cannot sign
in, so a private club's would answer it 404)."""

from __future__ import annotations

from django import template
from django.urls import reverse

from seasons.selectors import is_public
from tournaments.models import Club
from tournaments.site import absolute_url

register = template.Library()


@register.simple_tag(takes_context=True)
def webcal_url(context: template.Context, club: Club) -> str:
    """Return the club's calendar as a ``webcal:`` address, or "" for a private club."""
    if not is_public(club):
        return ""
    url = absolute_url(context["request"], reverse("web:club-evenings-ics", args=[club.slug]))
    return "webcal://" + url.split("://", 1)[1]
