"""The desk's words as template filters (``web/desk_words.py``): ``{% load desk_words %}``."""

from __future__ import annotations

from django import template

from .. import desk_words

register = template.Library()


@register.filter("seed_measure")
def seed_measure(code: str | None) -> str:
    """How a tournament's teams were seeded by ratings: ``"sum"|seed_measure``."""
    return desk_words.said(desk_words.MEASURES, code)


@register.filter("confirmation_name")
def confirmation_name(code: str | None) -> str:
    """Who confirms a match's entered deal: ``"other_team"|confirmation_name``."""
    return desk_words.said(desk_words.CONFIRMATIONS, code)
