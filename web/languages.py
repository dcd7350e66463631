"""Which language a page is shown in (docs/languages.md), beyond what Django's
``LocaleMiddleware`` decides from the switch's cookie and the browser's ``Accept-Language``.

Two more sources, both weaker than anything the person asked for: the club's language, for a
browser that asks for none of ours (``club_default``), and the language the director chose for
a team, which its link gives a phone that has made no choice yet (``keep_team_language``).
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from typing import Literal, cast

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

from tournaments.models import Club, Team

#: the codes of the languages the pages are translated into
CODES = frozenset(code for code, _ in settings.LANGUAGES)


def _ours(code: str) -> str | None:
    """Return the language of ours ``code`` names ("hi-IN" -> "hi"), or None."""
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def asked_for(request: HttpRequest) -> str | None:
    """Return the language the browser asks for that we have: the switch's cookie, else the
    first of its Accept-Language that we have; None when it asks for none of ours."""
    cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    if cookie in CODES:
        return cookie
    header = request.headers.get("Accept-Language", "")
    for code, _quality in parse_accept_lang_header(header):
        if code != "*" and (found := _ours(code)) is not None:
            return found
    return None


#: whether the request being served asked for a language of ours (True outside a request,
#: as in the push process: a club's language then changes nothing)
_ASKED: ContextVar[bool] = ContextVar("language_asked", default=True)


class AskedMiddleware:
    """Notes whether each request asked for a language of ours (the cookie or the header),
    for ``club_default``: after ``LocaleMiddleware``, which has chosen one already."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = _ASKED.set(asked_for(request) is not None)
        try:
            return self.get_response(request)
        finally:
            _ASKED.reset(token)


def club_default(club: Club) -> None:
    """Show the rest of the request in ``club``'s language if it asked for none of ours:
    called where a view finds the club of its page (``web.clubtime``, with its time zone)."""
    if not _ASKED.get() and club.language in CODES:
        translation.activate(club.language)


def team_language(request: HttpRequest, team: Team) -> str | None:
    """Return the language a team's link gives a phone: the director's choice for the team,
    else its club's if the browser asks for none of ours; None: what the browser asks for."""
    if team.language in CODES:
        return team.language
    club = team.tournament.club
    if club is not None and club.language in CODES and asked_for(request) is None:
        return club.language
    return None


def keep_team_language(request: HttpRequest, response: HttpResponse, team: Team) -> None:
    """Give a phone that opened a team's link the team's language, unless its person chose one
    with the switch (the cookie): from then on the phone shows it until they switch."""
    if request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) in CODES:
        return
    language = team_language(request, team)
    if language is None:
        return
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=cast(Literal["Lax", "Strict", "None"], settings.LANGUAGE_COOKIE_SAMESITE),
    )


def direction(language: str | None = None) -> str:
    """Return the writing direction of ``language`` (the active one by default): rtl for Urdu."""
    code = language or translation.get_language() or settings.LANGUAGE_CODE
    return "rtl" if translation.get_language_info(code)["bidi"] else "ltr"
