"""Which language a page is shown in (docs/languages.md), beyond what Django's
``LocaleMiddleware`` decides from the switch's cookie and the browser's ``Accept-Language``.

Two more sources, both weaker than anything the person asked for: the club's language, for a
browser that asks for none of ours (``club_default``), and the language the director chose for
a team, which its link gives a phone that has made no choice yet (``keep_team_language``).
"""

from __future__ import annotations

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


def use(request: HttpRequest, language: str) -> None:
    """Show the rest of this request in ``language`` (the response's Content-Language too)."""
    translation.activate(language)
    request.LANGUAGE_CODE = translation.get_language()


def club_default(request: HttpRequest, club: Club | None) -> None:
    """Show a club's page in the club's language when the browser asks for none of ours."""
    if club is not None and club.language in CODES and asked_for(request) is None:
        use(request, club.language)


def team_language(team: Team) -> str:
    """Return the language of a team's card and link: the director's choice for the team,
    else its club's, else English."""
    if team.language in CODES:
        return team.language
    club = team.tournament.club
    return club.language if club is not None and club.language in CODES else "en"


def keep_team_language(request: HttpRequest, response: HttpResponse, team: Team) -> None:
    """Give a phone that opened a team's link the team's language, unless its person chose one
    with the switch (the cookie): from then on the phone shows it until they switch."""
    if request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) in CODES:
        return
    language = team_language(team)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


def direction(language: str | None = None) -> str:
    """Return the writing direction of ``language`` (the active one by default): rtl for Urdu."""
    code = language or translation.get_language() or settings.LANGUAGE_CODE
    return "rtl" if translation.get_language_info(code)["bidi"] else "ltr"
