"""The browser's live check with the live part pushed (web/push.py, live.js's EventSource):
the tournament page shows a confirmed deal, and a seat page another seat's move, with their
polling slowed past the test's length, so only the stream can have brought it; the move the
seat then plays goes out from the pushed part's form. tests/web/test_browser.py and
tests/web/test_browser_seat.py check the same pages without a push process (the fallback:
polling)."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import Browser, expect

import seep_core as sc
from tests.live.server import push_server
from tests.live.test_push import end_deal
from tournaments.models import Match, MatchEvent
from tournaments.selectors import match_state
from web.moves import key
from web.views import public
from web.views import seat as seat_views

from .browser import (
    DATABASE,
    PHONE,
    WIDE,
    database,
    mark_loaded,
    never_reloaded,
    signed_in,
)
from .conftest import Club
from .test_seat import play, seat_user

pytestmark = pytest.mark.django_db(transaction=True)


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
        settings.PUSH_CORS_ORIGINS = [live_server.url]  # the pages' origin, exactly
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


def test_another_seats_move_is_pushed_to_the_seat_page_which_plays_from_it(
    browser: Browser,
    live_server: Any,
    live_club: Club,
    contexts: list[Any],
    settings: Any,
    monkeypatch: Any,
) -> None:
    monkeypatch.setattr(seat_views, "POLL_MS", 600_000)  # no poll within the test
    match = live_club.digital
    with database():
        deal = match_state(match).deal
        assert deal is not None and deal.to_play is not None
        move = sc.legal_moves(deal)[0]
        after = sc.apply(deal, move)
        assert after.to_play is not None and after.to_play != deal.to_play
        mover = Client()
        mover.force_login(live_club.users[seat_user(live_club, deal.to_play)])
    with push_server(lock=DATABASE) as push:
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "127.0.0.1", "localhost"]
        settings.LIVE_PUSH, settings.LIVE_PUSH_ORIGIN = True, push.url
        settings.CONTENT_SECURITY_POLICY += f"; connect-src 'self' {push.url}"
        # the site on the push server's host (another port): the session's cookie goes with
        # the stream, as behind one host in production
        site = live_server.url.replace("localhost", "127.0.0.1")
        settings.PUSH_CORS_ORIGINS = [site]
        phone = signed_in(contexts, browser, site, seat_user(live_club, after.to_play), PHONE)
        phone.goto(f"{site}/play/{match.pk}/")
        expect(phone.locator("#live[data-push-url]")).to_have_count(1)
        mark_loaded(phone)
        expect(phone.locator("#live button[name=move]")).to_have_count(0)  # not its turn
        head = match.last_seq
        with database():
            assert play(mover, match, key(move)).status_code == 302
        # the move, and this seat's turn, brought by the stream alone
        expect(phone.locator("#live [name=expected_seq]")).to_have_value(
            str(head + 1), timeout=15_000
        )
        assert phone.locator("#live button[name=move]").count() > 0
        assert never_reloaded(phone)
        # played from the pushed part's form: its CSRF token and client id are this phone's
        client_id = phone.locator("#live [name=client_id]").input_value()
        if phone.locator("#live details.play").count():
            phone.locator("#live details.play summary").first.click()
            phone.locator("#live details.play[open] button[name=move]").first.click()
        else:
            phone.locator("#live button[name=move]").first.click()
        for _ in range(60):
            with database():
                played = MatchEvent.objects.filter(idempotency_key=f"web-{client_id}").first()
            if played is not None:
                break
            phone.wait_for_timeout(250)
        assert played is not None and played.seq == head + 2
        with database():
            assert Match.objects.get(pk=match.pk).last_seq >= head + 2
