"""The desk's team, club, season and account pages in Hindi and in Urdu (right to left) in a
real browser (Debian's Chromium) at 390 pixels, as the evening's director sees them on a
phone: ``<html lang dir>`` right, no sideways scroll, and nothing axe finds against the
WCAG 2.2 AA rules."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings

from tournaments.models import Club as ClubRow
from tournaments.models import Player

from .browser import PHONE, Browser, database, expect, signed_in
from .conftest import Club
from .test_browser_accessibility import no_sideways_scroll, wcag_violations

pytestmark = pytest.mark.django_db(transaction=True)

#: a heading each language's page shows (from its catalog): the members' page's
HEADING = {"hi": "सदस्य जोड़ें", "ur": "رکن شامل کریں"}
DIRECTION = {"hi": "ltr", "ur": "rtl"}


@pytest.mark.parametrize("language", ["hi", "ur"])
def test_the_desks_team_club_and_account_pages_read_right_in_hindi_and_urdu(
    browser: Browser, live_server: Any, live_club: Club, contexts: list[Any], language: str
) -> None:
    base, slug = live_server.url, live_club.tournament.slug
    team = live_club.matches[0].team0
    with database():
        row = ClubRow.objects.create(name="Jalandhar Seep", slug="jalandhar-seep")
        row.directors.add(live_club.users["director"])
        member = Player.objects.get(pk=team.first_player_id)
        Player.objects.filter(pk=member.pk).update(club=row)
    page = signed_in(contexts, browser, base, "director", PHONE)
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": base}]
    )
    pages = [
        f"/desk/{slug}/teams/{team.pk}/",
        f"/desk/{slug}/teams/{team.pk}/link/",
        f"/desk/{slug}/cards/",
        f"/desk/{slug}/board/",
        f"/clubs/{row.slug}/members/",
        f"/clubs/{row.slug}/members/{member.pk}/",
        f"/clubs/{row.slug}/seasons/",
        f"/c/{row.slug}/m/{member.pk}/erase/",
        "/password/",
    ]
    for path in pages:
        page.goto(base + path)
        assert page.evaluate("document.documentElement.lang") == language, path
        assert page.evaluate("document.documentElement.dir") == DIRECTION[language], path
        assert no_sideways_scroll(page), (path, language)
        found = wcag_violations(page)
        assert not found, (path, language, found)
    page.goto(f"{base}/clubs/{row.slug}/members/")
    expect(page.get_by_role("heading", name=HEADING[language])).to_be_visible()
