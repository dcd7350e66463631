"""The pages' live parts pushed (web/push.py, live/server.py): a viewer's stream carries a
confirmed deal within a generous bound, resumes from the version it holds, and a page
offers the stream only when the push process is there (else it polls)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from django.test import Client

from live.frames import apply_patch, line_patch
from tests.web.conftest import make_club
from tournaments import matchlog
from tournaments.access import SYSTEM
from tournaments.models import Match, Tournament
from tournaments.services import match_append_event
from web.views import public

from .server import Event, database, push_server, reading

pytestmark = pytest.mark.django_db(transaction=True)


def end_deal(match: Match, points: tuple[int, int] = (60, 40), lock: Any = None) -> None:
    """Enter the deal's result as the director would confirm it (the match ends: deal cap 1);
    ``lock``: what to hold meanwhile (the push server's on SQLite, unless said)."""
    with database() if lock is None else lock:
        match.refresh_from_db()
        match_append_event(
            match=match,
            expected_seq=match.last_seq,
            kind=matchlog.DEAL_ENDED,
            payload={"points": list(points), "sweeps": [[], []]},
            actor=SYSTEM,
        )


class Screen:
    """What a viewer's page shows: the last part, with the patches since applied."""

    def __init__(self) -> None:
        self.text: str | None = None

    def take(self, event: Event) -> bool:
        if event.kind == "part":
            self.text = event.data
        elif event.kind == "patch":
            assert self.text is not None, "a patch before any part"
            patch = json.loads(event.data)
            self.text = "\n".join(apply_patch(self.text.split("\n"), patch["edits"]))
        return False


def shows(screen: Screen, html: str) -> Any:
    seen: set[int] = set()

    def test(event: Event) -> bool:
        if id(event) not in seen:
            seen.add(id(event))
            screen.take(event)
        return screen.text == html

    return test


def part_now(tournament: Tournament) -> str:
    """The tournament's live part as the pages render it now."""
    with database():
        t = Tournament.objects.select_related("club").get(pk=tournament.pk)
        return public.live_part(t)[0]


def test_a_tournament_viewer_is_sent_a_confirmed_deal_and_the_new_standings() -> None:
    club = make_club()
    url = f"/push/t/{club.tournament.slug}/"
    with push_server() as server, reading(server.url + url) as viewer:
        screen = Screen()
        assert viewer.wait(shows(screen, part_now(club.tournament))), viewer.events
        before = screen.text
        end_deal(club.matches[0])
        after = part_now(club.tournament)
        assert after != before
        # within a generous bound (the speed is measured by make bench-live)
        assert viewer.wait(shows(screen, after), timeout=10), viewer.events[-3:]
        # the change came as a patch of the part the viewer held, not the whole again
        assert [e.kind for e in viewer.events].count("part") == 1
        assert "patch" in [e.kind for e in viewer.events]


def test_a_match_sheet_viewer_is_sent_the_deal() -> None:
    club = make_club()
    match = club.matches[0]
    with push_server() as server, reading(f"{server.url}/push/m/{match.pk}/") as viewer:
        first = viewer.wait(lambda e: e.kind == "part")
        assert first is not None
        end_deal(match)
        changed = viewer.wait(lambda e: e.kind in {"part", "patch"} and e is not first)
        assert changed is not None and changed.id != first.id


def test_a_stream_resumed_from_the_version_it_holds_sends_nothing_until_a_change() -> None:
    club = make_club()
    url_ = f"/push/t/{club.tournament.slug}/"
    with push_server() as server:
        with reading(server.url + url_) as viewer:
            first = viewer.wait(lambda e: e.kind == "part")
            assert first is not None and first.id
        # back with the version it holds: no part again
        with reading(server.url + url_, {"Last-Event-ID": first.id}) as again:
            assert again.wait(lambda e: e.kind in {"part", "patch"}, timeout=1.5) is None
            end_deal(club.matches[0])
            # the change, as a patch of what it holds
            patch = again.wait(lambda e: e.kind in {"part", "patch"})
            assert patch is not None and patch.kind == "patch", again.events


def test_the_phone_page_is_told_its_part_changed_and_an_outsider_gets_no_stream() -> None:
    club = make_club()
    match = club.matches[0]
    browser = Client()
    browser.force_login(club.users["scorekeeper"])
    cookies = {"Cookie": f"sessionid={browser.cookies['sessionid'].value}"}
    with push_server() as server:
        url_ = f"{server.url}/push/keep/{match.pk}/"
        assert httpx.get(url_, timeout=5).status_code in {302, 404}  # no one's phone
        with reading(url_, cookies) as phone:
            first = phone.wait(lambda e: e.kind == "changed")
            assert first is not None
            end_deal(match)
            assert phone.wait(lambda e: e.kind == "changed" and e.id != first.id) is not None
            # only that it changed: the page fetches its own part (forms, its team's link)
            assert all("<" not in e.data for e in phone.events if e.kind == "changed")


def test_a_page_offers_the_stream_only_with_live_push_on(settings: Any) -> None:
    club = make_club()
    page = f"/t/{club.tournament.slug}/"
    settings.LIVE_PUSH = False
    assert b"data-push-url" not in Client().get(page).content
    settings.LIVE_PUSH, settings.LIVE_PUSH_ORIGIN = True, ""
    html = Client().get(page).content.decode()
    assert f'data-push-url="/push/t/{club.tournament.slug}/"' in html
    # a page in another language asks for its part in that language (docs/languages.md)
    hindi = Client().get(page, headers={"accept-language": "hi"}).content.decode()
    assert f'data-push-url="/push/t/{club.tournament.slug}/?lang=hi"' in hindi


def test_the_push_process_serves_the_streams_only() -> None:
    club = make_club()
    with push_server() as server:
        assert httpx.get(f"{server.url}/t/{club.tournament.slug}/").status_code == 404
        assert httpx.get(f"{server.url}/healthz").status_code == 200
        assert httpx.get(f"{server.url}/push/t/no-such-tournament/").status_code == 404
        assert httpx.post(f"{server.url}/push/t/{club.tournament.slug}/").status_code in {403, 405}


def test_a_patch_turns_the_part_a_viewer_holds_into_the_new_one() -> None:
    import random

    rng = random.Random(11)
    common = ["<tr>", "</tr>", '<td class="num">0</td>', ""]
    for _ in range(200):
        before = [
            rng.choice([*common, f"row {rng.randrange(50)}"]) for _ in range(rng.randrange(80))
        ]
        after = list(before)
        for _ in range(rng.randrange(6)):
            at = rng.randrange(len(after) + 1)
            if after and rng.random() < 0.5:
                del after[min(at, len(after) - 1)]
            else:
                after.insert(at, rng.choice([*common, f"new {rng.randrange(9)}"]))
        assert apply_patch(before, line_patch(before, after)) == after


def test_a_viewer_whose_socket_takes_nothing_is_dropped_after_the_send_limit(
    caplog: Any,
) -> None:
    """Back-pressure: a write that waits past the limit ends the connection (nothing is
    buffered for it), and the log says why. Driven through the ASGI interface, with a
    ``send`` that never completes (a client whose socket is full)."""
    import asyncio
    import logging

    import live
    from deploy.push import make_application

    club = make_club()
    app = make_application(timeout=0.3)
    messages: list[dict[str, Any]] = []
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": f"/push/t/{club.tournament.slug}/",
        "raw_path": f"/push/t/{club.tournament.slug}/".encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"127.0.0.1")],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8001),
    }

    async def run() -> float:
        requests = [{"type": "http.request", "body": b"", "more_body": False}]

        async def receive() -> dict[str, Any]:
            if requests:
                return requests.pop()
            await asyncio.Event().wait()  # the client never leaves by itself
            raise AssertionError

        stuck_at: list[float] = []

        async def send(message: dict[str, Any]) -> None:
            messages.append(message)
            if message.get("body"):
                stuck_at.append(asyncio.get_running_loop().time())
                await asyncio.Event().wait()  # the socket never takes it

        try:
            async with asyncio.timeout(20):
                await app(scope, receive, send)
            # from the write that never completes to the connection's end
            return asyncio.get_running_loop().time() - stuck_at[0]
        finally:
            await live.hub().release()

    with caplog.at_level(logging.INFO, logger="live.server"):
        took = asyncio.run(run())
    assert messages[0]["type"] == "http.response.start" and messages[0]["status"] == 200
    # one write tried, and none after it: nothing queued for a client that does not read
    assert [m.get("body")[:7] for m in messages[1:]] == [b"retry: "]
    assert 0.3 <= took < 0.3 + 2 * live.TICK_SECONDS + 1
    assert "dropped a client that read nothing" in caplog.text


