"""Template filters that say a code in words (``{% load words %}``), and ``lang``, which marks
a name with the language its script tells: ``web.words`` decides."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from .. import words

register = template.Library()

register.filter("seat_name", words.seat)
register.filter("part_name", words.part)
register.filter("fixture_name", words.fixture)
register.filter("source_name", words.source)
register.filter("bazzi_reason", words.bazzi_reason)


@register.filter("lang")
def in_its_language(name: object) -> SafeString:
    """Return a name, escaped, in a ``<span lang>`` when its script tells its language (with
    ``dir="rtl"`` for a right-to-left script), so a screen reader reads it in that voice."""
    text = "" if name is None else str(name)
    found = words.script_language(text)
    if found is None:
        return format_html("{}", text)
    lang, direction = found
    if direction == "rtl":
        return format_html('<span lang="{}" dir="rtl">{}</span>', lang, text)
    return format_html('<span lang="{}">{}</span>', lang, text)
