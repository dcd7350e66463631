"""Appends racing on PostgreSQL: real threads, each with its own connection, released together.

Optimistic concurrency (docs/events.md): of several appends with the same ``expected_seq``
exactly one is written, the others are refused with the seq they missed, and the log keeps
its seqs 1, 2, 3… with no gaps and a chain that verifies. The match row lock serializes the
appends of one match and no others: matches of one tournament are appended to in parallel.
"""

from __future__ import annotations

import contextlib
import random
import threading
import time
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.db import OperationalError, connection, transaction

import seep_core as sc
from tests.matches import assert_log_intact, body
from tests.matches import deal_in_play as current_deal
from tournaments import selectors
from tournaments.access import SYSTEM
from tournaments.errors import StaleSequence
from tournaments.matchlog import repeatable_decks as fixed_decks
from tournaments.models import Match, MatchEvent, Player, Team
from tournaments.services import AppendResult, match_append_event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREADS = 8
ROUNDS = 30


@pytest.fixture(autouse=True)
def scheduled() -> Iterator[mock.MagicMock]:
    """Count the projections scheduled after commit (the scoring worker is not under test)."""
    with mock.patch("tournaments.services._schedule_projection") as schedule:
        yield schedule


def backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


class Crowd:
    """``size`` threads, each with its own database connection, that act together each round.

    A round hands every thread a job; a barrier releases them at the same instant, so their
    appends really collide. Every thread closes its connection when the crowd disperses.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._start = threading.Barrier(size + 1, timeout=60)
        self._done = threading.Barrier(size + 1, timeout=60)
        self._job: Callable[[int], Any] | None = None
        self.outcomes: list[Any] = []
        self.pids: list[int] = [0] * size
        self._threads = [
            threading.Thread(target=self._run, args=(i,), daemon=True) for i in range(size)
        ]

    def _run(self, index: int) -> None:
        try:
            self.pids[index] = backend_pid()  # connect before the first race, not during it
            while True:
                self._start.wait()
                job = self._job
                if job is None:
                    return
                try:
                    self.outcomes[index] = job(index)
                except Exception as exc:  # the outcome under test, refusals included
                    self.outcomes[index] = exc
                self._done.wait()
        except threading.BrokenBarrierError:
            pass
        finally:
            connection.close()

    def __enter__(self) -> Crowd:
        for thread in self._threads:
            thread.start()
        return self

    def round(self, job: Callable[[int], Any]) -> list[Any]:
        """Run ``job(i)`` in every thread at once; return the results (or exceptions) in order."""
        self.outcomes = [None] * self.size
        self._job = job
        self._start.wait()
        self._done.wait()
        return list(self.outcomes)

    def __exit__(self, *exc: object) -> None:
        self._job = None
        with contextlib.suppress(threading.BrokenBarrierError):
            self._start.wait()
        for thread in self._threads:
            thread.join(timeout=30)
        assert not any(thread.is_alive() for thread in self._threads)


def assert_connections_closed(pids: list[int]) -> None:
    """Every thread had its own connection, and none is left open."""
    assert len(set(pids)) == len(pids) and backend_pid() not in pids
    deadline = time.monotonic() + 10
    with connection.cursor() as cursor:
        while True:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(%s)", [pids])
            if cursor.fetchone()[0] == 0:
                return
            assert time.monotonic() < deadline, "a thread left its connection open"
            time.sleep(0.05)


def start(match: Match, actor: Any, seed: int = 1) -> AppendResult:
    return match_append_event(
        match=match.pk, expected_seq=0, kind="match_started", payload={"first_dealer": 3},
        actor=actor, shuffle=fixed_decks(seed),
    )  # fmt: skip


def timed(call: Callable[[], AppendResult]) -> tuple[float, float, Any]:
    begun = time.perf_counter()
    try:
        outcome: Any = call()
    except StaleSequence as exc:
        outcome = exc
    return begun, time.perf_counter(), outcome


def test_of_eight_appends_with_one_expected_seq_exactly_one_wins_each_round(
    world: Any, scheduled: mock.MagicMock
) -> None:
    match = world.digital_match
    Match.objects.filter(pk=match.pk).update(match_format={"bazzis": 99, "first_to": True})
    start(match, world.organizer)
    collided = 0
    with Crowd(THREADS) as crowd:
        for round_no in range(ROUNDS):
            match.refresh_from_db()
            seq = match.last_seq
            legal = sc.legal_moves(current_deal(match.pk))
            moves = [legal[i % len(legal)] for i in range(THREADS)]  # rival moves, all legal
            decks = fixed_decks(round_no)

            def append(i: int, seq: int = seq, moves: list[Any] = moves, decks: Any = decks) -> Any:
                call = partial(
                    match_append_event, match=match.pk, expected_seq=seq, kind="move_played",
                    payload={"move": moves[i]}, actor=world.organizer, shuffle=decks,
                )  # fmt: skip
                return timed(call)

            outcomes = crowd.round(append)
            results = [o for _, _, o in outcomes]
            won = [i for i, r in enumerate(results) if isinstance(r, AppendResult)]
            assert len(won) == 1, f"round {round_no}: {results}"
            winner = results[won[0]]
            assert not winner.replayed
            assert winner.events[0]["seq"] == seq + 1
            assert winner.events[0]["payload"] == {"deal": winner.events[0]["payload"]["deal"],
                                                "move": moves[won[0]]}  # fmt: skip
            assert [e["seq"] for e in winner.events] == list(range(seq + 1, winner.last_seq + 1))
            losers = [r for i, r in enumerate(results) if i != won[0]]
            assert all(isinstance(r, StaleSequence) for r in losers), results
            assert {r.current_seq for r in losers} == {winner.last_seq}
            # The threads really raced: every loser was already calling before the winner
            # had finished.
            winner_end = outcomes[won[0]][1]
            if all(begun < winner_end for begun, _, _ in outcomes):
                collided += 1
    assert_connections_closed(crowd.pids)
    assert collided >= ROUNDS // 2, f"only {collided} of {ROUNDS} rounds overlapped"
    assert MatchEvent.objects.filter(match=match, kind="move_played").count() == ROUNDS
    assert_log_intact(match)
    assert scheduled.call_count == ROUNDS + 1  # once per written append, never for a loser


def test_eight_concurrent_retries_of_one_request_write_it_once(world: Any) -> None:
    match = world.digital_match
    Match.objects.filter(pk=match.pk).update(match_format={"bazzis": 99, "first_to": True})
    start(match, world.organizer)
    with Crowd(THREADS) as crowd:
        for round_no in range(10):
            match.refresh_from_db()
            seq = match.last_seq
            move = sc.legal_moves(current_deal(match.pk))[0]
            request = {
                "match": match.pk, "expected_seq": seq, "kind": "move_played",
                "payload": {"move": move}, "actor": world.organizer,
                "idempotency_key": f"retry-{round_no}", "shuffle": fixed_decks(round_no),
            }  # fmt: skip
            results = crowd.round(lambda _i, request=request: match_append_event(**request))
            assert all(isinstance(r, AppendResult) for r in results), results
            assert sorted(r.replayed for r in results) == [False] + [True] * (THREADS - 1)
            assert all(body(r) == body(results[0]) for r in results)
            assert results[0].events[0]["seq"] == seq + 1
            written = MatchEvent.objects.filter(match=match, seq__gt=seq).count()
            assert written == len(results[0].events)
            assert MatchEvent.objects.filter(match=match, idempotency_key=f"retry-{round_no}")
    assert_connections_closed(crowd.pids)
    assert_log_intact(match)


def many_matches(world: Any, count: int) -> list[Match]:
    """Return ``count`` digital matches of the world's tournament, each between its own teams."""
    players = [Player.objects.create(name=f"Extra {n}") for n in range(4 * count)]
    teams = [
        Team.objects.create(
            tournament=world.tournament, name=f"Extra {n}",
            first_player=players[2 * n], second_player=players[2 * n + 1],
        )
        for n in range(2 * count)
    ]  # fmt: skip
    return [
        Match.objects.create(
            tournament=world.tournament, team0=teams[2 * n], team1=teams[2 * n + 1],
            mode=Match.Mode.DIGITAL, rules=world.tournament.rules,
            match_format={"bazzis": 99, "first_to": True},
        )
        for n in range(count)
    ]  # fmt: skip


