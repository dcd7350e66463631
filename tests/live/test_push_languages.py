"""The pushed live parts in every language (web/push.py, docs/languages.md): a page's stream
says the page's language, the push process renders a part once for each language some viewer
watches it in, and each viewer is sent its own language's part and patches."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import httpx
import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.utils import translation

import live
from live.frames import apply_patch
from tests.web.conftest import make_club
from tournaments.models import Match, Tournament
from web.views import public

from .server import PushServer, database, push_server, reading
from .test_push import Screen, end_deal, shows

pytestmark = pytest.mark.django_db(transaction=True)

DEVANAGARI = re.compile("[\u0900-\u097f]")
ARABIC = re.compile("[\u0600-\u06ff]")
PUSH_URL = re.compile(r'data-push-url="([^"]*)"')


def part_in(tournament: Tournament, language: str) -> str:
    """The tournament's live part as a page in ``language`` renders it now."""
    with database(), translation.override(language):
        t = Tournament.objects.select_related("club").get(pk=tournament.pk)
        return public.live_part(t)[0]


def sheet_in(match: Match, language: str) -> str:
    """The match sheet's live part as a page in ``language`` renders it now."""
    from web import pages

    with database(), translation.override(language):
        m = pages.match_for_page(Match.objects.all()).get(pk=match.pk)
        return public.match_live_part(m)


def feeds_of(server: PushServer) -> set[str]:
    """The keys of the feeds the push server keeps now."""

    async def keys() -> set[str]:
        return set(live.hub().feeds)

    assert server.loop is not None
    return asyncio.run_coroutine_threadsafe(keys(), server.loop).result(5)


def test_a_hindi_and_an_english_viewer_each_get_their_part_in_their_language() -> None:
    club = make_club()
    t = club.tournament
    url = f"/push/t/{t.slug}/"
    with (
        push_server() as server,
        reading(server.url + url) as english,
        reading(server.url + url + "?lang=hi") as hindi,
        reading(server.url + url + "?lang=hi") as hindi_too,
    ):
        en_screen, hi_screen, hi_screen_too = Screen(), Screen(), Screen()
        assert english.wait(shows(en_screen, part_in(t, "en"))), english.events
        assert hindi.wait(shows(hi_screen, part_in(t, "hi"))), hindi.events
        assert hindi_too.wait(shows(hi_screen_too, part_in(t, "hi"))), hindi_too.events
        assert hi_screen.text is not None and DEVANAGARI.search(hi_screen.text)
        assert en_screen.text is not None and not DEVANAGARI.search(en_screen.text)
        # one feed per language watched; no viewer in Urdu, no feed (no render) in Urdu
        assert feeds_of(server) == {f"t:{t.pk}:en", f"t:{t.pk}:hi"}

        end_deal(club.matches[0])
        after_en, after_hi = part_in(t, "en"), part_in(t, "hi")
        assert after_hi != hi_screen.text and after_en != en_screen.text
        assert english.wait(shows(en_screen, after_en)), english.events[-3:]
        assert hindi.wait(shows(hi_screen, after_hi)), hindi.events[-3:]
        assert hindi_too.wait(shows(hi_screen_too, after_hi)), hindi_too.events[-3:]
        # the change came as a patch in each language, and the two Hindi viewers were sent
        # the same bytes (one render, one patch for both)
        for viewer in (hindi, english):
            kinds = [e.kind for e in viewer.events]
            assert kinds[0] == "part" and set(kinds[1:]) == {"patch"}, kinds
        said = [(e.id, e.data) for e in hindi.events]
        assert hindi_too.wait(lambda e: len(hindi_too.events) >= len(said), timeout=5)
        assert [(e.id, e.data) for e in hindi_too.events][: len(said)] == said
        assert {e.id for e in hindi.events}.isdisjoint({e.id for e in english.events})


def test_an_urdu_viewers_patch_applies_to_the_urdu_part_it_holds() -> None:
    club = make_club()
    match = club.matches[0]
    url = f"/push/m/{match.pk}/?lang=ur"
    with push_server() as server:
        with reading(server.url + url) as first_viewer:
            first = first_viewer.wait(lambda e: e.kind == "part")
            assert first is not None and first.id
        held = first.data
        assert held == sheet_in(match, "ur") and ARABIC.search(held)
        # back with the Urdu version it holds: nothing until the change, then a patch of it
        with reading(server.url + url, {"Last-Event-ID": first.id}) as urdu:
            assert urdu.wait(lambda e: e.kind in {"part", "patch"}, timeout=1.5) is None
            end_deal(match)
            patch = urdu.wait(lambda e: e.kind in {"part", "patch"})
            assert patch is not None and patch.kind == "patch", urdu.events
            sent = json.loads(patch.data)
            assert sent["base"] == first.id
            now = "\n".join(apply_patch(held.split("\n"), sent["edits"]))
            assert now == sheet_in(match, "ur") != sheet_in(match, "en")
            assert ARABIC.search(now)


def test_the_wall_stream_shares_its_languages_feed_and_a_language_not_shipped_is_refused() -> None:
    club = make_club()
    t = club.tournament
    with push_server() as server:
        with (
            reading(f"{server.url}/push/t/{t.slug}/wall/?lang=bn") as wall,
            reading(f"{server.url}/push/t/{t.slug}/?lang=bn") as page,
        ):
            assert wall.wait(lambda e: e.kind == "changed") is not None
            assert page.wait(lambda e: e.kind == "part") is not None
            assert feeds_of(server) == {f"t:{t.pk}:bn"}
        for bad in ("fr", "xx-yy", "hi%0a", "<b>"):
            answer = httpx.get(f"{server.url}/push/t/{t.slug}/?lang={bad}", timeout=5)
            assert answer.status_code == 404, bad


def test_push_url_offers_the_stream_in_every_shipped_language(settings: Any) -> None:
    club = make_club()
    t, match = club.tournament, club.matches[0]
    settings.LIVE_PUSH, settings.LIVE_PUSH_ORIGIN = True, ""
    pages = {
        f"/t/{t.slug}/": f"/push/t/{t.slug}/",
        f"/t/{t.slug}/wall/": f"/push/t/{t.slug}/wall/",
        f"/m/{match.pk}/": f"/push/m/{match.pk}/",
    }
    for language, _name in django_settings.LANGUAGES:
        for page, stream in pages.items():
            html = Client().get(page, headers={"accept-language": language}).content.decode()
            assert f'lang="{language}"' in html, (page, language)
            offered = PUSH_URL.findall(html)
            wanted = stream + ("" if language == "en" else f"?lang={language}")
            assert offered == [wanted], (page, language, offered)
    # the phone page's stream says only "changed": the same URL in every language
    keeper = club.client("scorekeeper")
    for language in ("en", "ur"):
        html = keeper.get(f"/keep/{match.pk}/", headers={"accept-language": language})
        assert PUSH_URL.findall(html.content.decode()) == [f"/push/keep/{match.pk}/"]
