"""The desk's words as template filters (``web/desk_words.py``): ``{% load desk_words %}``."""

from __future__ import annotations

from django import template

from .. import desk_words, words

register = template.Library()

#: how a tournament's teams were seeded by ratings: ``"sum"|seed_measure``
register.filter("seed_measure", words.saying(desk_words.MEASURES))
#: who confirms a match's entered deal: ``"other_team"|confirmation_name``
register.filter("confirmation_name", words.saying(desk_words.CONFIRMATIONS))
