"""The push process under abuse (live/server.py): open streams capped per client address and
in all, refused with Retry-After while /healthz and everyone else's streams go on; the
streams' CORS for the configured origins exactly; a page stream that ends when its
tournament stops being public to its viewer."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from django.test import Client

from competition import services as competition
from tests.web.conftest import make_club

from .server import Reader, database, push_server, reading
from .test_push import end_deal

pytestmark = pytest.mark.django_db(transaction=True)


@contextlib.contextmanager
def reading_from(address: str, url: str) -> Iterator[Reader]:
    """Open the stream at ``url`` from the local address ``address`` (another client: the
    whole of 127.0.0.0/8 is this machine's) and read it in a thread."""
    transport = httpx.HTTPTransport(local_address=address)
    with (
        httpx.Client(transport=transport, timeout=httpx.Timeout(30.0, connect=5.0)) as client,
        client.stream("GET", url) as response,
    ):
        reader = Reader(response)
        thread = threading.Thread(target=reader.run, daemon=True)
        thread.start()
        try:
            yield reader
        finally:
            stream = response.extensions.get("network_stream")
            sock = stream.get_extra_info("socket") if stream is not None else None
            if sock is not None:  # wakes the reader's blocking read at once
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
            response.close()
            thread.join(5)


def refused(url: str, address: str = "127.0.0.1") -> httpx.Response:
    with httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=5) as c:
        return c.get(url)


def test_one_address_over_its_cap_is_refused_and_healthz_and_other_clients_go_on(
    settings: Any,
) -> None:
    settings.PUSH_MAX_STREAMS_PER_CLIENT = 3
    club = make_club()
    page = f"/push/t/{club.tournament.slug}/"
    api = f"/api/v1/tournaments/{club.tournament.pk}/results/stream/"
    with push_server() as server, contextlib.ExitStack() as held:
        for _ in range(3):  # idle streams of one address, up to its cap
            viewer = held.enter_context(reading_from("127.0.0.1", server.url + page))
            assert viewer.response.status_code == 200
        over = refused(server.url + page)
        assert over.status_code == 429
        assert int(over.headers["Retry-After"]) > 0
        assert "streams open" in over.text
        problem = refused(server.url + api)  # the API's streams: its problem document
        assert problem.status_code == 429 and int(problem.headers["Retry-After"]) > 0
        assert problem.headers["Content-Type"] == "application/problem+json"
        assert json.loads(problem.content)["code"] == "too_many_streams"
        # the probe, and another client's stream, as if nothing happened
        assert httpx.get(f"{server.url}/healthz", timeout=5).status_code == 200
        with reading_from("127.0.0.2", server.url + page) as other:
            assert other.response.status_code == 200
            assert other.wait(lambda e: e.kind == "part") is not None
        # a stream that ends gives its place back (once the server heard it go)
        held.close()
        deadline = time.monotonic() + 5
        while (status := refused(server.url + "/push/t/no-such/").status_code) == 429:
            assert time.monotonic() < deadline, "the closed streams kept their places"
            time.sleep(0.05)
        assert status == 404  # admitted, and answered by the view


def test_a_push_process_full_refuses_with_503_and_retry_after_and_healthz_answers(
    settings: Any,
) -> None:
    settings.PUSH_MAX_STREAMS = 2
    club = make_club()
    page = f"/push/t/{club.tournament.slug}/"
    with (
        push_server() as server,
        reading_from("127.0.0.1", server.url + page) as one,
        reading_from("127.0.0.2", server.url + page) as two,
    ):
        assert one.response.status_code == two.response.status_code == 200
        full = refused(server.url + page, "127.0.0.3")
        assert full.status_code == 503 and int(full.headers["Retry-After"]) > 0
        assert httpx.get(f"{server.url}/healthz", timeout=5).status_code == 200


def test_the_cap_in_all_stays_under_the_processes_limit_of_open_files(settings: Any) -> None:
    """Past its limit of open files a server accepts no one, not even to refuse them: the
    cap keeps room below it, whatever PUSH_MAX_STREAMS says."""
    import resource

    from deploy.push import make_application
    from live.server import FILES_KEPT

    settings.PUSH_MAX_STREAMS = 10**9
    app = make_application()
    files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    assert 0 < app.streams.total <= files - FILES_KEPT


def test_the_streams_cors_is_for_the_configured_origins_exactly(settings: Any) -> None:
    own = "http://127.0.0.1:8000"  # make stack's pages, the streams on 8001
    settings.PUSH_CORS_ORIGINS = [own]
    club = make_club()
    url = f"/push/t/{club.tournament.slug}/"
    with push_server() as server:
        with reading(server.url + url, {"Origin": own}) as viewer:
            assert viewer.response.headers["Access-Control-Allow-Origin"] == own
            assert viewer.response.headers["Access-Control-Allow-Credentials"] == "true"
        # the same host on another port or scheme is another site
        for foreign in ("http://127.0.0.1:9999", "https://127.0.0.1:8000", "http://127.0.0.1"):
            with reading(server.url + url, {"Origin": foreign}) as viewer:
                assert "Access-Control-Allow-Origin" not in viewer.response.headers
                assert "Access-Control-Allow-Credentials" not in viewer.response.headers


def made_private(tournament: Any) -> None:
    """The director unpublishes the tournament (its change published as any other's)."""
    with database():
        tournament.refresh_from_db()
        competition.tournament_update(
            actor=tournament.organizer, tournament=tournament, published=False
        )


