"""A tournament's results log (api/results.py): each happening its webhooks tell, numbered in
the order it was committed; read a page at a time from a seq (``GET
/tournaments/{id}/results/``) or followed as a stream from a seq (the push process's
``/tournaments/{id}/results/stream/``), resumed with nothing lost or doubled; only by those who
may see the tournament."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import httpx
import pytest
from django.db import close_old_connections, connection, transaction

from api import results
from tests.live.server import database, push_server, reading
from tournaments import happenings
from tournaments.models import Happening

from .test_stream import bearer, seqs, until_seq

pytestmark = pytest.mark.django_db(transaction=True)


def record(tournament_id: int, kind: str, body: dict[str, Any], key: str = "") -> Happening:
    """Write a happening in a transaction of its own (as a service writes it in its own)."""
    with transaction.atomic():
        return happenings.write(tournament_id=tournament_id, kind=kind, body=body, key=key)


@pytest.fixture(autouse=True)
def _push_host(settings: Any) -> None:
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "127.0.0.1"]


def results_head(tournament_id: int) -> int:
    """The tournament's last seq now (its teams' registrations are in its log before a
    test writes anything)."""
    with database():
        return results.head(tournament_id)


def some_results(tournament_id: int, count: int, start: int = 0) -> None:
    with database():
        for n in range(start, start + count):
            record(tournament_id, "round.published", {"stage": 1, "round": n})


def test_a_deal_scored_and_a_round_published_are_in_the_log_as_their_webhooks_tell(
    league: Any,
) -> None:
    director = league.client("organizer_a")
    match = league.score
    match.refresh_from_db()
    posted = director.post(
        f"/api/v1/matches/{match.pk}/events/",
        {
            "kind": "deal_ended",
            "payload": {"points": [60, 40], "sweeps": [[], []]},
            "expected_seq": match.last_seq,
        },
        format="json",
    )
    assert posted.status_code == 201, posted.content
    page = league.client().get(f"/api/v1/tournaments/{league.a.pk}/results/").json()
    recorded = [e for e in page["results"] if e["kind"] == "deal.recorded"]
    assert recorded, page
    entry = recorded[0]
    assert entry["match"] == match.pk and entry["deal"] == 1
    assert entry["points"] == [60, 40] and entry["tournament"] == league.a.pk
    assert [e["seq"] for e in page["results"]] == list(range(1, len(page["results"]) + 1))
    assert page["last_seq"] == page["results"][-1]["seq"] and page["next"] is None
    # nothing of a card, ever: the bodies are the webhooks' (results, pairings, standings)
    assert "hand" not in json.dumps(page) and "cards" not in json.dumps(page)


def test_the_log_pages_from_a_seq_and_only_for_those_who_may_see_the_tournament(
    league: Any,
) -> None:
    n = results_head(league.a.pk)  # its teams' registrations: the log's first entries
    some_results(league.a.pk, 5)
    some_results(league.b.pk, 2)
    anyone = league.client()
    everything = anyone.get(f"/api/v1/tournaments/{league.a.pk}/results/").json()["results"]
    assert [e["seq"] for e in everything] == list(range(1, n + 6))
    url = f"/api/v1/tournaments/{league.a.pk}/results/"
    first = anyone.get(url, {"limit": 2, "after": n}).json()
    assert [e["seq"] for e in first["results"]] == [n + 1, n + 2] and first["last_seq"] == n + 5
    second = anyone.get(first["next"]).json()
    assert [e["seq"] for e in second["results"]] == [n + 3, n + 4]
    last = anyone.get(url, {"after": n + 4}).json()
    assert [e["seq"] for e in last["results"]] == [n + 5] and last["next"] is None
    # tournament B is private: 404 to the public and to A's token, shown to B's
    private = f"/api/v1/tournaments/{league.b.pk}/results/"
    assert anyone.get(private).status_code == 404
    assert league.client(token="a_read").get(private).status_code == 404
    mine = league.client(token="b_write").get(private).json()
    assert [e["round"] for e in mine["results"] if e["kind"] == "round.published"] == [0, 1]
    bad = anyone.get(f"/api/v1/tournaments/{league.a.pk}/results/", {"after": "x"})
    assert bad.status_code == 400 and bad["Content-Type"] == "application/problem+json"


def test_the_stream_sends_the_log_then_each_new_entry_and_resumes_with_nothing_lost_or_doubled(
    league: Any,
) -> None:
    n = results_head(league.a.pk)  # its teams' registrations: the log's first entries
    some_results(league.a.pk, 3)
    with push_server() as server:
        url = f"{server.url}/api/v1/tournaments/{league.a.pk}/results/stream/"
        with reading(url) as first:
            assert first.wait(until_seq(n + 3)) is not None, first.events
            some_results(league.a.pk, 2, start=3)  # written while it listens
            assert first.wait(until_seq(n + 5)) is not None, first.events
            assert seqs(first) == list(range(1, n + 6))
            shown = [json.loads(e.data) for e in first.events if e.id is not None][n:]
            assert [e["round"] for e in shown] == [0, 1, 2, 3, 4]
            assert {e.kind for e in first.events if e.id is not None} == {
                "team.changed", "round.published"
            }  # fmt: skip
        some_results(league.a.pk, 3, start=5)  # written while it was away
        with reading(url, {"Last-Event-ID": str(n + 5)}) as again:
            assert again.wait(until_seq(n + 8)) is not None, again.events
            assert seqs(again) == [n + 6, n + 7, n + 8]
        with reading(f"{url}?after={n + 7}") as tail:
            assert tail.wait(until_seq(n + 8)) is not None
            assert seqs(tail) == [n + 8]
        # the same answer as the page: the stream is the log as GET .../results/ shows it
        page = league.client().get(f"/api/v1/tournaments/{league.a.pk}/results/").json()
        assert [json.loads(e.data) for e in again.events if e.id] == page["results"][n + 5 :]


def test_the_stream_is_refused_as_the_api_refuses(league: Any) -> None:
    with push_server() as server:
        base = f"{server.url}/api/v1/tournaments"
        private = httpx.get(f"{base}/{league.b.pk}/results/stream/", timeout=5)
        assert private.status_code == 404
        assert private.headers["Content-Type"] == "application/problem+json"
        other = httpx.get(
            f"{base}/{league.b.pk}/results/stream/", headers=bearer(league, "a_read"), timeout=5
        )
        assert other.status_code == 404
        position = httpx.get(f"{base}/{league.a.pk}/results/stream/?after=x", timeout=5)
        assert position.status_code == 400 and position.json()["code"] == "bad_position"
        some_results(league.b.pk, 1)
        with reading(f"{base}/{league.b.pk}/results/stream/", bearer(league, "b_write")) as mine:
            assert mine.wait(until_seq(1)) is not None, mine.events


def test_entries_commit_in_the_order_of_their_seqs(league: Any) -> None:
    """A writer holds the head until it commits: the next one waits, and takes the next seq
    (so a reader at seq N never later finds an entry at or below N)."""
    if connection.vendor != "postgresql":
        pytest.skip("two writers at once need PostgreSQL (SQLite takes one writer at a time)")
    n = results_head(league.a.pk)  # its teams' registrations
    first_in = threading.Event()
    release = threading.Event()
    done: dict[str, float] = {}

    def slow() -> None:
        try:
            with transaction.atomic():
                record(league.a.pk, "round.published", {"round": 1})
                first_in.set()
                release.wait(10)
                done["slow"] = time.monotonic()
        finally:
            close_old_connections()
            connection.close()

    def quick() -> None:
        try:
            record(league.a.pk, "round.published", {"round": 2})
            done["quick"] = time.monotonic()
        finally:
            connection.close()

    a = threading.Thread(target=slow)
    a.start()
    assert first_in.wait(10)
    b = threading.Thread(target=quick)
    b.start()
    time.sleep(0.5)
    assert "quick" not in done  # waiting for the first writer's commit
    release.set()
    a.join(10)
    b.join(10)
    assert done["quick"] >= done["slow"]
    rows = list(
        Happening.objects.filter(tournament=league.a, kind="round.published").values_list(
            "seq", "body"
        )
    )
    assert rows == [(n + 1, {"round": 1}), (n + 2, {"round": 2})]


def test_a_happening_told_twice_is_written_once(league: Any) -> None:
    """A task run again (its worker lost) tells the same happening again: its key makes it one
    entry; another happening, or one with no key (standings changed), is a new one."""
    n, in_b = results.head(league.a.pk), results.head(league.b.pk)  # their teams'
    first = record(league.a.pk, "match.completed", {"match": 1}, "match:1:9")
    again = record(league.a.pk, "match.completed", {"match": 1}, "match:1:9")
    later = record(league.a.pk, "match.completed", {"match": 1}, "match:1:12")
    looks = [record(league.a.pk, "standings.changed", {"stage": 1}) for _ in range(2)]
    assert again.pk == first.pk
    assert [first.seq, later.seq, *(e.seq for e in looks)] == [n + 1, n + 2, n + 3, n + 4]
    assert results.head(league.a.pk) == n + 4
    # the same key in another tournament is its own
    assert record(league.b.pk, "match.completed", {}, "match:1:9").seq == in_b + 1


def test_a_deal_projected_again_is_in_the_log_once(league: Any) -> None:
    from scoring.services import update_match_projection

    director = league.client("organizer_a")
    match = league.score
    match.refresh_from_db()
    director.post(
        f"/api/v1/matches/{match.pk}/events/",
        {
            "kind": "deal_ended",
            "payload": {"points": [60, 40], "sweeps": [[], []]},
            "expected_seq": match.last_seq,
        },
        format="json",
    )
    with transaction.atomic():  # the projection run again (a task told twice)
        update_match_projection(match_id=match.pk, rebuild=True)
    kinds = list(Happening.objects.filter(tournament=league.a).values_list("kind", flat=True))
    assert kinds.count("deal.recorded") == 1, kinds