def test_the_hubs_timers_call_each_callback_once_when_due_and_never_once_cancelled() -> None:
    import asyncio

    import live

    async def run() -> tuple[list[str], list[str]]:
        loop = asyncio.get_running_loop()
        timers = live.Timers(loop)
        called: list[str] = []
        early: list[str] = []
        timers.call_later(0.0, lambda: called.append("now"))
        timers.call_later(0.4, lambda: called.append("later"))
        timers.call_later(0.1, lambda: called.append("cancelled")).cancel()
        timers.fire()  # nothing is due before its slot
        early.extend(called)
        runner = loop.create_task(timers.run())
        await asyncio.sleep(0.4 + 2 * live.TICK_SECONDS)
        runner.cancel()
        timers.fire()
        return early, called

    early, called = asyncio.run(run())
    assert early == []
    assert called == ["now", "later"]


def test_a_viewer_is_written_to_from_the_feed_and_a_slow_one_is_sent_the_newest_after() -> None:
    """The push process's writer (live.server.Writer): each item written at once, with no task
    of the viewer's own; while a write waits for a full socket, what is offered meanwhile is
    not queued: the newest is written after it, and a quiet viewer gets a heartbeat."""
    import asyncio

    import live
    from live.server import Writer

    async def run() -> tuple[list[bytes], list[str], int]:
        hub = live.hub()
        written: list[bytes] = []
        picked: list[str] = []
        socket_free = asyncio.Event()
        socket_free.set()

        async def send(message: dict[str, Any]) -> None:
            if not socket_free.is_set():
                await socket_free.wait()
            written.append(message["body"])

        def pick(item: str) -> bytes:
            picked.append(item)
            return item.encode()

        response = live.FeedResponse(
            "k", [], lambda: None, pick, first=b"hello", end=b"bye", heartbeat=0.5
        )  # type: ignore[arg-type]
        writer = Writer(send, response, hub, timeout=5)
        try:
            tasks_before = len(asyncio.all_tasks())
            writer.write(response.first)
            writer.offer("v1")
            assert written == [b"hello", b"v1"]  # at once, in the offer
            assert len(asyncio.all_tasks()) == tasks_before  # and no task for it
            socket_free.clear()  # the client's socket is full
            writer.offer("v2")  # waits for the socket
            writer.offer("v3")  # offered meanwhile: replaced by the next
            writer.offer("v4")
            await asyncio.sleep(0.05)
            assert written == [b"hello", b"v1"]
            socket_free.set()
            await asyncio.sleep(0.05)
            for _ in range(40):  # quiet: a heartbeat, after half a second and a tick or so
                if b": ping\n\n" in written[4:]:
                    break
                await asyncio.sleep(0.1)
            return written, picked, len(written)
        finally:
            await writer.stop()
            await hub.release()

    written, picked, _ = asyncio.run(run())
    assert picked == ["v1", "v2", "v4"]  # v3 never chosen: the newest went after v2
    assert written[:4] == [b"hello", b"v1", b"v2", b"v4"]
    assert b": ping\n\n" in written[4:]


