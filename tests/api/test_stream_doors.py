"""How a client reaches the API's two streams (docs/api.md, "The stream"): with what an
EventSource sends (``Accept: text/event-stream``), with ``*/*`` and with no Accept; from the
push process (``make stack``, production), and from the web process itself when there is no
push process (``make run``); and, on the web port of a site that has one, a 404 problem that
says where the streams are."""

from __future__ import annotations

import json
import random
import threading
import time
from typing import Any

import httpx
import pytest

from api import stream_web
from tests.live.server import database, push_server, reading, web_server
from tests.scoring.helpers import play

from .test_results import results_head, some_results
from .test_stream import bearer, seqs, until_seq

pytestmark = pytest.mark.django_db(transaction=True)

#: what clients send: an EventSource, curl and most libraries, a bare request, a JSON client,
#: a browser's own list
ACCEPTED = [
    "text/event-stream",
    "*/*",
    None,
    "application/json",
    "text/event-stream, */*;q=0.1",
    "text/*",
]


@pytest.fixture(autouse=True)
def _local_host(settings: Any) -> None:
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "127.0.0.1"]


def stream_urls(league: Any, base: str) -> dict[str, str]:
    return {
        "match": f"{base}/api/v1/matches/{league.digital.pk}/stream/",
        "results": f"{base}/api/v1/tournaments/{league.a.pk}/results/stream/",
    }


def accept(value: str | None) -> dict[str, str]:
    return {} if value is None else {"Accept": value}


def opened(url: str) -> int:
    """The status a stream answers (its body left unread)."""
    with httpx.stream("GET", url, timeout=9) as response:
        return response.status_code


def assert_streams_with_every_accept(league: Any, base: str) -> None:
    some_results(league.a.pk, 2)
    league.digital.refresh_from_db()
    head = {"match": league.digital.last_seq, "results": results_head(league.a.pk)}
    for name, url in stream_urls(league, base).items():
        for value in ACCEPTED:
            with reading(url, accept(value)) as reader:
                assert reader.response.status_code == 200, (name, value)
                assert reader.response.headers["Content-Type"].startswith("text/event-stream")
                assert reader.wait(until_seq(head[name])) is not None, (name, value)
                assert seqs(reader) == list(range(1, head[name] + 1)), (name, value)
        # what no stream can answer: refused as the API refuses, a problem document
        refused = httpx.get(url, headers={"Accept": "text/html"}, timeout=10)
        assert refused.status_code == 406, name
        assert refused.headers["Content-Type"] == "application/problem+json"
        assert refused.json()["code"] == "not_acceptable"


def test_the_push_processs_streams_take_what_an_event_source_sends(league: Any) -> None:
    with push_server() as server:
        assert_streams_with_every_accept(league, server.url)


def test_the_web_process_serves_the_streams_when_there_is_no_push_process(
    league: Any, monkeypatch: Any
) -> None:
    # a stream's thread is freed at its next heartbeat after the client went: room for all
    monkeypatch.setattr(stream_web, "_slots", threading.BoundedSemaphore(4 * len(ACCEPTED)))
    with web_server() as base:
        assert_streams_with_every_accept(league, base)


def test_the_web_processs_stream_sends_the_log_then_each_new_event_and_resumes(
    league: Any,
) -> None:
    match = league.digital
    rng = random.Random(7)
    play(match, rng, moves=4)
    match.refresh_from_db()
    with web_server() as base:
        url = f"{base}/api/v1/matches/{match.pk}/stream/"
        with reading(url, {"Accept": "text/event-stream", **bearer(league, "a_read")}) as first:
            assert first.wait(until_seq(match.last_seq)) is not None, first.events
            with database():
                play(match, rng, moves=3)  # appended while it listens
            match.refresh_from_db()
            assert first.wait(until_seq(match.last_seq)) is not None, first.events
            assert seqs(first) == list(range(1, match.last_seq + 1))
        held = match.last_seq
        with database():
            play(match, rng, moves=2)
        match.refresh_from_db()
        with reading(url, {"Last-Event-ID": str(held)}) as again:
            assert again.wait(until_seq(match.last_seq)) is not None, again.events
            assert seqs(again) == list(range(held + 1, match.last_seq + 1))
        # the same refusals as the push process's
        private = httpx.get(f"{base}/api/v1/matches/{league.private_match.pk}/stream/", timeout=9)
        assert private.status_code == 404
        assert private.headers["Content-Type"] == "application/problem+json"
        position = httpx.get(f"{url}?after=-1", timeout=9)
        assert position.status_code == 400 and position.json()["code"] == "bad_position"


def test_a_web_process_holds_only_so_many_streams_and_says_so(
    league: Any, monkeypatch: Any
) -> None:
    monkeypatch.setattr(stream_web, "_slots", threading.BoundedSemaphore(1))
    with web_server() as base:
        url = stream_urls(league, base)["match"]
        with reading(url) as first:
            assert first.wait(until_seq(1)) is not None
            busy = httpx.get(url, timeout=9)
            assert busy.status_code == 503 and busy.json()["code"] == "streams_busy"
            assert busy.headers["Content-Type"] == "application/problem+json"
            assert busy.headers["Retry-After"]
        # its slot is free again once the server learnt the first client went (its next
        # heartbeat's write failed)
        deadline = time.monotonic() + 30
        while opened(url) == 503:
            assert time.monotonic() < deadline, "the first stream's slot was never freed"
            time.sleep(0.2)


@pytest.mark.parametrize("origin", ["http://127.0.0.1:8001", ""])
def test_with_a_push_process_the_web_port_says_where_the_streams_are(
    league: Any, settings: Any, origin: str
) -> None:
    settings.LIVE_PUSH, settings.LIVE_PUSH_ORIGIN = True, origin
    client = league.client()
    for path in stream_urls(league, "").values():
        answer = client.get(f"{path}?after=3", HTTP_ACCEPT="text/event-stream")
        assert answer.status_code == 404
        assert answer["Content-Type"] == "application/problem+json"
        document = json.loads(answer.content)
        assert document["code"] == "not_found"
        assert "push process" in document["detail"]
        if origin:
            assert document["stream_url"] == f"{origin}{path}?after=3"
            assert document["stream_url"] in document["detail"]
        else:
            assert "stream_url" not in document
            assert "proxy" in document["detail"]


def test_the_sites_own_pages_on_another_port_may_read_the_streams_no_other_origin(
    league: Any, settings: Any
) -> None:
    settings.ALLOWED_HOSTS = ["localhost", "127.0.0.1"]
    own = "http://127.0.0.1:8000"  # make stack's pages, the streams on 8001
    settings.PUSH_CORS_ORIGINS = [own]
    with push_server() as server:
        url = stream_urls(league, server.url)["match"]
        with reading(url, {"Origin": own, "Accept": "text/event-stream"}) as reader:
            assert reader.response.headers["Access-Control-Allow-Origin"] == own
            assert reader.response.headers["Access-Control-Allow-Credentials"] == "true"
        for other in ("https://elsewhere.example", "http://127.0.0.1:9999"):
            with reading(url, {"Origin": other}) as reader:
                assert reader.response.status_code == 200
                assert "Access-Control-Allow-Origin" not in reader.response.headers
    with web_server() as base, reading(stream_urls(league, base)["results"], {"Origin": own}) as r:
        assert r.response.headers["Access-Control-Allow-Origin"] == own
