"""Template filters that say a code in words (``{% load words %}``), and ``lang``, which marks
a name with the language its script tells: ``web.words`` decides."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from tournaments.models import Team

from .. import languages, words

register = template.Library()

register.filter("seat_name", words.seat)
register.filter("part_name", words.part)
register.filter("fixture_name", words.fixture)
register.filter("source_name", words.source)
register.filter("bazzi_reason", words.bazzi_reason)
register.filter("status_name", words.status)
register.filter("round_name", words.round_name)

#: the filters that say a code from one of the tables of ``web.words``: ``"swiss"|stage_format``
for name, table in {
    "mode_name": words.MODES,
    "stage_format": words.STAGE_FORMATS,
    "stage_status": words.STAGE_STATUSES,
    "round_status": words.ROUND_STATUSES,
    "fixture_status": words.FIXTURE_STATUSES,
    "ladder_rule": words.LADDER_RULES,
}.items():
    register.filter(name, words.saying(table))


@register.filter("lang")
def in_its_language(name: object) -> SafeString:
    """Return a name, escaped, in a ``<span lang>`` when its script tells its language (with
    ``dir="rtl"`` for a right-to-left script), so a screen reader reads it in that voice."""
    text = "" if name is None else str(name)
    found = words.script_language(text)
    if found is None:
        if languages.direction() == "rtl":  # a Latin name kept apart on an Urdu page
            return format_html("<bdi>{}</bdi>", text)
        return format_html("{}", text)
    lang, direction = found
    if direction == "rtl":
        return format_html('<span lang="{}" dir="rtl">{}</span>', lang, text)
    return format_html('<span lang="{}">{}</span>', lang, text)


@register.filter("card_language")
def card_language(team: Team) -> str:
    """Return the language a team's card is printed in: the director's choice for the team,
    else the page's (the club's when the browser asks for none of ours)."""
    return team.language if team.language in languages.CODES else get_language() or "en"


@register.filter("direction")
def direction(language: str) -> str:
    """Return the writing direction of a language: ``"ur"|direction == "rtl"``."""
    return languages.direction(language)