def session_of(user: Any) -> dict[str, str]:
    browser = Client()
    browser.force_login(user)
    return {"Cookie": f"sessionid={browser.cookies['sessionid'].value}"}


def test_a_page_stream_ends_when_its_tournament_turns_private_and_a_director_keeps_it() -> None:
    club = make_club()
    url = f"/push/t/{club.tournament.slug}/"
    director = session_of(club.users["director"])
    with (
        push_server() as server,
        reading(server.url + url) as public,
        reading(server.url + url, director) as desk,
        reading(f"{server.url}/push/m/{club.matches[0].pk}/") as sheet,
    ):
        for viewer in (public, desk, sheet):
            assert viewer.wait(lambda e: e.kind == "part") is not None
        made_private(club.tournament)
        # the public's streams end, saying so, and nothing of the tournament after
        for viewer in (public, sheet):
            assert viewer.wait(lambda e: e.kind == "end", timeout=10) is not None, viewer.events
            assert viewer.wait_ended(timeout=5)
            assert viewer.events[-1].kind == "end"
        # its director may still see it: the stream goes on, and carries the next deal
        assert not desk.ended
        parts = len([e for e in desk.events if e.kind in {"part", "patch"}])
        end_deal(club.matches[0])
        assert desk.wait(
            lambda e: len([e for e in desk.events if e.kind in {"part", "patch"}]) > parts
        )
        assert all(e.kind != "end" for e in desk.events)
        # and a new stream of the public's is refused, as the page would be
        assert httpx.get(server.url + url, timeout=5).status_code == 404


def test_a_viewer_signed_out_meanwhile_is_asked_again_as_the_public() -> None:
    club = make_club(published=False)
    url = f"/push/t/{club.tournament.slug}/"
    browser = Client()
    browser.force_login(club.users["director"])
    cookie = {"Cookie": f"sessionid={browser.cookies['sessionid'].value}"}
    with push_server() as server, reading(server.url + url, cookie) as desk:
        assert desk.wait(lambda e: e.kind == "part") is not None
        with database():
            browser.logout()  # the session is gone
        end_deal(club.matches[0])
        assert desk.wait(lambda e: e.kind == "end", timeout=10) is not None, desk.events


def test_each_stream_is_told_a_retry_of_its_own_so_returning_viewers_spread(
    settings: Any,
) -> None:
    from live import responses as live_responses

    club = make_club()
    urls = [
        f"/push/t/{club.tournament.slug}/",
        f"/api/v1/tournaments/{club.tournament.pk}/results/stream/",
    ]
    retries = []
    with push_server() as server, httpx.Client(timeout=10) as client:
        for n in range(10):
            with client.stream("GET", server.url + urls[n % 2]) as response:
                first = next(response.iter_lines())
            assert first.startswith("retry: "), first
            retries.append(int(first.removeprefix("retry: ")))
    low, high = live_responses.RETRY_MS
    assert all(low <= r <= high for r in retries)
    assert len(set(retries)) > 1


@pytest.mark.postgres
def test_a_database_thread_just_used_asks_no_select_1_before_the_next_admission(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each admission ends with request_finished, which asks for the connection's health
    check (a round trip) before the next query: a thread whose last job just ended skips it,
    as it skips the rest of that look (live.feeds._fresh)."""
    from django.core.signals import request_finished
    from django.db import connections

    from live import feeds as live_feeds
    from tournaments.models import Tournament

    connection = connections["default"]
    assert connection.settings_dict["CONN_HEALTH_CHECKS"]
    checks: list[int] = []
    usable = type(connection).is_usable

    def counted(self: Any) -> bool:
        checks.append(1)
        return usable(self)

    monkeypatch.setattr(type(connection), "is_usable", counted)

    def admission() -> None:
        Tournament.objects.filter(pk=0).exists()
        request_finished.send(sender=None)  # what the push process's response.close() sends

    live_feeds._job(admission)
    checks.clear()
    for _ in range(5):
        live_feeds._job(admission)
    assert checks == []
    live_feeds._last_job.ended = (
        -live_feeds.FRESH_SECONDS
    )  # a thread idle for a while: checked again
    live_feeds._job(admission)
    assert checks == [1]


def test_a_room_coming_back_to_a_published_tournament_is_admitted_without_a_query_each(
    django_assert_num_queries: Any,
) -> None:
    """A push process that went away sends its room back to the other at once: each stream of
    the same published tournament (or of one of its match sheets) is admitted from what the
    last admission found, for ``PUBLISHED_SECONDS``, not by a query of its own."""
    from django.contrib.auth.models import AnonymousUser
    from django.contrib.sessions.backends.db import SessionStore
    from django.test import RequestFactory

    from web import push as push_pages

    club = make_club()
    push_pages._published.clear()

    def admit(path: str) -> Any:
        request = RequestFactory().get(path)
        request.user, request.session = AnonymousUser(), SessionStore()
        view = push_pages.tournament_stream if "/t/" in path else push_pages.match_stream
        arg = club.tournament.slug if "/t/" in path else club.matches[0].pk
        response = view(request, arg)
        assert response.status_code == 200
        return response

    for path in (f"/push/t/{club.tournament.slug}/", f"/push/m/{club.matches[0].pk}/"):
        admit(path)  # found, and kept
        with django_assert_num_queries(0):
            for _ in range(5):
                admit(path)