def test_sixteen_matches_appended_to_in_parallel_stay_independent(world: Any) -> None:
    matches = many_matches(world, 16)
    moves_each = 25
    spans: list[tuple[float, float]] = [(0.0, 0.0)] * len(matches)

    def play(i: int) -> list[int]:
        match, rng = matches[i], random.Random(i)
        begun = time.perf_counter()
        result = start(match, world.organizer, seed=1000 + i)
        seqs = [e["seq"] for e in result.events]
        for _ in range(moves_each):
            move = rng.choice(sc.legal_moves(current_deal(match.pk)))
            result = match_append_event(
                match=match.pk, expected_seq=result.last_seq, kind="move_played",
                payload={"move": move}, actor=world.organizer, shuffle=fixed_decks(i),
            )  # fmt: skip
            seqs += [e["seq"] for e in result.events]
        spans[i] = (begun, time.perf_counter())
        return seqs

    with Crowd(len(matches)) as crowd:
        outcomes = crowd.round(play)
    assert_connections_closed(crowd.pids)
    for i, (match, seqs) in enumerate(zip(matches, outcomes, strict=True)):
        assert isinstance(seqs, list), f"match {i}: {seqs!r}"  # no refusal: one writer each
        assert seqs == list(range(1, len(seqs) + 1))
        assert_log_intact(match)
        first_deck = MatchEvent.objects.get(match=match, seq=2).payload["deck"]
        assert first_deck == fixed_decks(1000 + i)()  # its own deal, nobody else's
        moves = MatchEvent.objects.filter(match=match, kind="move_played").count()
        assert moves == moves_each
    # They ran side by side: every match was still being played when the last one began.
    assert max(begun for begun, _ in spans) < min(ended for _, ended in spans)


