"""The browser's live check with the live part pushed (web/push.py, live.js's EventSource):
the tournament page shows a confirmed deal with its polling slowed past the test's length,
so only the stream can have brought it. tests/web/test_browser.py checks the same page
without a push process (the fallback: polling)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.live.server import push_server
from tests.live.test_push import end_deal
from web.views import public

from .browser import (
    DATABASE,
    WIDE,
    closing,
    database,
    launched,
    mark_loaded,
    never_reloaded,
    signed_in,
)
from .conftest import Club, make_club

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from launched()


@pytest.fixture
def live_club(transactional_db: None) -> Club:
    with database():
        return make_club()


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[Any]]:
    yield from closing([])


def test_a_confirmed_deal_is_pushed_to_the_tournament_page(
    browser: Browser,
    live_server: Any,
    live_club: Club,
    contexts: list[Any],
    settings: Any,
    monkeypatch: Any,
) -> None:
    monkeypatch.setattr(public, "POLL_MS", 600_000)  # no poll within the test
    match = live_club.matches[0]
    with push_server(lock=DATABASE) as push:
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "127.0.0.1", "localhost"]
        settings.LIVE_PUSH, settings.LIVE_PUSH_ORIGIN = True, push.url
        settings.CONTENT_SECURITY_POLICY += f"; connect-src 'self' {push.url}"
        page = signed_in(contexts, browser, live_server.url, None, WIDE)
        page.goto(f"{live_server.url}/t/{live_club.tournament.slug}/")
        expect(page.locator("#live[data-push-url]")).to_have_count(1)
        mark_loaded(page)
        row = page.locator(f'tr[data-team="{match.team0.name}"] [data-points]')
        expect(row).to_have_text("0")
        with database():
            end_deal(match, lock=contextlib.nullcontext())
        expect(row).to_have_text("2", timeout=15_000)
        assert never_reloaded(page)
