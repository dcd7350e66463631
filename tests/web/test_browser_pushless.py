"""A pushed page whose stream cannot be reached says so (live.js): the tournament page, its
push process out of reach, polls and shows "Live updates are unavailable" above its live
part, in the page's language; once the stream opens the words go. A page whose stream is
open says nothing of the kind."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import Browser, expect

from tests.live.server import push_server

from .browser import DATABASE, WIDE, mark_loaded, never_reloaded, signed_in
from .conftest import Club

pytestmark = pytest.mark.django_db(transaction=True)

PUSHLESS = "Live updates are unavailable"


def test_a_page_whose_stream_is_out_of_reach_says_it_only_polls_until_the_stream_opens(
    browser: Browser,
    live_server: Any,
    live_club: Club,
    contexts: list[Any],
    settings: Any,
) -> None:
    with push_server(lock=DATABASE) as push:
        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "127.0.0.1", "localhost"]
        settings.LIVE_PUSH, settings.LIVE_PUSH_ORIGIN = True, push.url
        settings.CONTENT_SECURITY_POLICY += f"; connect-src 'self' {push.url}"
        settings.PUSH_CORS_ORIGINS = [live_server.url]
        page = signed_in(contexts, browser, live_server.url, None, WIDE)
        page.route(f"{push.url}/**", lambda route: route.abort())  # the push process away
        page.goto(f"{live_server.url}/t/{live_club.tournament.slug}/")
        expect(page.locator("#live[data-push-url]")).to_have_count(1)
        mark_loaded(page)
        notice = page.locator("[data-live-pushless]")
        expect(notice).to_have_text(
            "Live updates are unavailable: this page checks for changes every few seconds.",
            timeout=20_000,
        )
        expect(notice).to_have_attribute("role", "status")
        expect(page.locator("[data-live-lost]")).to_have_text("")  # the polls get through

        page.unroute(f"{push.url}/**")  # back: the browser's EventSource reconnects
        expect(notice).to_have_text("", timeout=20_000)
        assert never_reloaded(page)


def test_the_words_are_the_page_s_language_s(live_club: Club) -> None:
    client = Client(headers={"accept-language": "hi"})
    page = client.get(f"/t/{live_club.tournament.slug}/").content.decode()
    assert 'data-say-pushless="लाइव अपडेट उपलब्ध नहीं हैं' in page
    assert PUSHLESS not in page
