"""Template filters that say a code in words (``{% load words %}``): ``web.words`` decides."""

from __future__ import annotations

from django import template

from .. import words

register = template.Library()

register.filter("seat_name", words.seat)
register.filter("part_name", words.part)
register.filter("fixture_name", words.fixture)
register.filter("source_name", words.source)
register.filter("bazzi_reason", words.bazzi_reason)