def hold_an_append_open(match: Match, actor: Any, holding: threading.Event,
                        release: threading.Event) -> threading.Thread:  # fmt: skip
    """Start a thread that appends to ``match`` and keeps its transaction (and lock) open."""

    def run() -> None:
        try:
            with transaction.atomic():
                match_append_event(
                    match=match.pk, expected_seq=match.last_seq, kind="move_played",
                    payload={"move": sc.legal_moves(current_deal(match.pk))[0]}, actor=actor,
                    shuffle=fixed_decks(0),
                )  # fmt: skip
                holding.set()
                release.wait(timeout=30)
        finally:
            holding.set()
            connection.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert holding.wait(timeout=30)
    return thread


def test_an_open_append_on_one_match_does_not_block_another_match_of_the_tournament(
    world: Any,
) -> None:
    first, second = many_matches(world, 2)
    for match in (first, second):
        start(match, world.organizer)
        match.refresh_from_db()
    holding, release = threading.Event(), threading.Event()
    holder = hold_an_append_open(first, world.organizer, holding, release)
    try:
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '3s'")
        try:
            result = match_append_event(
                match=second.pk, expected_seq=second.last_seq, kind="move_played",
                payload={"move": sc.legal_moves(current_deal(second.pk))[0]},
                actor=world.organizer, shuffle=fixed_decks(0),
            )  # fmt: skip
        except OperationalError as exc:  # pragma: no cover - the failure being tested for
            pytest.fail(f"an append to another match of the tournament waited for a lock: {exc}")
        assert result.last_seq == second.last_seq + 1
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")
        release.set()
        holder.join(timeout=30)
    assert_log_intact(first)
    assert_log_intact(second)


def test_an_append_waits_for_the_open_append_on_its_match_then_learns_the_new_seq(
    world: Any,
) -> None:
    match = world.digital_match
    start(match, world.organizer)
    match.refresh_from_db()
    seq = match.last_seq
    holding, release = threading.Event(), threading.Event()
    holder = hold_an_append_open(match, world.organizer, holding, release)
    outcome: list[Any] = []

    def rival() -> None:
        try:
            match_append_event(
                match=match.pk, expected_seq=seq, kind="move_played",
                payload={"move": sc.legal_moves(current_deal(match.pk))[0]},
                actor=get_user_model().objects.get(pk=world.organizer.pk),
            )  # fmt: skip
        except StaleSequence as exc:
            outcome.append(exc)
        finally:
            connection.close()

    waiting = threading.Thread(target=rival, daemon=True)
    try:
        waiting.start()
        deadline = time.monotonic() + 10
        with connection.cursor() as cursor:  # the rival is queued on the match row's lock
            while True:
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND wait_event_type = 'Lock'"
                )
                if cursor.fetchone()[0] == 1:
                    break
                assert time.monotonic() < deadline, "the rival never waited for the lock"
                time.sleep(0.02)
        assert not outcome and waiting.is_alive()
    finally:
        release.set()
        holder.join(timeout=30)
        waiting.join(timeout=30)
    (stale,) = outcome
    assert stale.current_seq == seq + 1
    assert_log_intact(match)


def test_a_feed_rendered_while_another_request_ends_the_deal_never_shows_the_new_deck(
    world: Any,
) -> None:
    """A view renders the lazy feed (``match_events``) while a player's move commits."""
    match = world.digital_match
    Match.objects.filter(pk=match.pk).update(match_format={"bazzis": 99, "first_to": True})
    start(match, world.organizer)
    rng = random.Random(4)
    while True:  # play up to the move that ends the first deal
        match.refresh_from_db()
        deal = current_deal(match.pk)
        last = [m for m in sc.legal_moves(deal) if sc.apply(deal, m).phase == "over"]
        if last:
            break
        match_append_event(
            match=match.pk, expected_seq=match.last_seq, kind="move_played",
            payload={"move": rng.choice(sc.legal_moves(deal))}, actor=SYSTEM,
            shuffle=fixed_decks(match.last_seq),
        )  # fmt: skip

    def the_last_card_is_played() -> None:
        try:
            match_append_event(
                match=match.pk, expected_seq=match.last_seq, kind="move_played",
                payload={"move": last[0]}, actor=SYSTEM, shuffle=fixed_decks(99),
            )  # fmt: skip
        finally:
            connection.close()

    class Feed:
        """The feed as a view passes it (lazy); another request commits as it is read."""

        def __iter__(self) -> Iterator[MatchEvent]:
            other = threading.Thread(target=the_last_card_is_played)
            other.start()
            other.join(timeout=30)
            return iter(selectors.match_events(match))

    viewer = world.players[0].user  # a player, not a director
    rendered = selectors.render_events(match, Feed(), viewer)
    dealt = [e for e in rendered if e["kind"] == "deal_started"]
    assert [e["payload"]["deal"] for e in dealt] == [1, 2]  # the new deal was read
    assert dealt[1]["payload"]["deck"] is None and dealt[1]["hidden"] == ["deck"]
    assert len(dealt[0]["payload"]["deck"]) == 52  # the first deal is over: its deck is shown