def test_a_timer_set_by_a_timers_callback_fires_and_a_feed_ending_mid_write_says_so_after() -> None:
    import asyncio

    import live
    from live.server import Writer

    async def run() -> tuple[list[str], list[bytes], str]:
        hub = live.hub()
        fired: list[str] = []
        hub.timers.call_later(0.0, lambda: hub.timers.call_later(0.0, lambda: fired.append("x")))
        await asyncio.sleep(4 * live.TICK_SECONDS)
        written: list[bytes] = []
        socket_free = asyncio.Event()

        async def send(message: dict[str, Any]) -> None:
            if not socket_free.is_set():
                await socket_free.wait()
            written.append(message["body"])

        response = live.FeedResponse(
            "k", [], lambda: None, lambda item: item, first=b"", end=b"bye", heartbeat=60
        )  # type: ignore[arg-type]
        writer = Writer(send, response, hub, timeout=5)
        try:
            writer.offer(b"v1")  # the socket is full: under way
            writer.close("gone")  # the thing is gone meanwhile
            assert not writer.ended.done()
            socket_free.set()
            reason = await asyncio.wait_for(writer.ended, 2)
            return fired, written, reason
        finally:
            await writer.stop()
            await hub.release()

    fired, written, reason = asyncio.run(run())
    assert fired == ["x"]
    assert written == [b"v1", b"bye"] and reason == "gone"
