"""The integrators' stream of a match's log (api/stream.py, served by the push process): from
a seq, every event after it once and in order, then each new one; as the event feed shows it
to the same caller (no hidden card); authenticated by the API's tokens, and ended when the
token is revoked; refusals as problem documents."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import httpx
import pytest
from django.test import Client

from api import stream
from api.models import ApiToken
from tests.live.server import Reader, database, push_server, reading
from tests.scoring.helpers import play

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _push_host(settings: Any) -> None:
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "127.0.0.1"]


def bearer(league: Any, name: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {league.tokens[name]}"}


def session_of(user: Any) -> dict[str, str]:
    browser = Client()
    browser.force_login(user)
    return {"Cookie": f"sessionid={browser.cookies['sessionid'].value}"}


def seqs(reader: Reader) -> list[int]:
    return [int(e.id) for e in reader.events if e.id is not None]


def until_seq(seq: int) -> Any:
    return lambda e: e.id is not None and int(e.id) >= seq


def feed(league: Any, match: Any, who: str | None = None, token: str | None = None) -> Any:
    client = league.client(who, token=token)
    body = client.get(f"/api/v1/matches/{match.pk}/events/", {"limit": 500}).json()
    return body["results"]


def test_a_stream_sends_the_log_then_each_new_event_and_resumes_with_nothing_lost_or_doubled(
    league: Any,
) -> None:
    match = league.digital
    rng = random.Random(3)
    play(match, rng, moves=5)
    match.refresh_from_db()
    head = match.last_seq
    with push_server() as server:
        url = f"{server.url}/api/v1/matches/{match.pk}/stream/"
        with reading(url, bearer(league, "a_read")) as first:
            assert first.wait(until_seq(head)) is not None, first.events
            assert seqs(first) == list(range(1, head + 1))
            with database():
                play(match, rng, moves=3)  # appended while it listens
            match.refresh_from_db()
            assert first.wait(until_seq(match.last_seq)) is not None, first.events
            assert seqs(first) == list(range(1, match.last_seq + 1))
        held = match.last_seq
        with database():
            play(match, rng, moves=4)  # appended while it was away
        match.refresh_from_db()
        with reading(url, {**bearer(league, "a_read"), "Last-Event-ID": str(held)}) as again:
            assert again.wait(until_seq(match.last_seq)) is not None, again.events
            assert seqs(again) == list(range(held + 1, match.last_seq + 1))
        # ?after= when there is no Last-Event-ID
        with reading(f"{url}?after={match.last_seq - 1}", bearer(league, "a_read")) as tail:
            assert tail.wait(until_seq(match.last_seq)) is not None
            assert seqs(tail) == [match.last_seq]


def test_each_caller_is_streamed_the_events_as_the_feed_shows_them_no_hidden_card(
    league: Any,
) -> None:
    match = league.digital
    play(match, random.Random(5), moves=6)
    match.refresh_from_db()
    seated = league.teams_a[0].first_player.user.username
    callers = {
        "seat": ({"who": seated}, session_of(league.users[seated])),
        "public": ({}, {}),
        "director token": ({"token": "a_read"}, bearer(league, "a_read")),
    }
    with push_server() as server:
        url = f"{server.url}/api/v1/matches/{match.pk}/stream/"
        shown = {}
        for name, (as_feed, headers) in callers.items():
            with reading(url, headers) as reader:
                assert reader.wait(until_seq(match.last_seq)) is not None, (name, reader.events)
                streamed = [json.loads(e.data) for e in reader.events if e.id is not None]
            expected = feed(league, match, **as_feed)
            for a, b in zip(streamed, expected, strict=True):
                assert a == b, (name, a, b)
            assert [e.kind for e in reader.events if e.id is not None] == [
                e["kind"] for e in streamed
            ]
            shown[name] = streamed
    # the deal's deck in play is hidden from a seat and from the public, shown to a director
    # (the feed's own tests pin who sees which card; the stream shows what the feed shows)
    for name in ("seat", "public"):
        assert any(e.get("hidden") for e in shown[name] if e["kind"] == "deal_started"), name
    assert not any(e.get("hidden") for e in shown["director token"])
    assert shown["director token"] != shown["public"]


def test_a_revoked_tokens_stream_ends_saying_why(league: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(stream, "RECHECK_SECONDS", 0.3)
    match = league.digital
    with push_server() as server:
        url = f"{server.url}/api/v1/matches/{match.pk}/stream/"
        with reading(url, bearer(league, "a_read")) as reader:
            assert reader.wait(until_seq(match.last_seq)) is not None
            with database():
                ApiToken.objects.filter(name="a_read").delete()
            end = reader.wait(lambda e: e.kind == "end", timeout=10)
            assert end is not None, reader.events
            # the refusal the API gives that token now
            refused = league.client(token="a_read").get(f"/api/v1/matches/{match.pk}/events/")
            assert refused.status_code == 401
            assert json.loads(end.data)["code"] == refused.json()["code"]
            assert reader.wait_ended()


def test_refusals_are_problem_documents(league: Any) -> None:
    with push_server() as server:
        base = f"{server.url}/api/v1/matches"
        private = httpx.get(f"{base}/{league.private_match.pk}/stream/", timeout=5)
        assert private.status_code == 404
        assert private.headers["Content-Type"] == "application/problem+json"
        bad = httpx.get(
            f"{base}/{league.digital.pk}/stream/", headers={"Authorization": "Bearer nonsense"}
        )
        assert bad.status_code == 401 and bad.json()["code"] == "not_authenticated"
        assert bad.headers["Content-Type"] == "application/problem+json"
        position = httpx.get(f"{base}/{league.digital.pk}/stream/?after=-3")
        assert position.status_code == 400 and position.json()["code"] == "bad_position"
        other = httpx.get(
            f"{base}/{league.private_match.pk}/stream/", headers=bearer(league, "a_read")
        )
        assert other.status_code == 404


def test_a_client_that_reads_too_slowly_is_dropped_with_the_reason(
    league: Any, monkeypatch: Any
) -> None:
    # every write counts as slow here: the drop itself is what is tested (a real slow reader
    # needs megabytes of events to fill the sockets' buffers)
    monkeypatch.setattr(stream, "SLOW_SECONDS", -1.0)
    match = league.digital
    with push_server() as server:
        url = f"{server.url}/api/v1/matches/{match.pk}/stream/"
        with reading(url) as reader:
            end = reader.wait(lambda e: e.kind == "end")
            assert end is not None and json.loads(end.data)["code"] == "slow_consumer"
            assert seqs(reader) == [1]  # it resumes from there
            assert reader.wait_ended()


def test_a_streams_checks_of_its_caller_spend_nothing_of_their_rate_limit(
    league: Any, monkeypatch: Any
) -> None:
    from api.throttling import RateThrottle

    monkeypatch.setattr(stream, "RECHECK_SECONDS", 0.1)
    asked = []
    allow = RateThrottle.allow_request

    def counted(self: Any, request: Any, view: Any) -> bool:
        asked.append(type(view).__name__)
        return bool(allow(self, request, view))

    monkeypatch.setattr(RateThrottle, "allow_request", counted)
    match = league.digital
    with push_server() as server:
        url = f"{server.url}/api/v1/matches/{match.pk}/stream/"
        with reading(url, bearer(league, "a_read")) as reader:
            assert reader.wait(until_seq(match.last_seq)) is not None
            time.sleep(1.0)  # about ten checks of the caller, with nothing to send
            assert not reader.ended
    assert asked == ["_Gate"]  # the connection's only: the checks are not requests of theirs
