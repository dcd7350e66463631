"""The seasons' pages in a real browser at 1280 and 390 pixels: nothing wider than the
screen, no serious axe violation, nothing the Content-Security-Policy refuses (the helpers of
tests/web/browser.py; skipped without the browser tools, as those are)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest

from seasons import services
from tests.web.browser import (
    PHONE,
    WIDE,
    Browser,
    closing,
    database,
    launched,
    page_width,
    serious_violations,
    signed_in,
)
from tests.web.conftest import with_password

from .conftest import make_club_world

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from launched()


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[Any]]:
    yield from closing([])


def test_the_club_member_and_seasons_pages_fit_a_phone_and_pass_axe(
    browser: Browser, live_server: Any, contexts: list[Any]
) -> None:
    with database():
        world = make_club_world(name="Friday Seep Club with a long name for a phone")
        with_password(world.director, world.director.username)
        evening = world.evening()
        world.play(evening, (0, 1, 2, 3), winner=0)
        world.play(evening, (4, 5, 6, 7), winner=1)
        services.season_create(
            actor=world.director, club=world.club, name="Spring season of the club",
            starts_on=date(2026, 1, 1), ends_on=date(2026, 6, 30),
        )  # fmt: skip
        slug, member = world.club.slug, world.members[0].pk
    urls = [f"/c/{slug}/", f"/c/{slug}/m/{member}/", f"/clubs/{slug}/seasons/"]
    problems: dict[str, Any] = {}
    for label, viewport in (("1280", WIDE), ("390", PHONE)):
        page = signed_in(contexts, browser, live_server.url, world.director.username, viewport)
        for url in urls:
            response = page.goto(live_server.url + url)
            assert response is not None and response.status == 200, url
            assert page_width(page) <= viewport["width"], f"{url} overflows at {label}"
            serious = serious_violations(page)
            if serious:
                problems[f"{url}@{label}"] = serious
    assert not problems, problems


def test_a_members_page_explains_the_evening_on_a_phone(
    browser: Browser, live_server: Any, contexts: list[Any]
) -> None:
    with database():
        world = make_club_world(name="Thursday Seep Club with a long name for a phone")
        with_password(world.director, world.director.username)
        evening = world.evening()
        world.play(evening, (0, 1, 2, 3), winner=0)
        world.play(evening, (0, 1, 4, 5), winner=1)
        world.play(evening, (6, 7, 0, 1), winner=1)
        slug, member = world.club.slug, world.members[0].pk
    page = signed_in(contexts, browser, live_server.url, world.director.username, PHONE)
    response = page.goto(f"{live_server.url}/c/{slug}/m/{member}/")
    assert response is not None and response.status == 200
    story = page.locator("#story-heading").locator("xpath=..")
    text = " ".join(story.inner_text().split())
    assert "How each evening moved the rating" in text
    assert "Expected" in text and "from 3 matches; scored 2" in text
    assert "Chance to win" in text and "with Member B" in text and "Member H" in text
    assert "Provisional" in text
    assert page.get_by_text("Provisional", exact=True).first.is_visible()
    assert page_width(page) <= PHONE["width"], "the member page overflows at 390"
    assert not serious_violations(page)
