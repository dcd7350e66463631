"""Verification tells the truth: one consistent picture while others play, and a replay that
re-derives everything the append checked, so a forger who recomputes the whole chain is caught.
"""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest
from django.db import connection

import seep_core as sc
from tests.matches import deal_in_play, forge, tampering
from tournaments.access import SYSTEM
from tournaments.chain import request_digest
from tournaments.errors import CommandRefused, IdempotencyKeyReused, StaleSequence
from tournaments.matchlog import repeatable_decks
from tournaments.models import Match, MatchEvent
from tournaments.services import match_append_event
from tournaments.snapshots import rebuild_snapshot
from tournaments.verify import verify_match


def append(match: Match, kind: str, payload: dict[str, Any], **kw: Any) -> Any:
    match.refresh_from_db()
    return match_append_event(
        match=match, expected_seq=match.last_seq, kind=kind, payload=payload,
        actor=kw.pop("actor", SYSTEM), shuffle=repeatable_decks(match.last_seq), **kw,
    )  # fmt: skip


def finished_score_match(world: Any) -> Match:
    """The score match played to its end: 60-40, then 95-5 (L3 gives team 0 the bazzi)."""
    match = world.score_match
    append(match, "match_started", {"first_dealer": 0})
    append(match, "deal_ended", {"points": [60, 40], "sweeps": [[50], []]})
    append(match, "deal_ended", {"points": [95, 5], "sweeps": [[], []]})
    match.refresh_from_db()
    assert match.status == "finished"
    return match


def problems_after(match: Match) -> list[str]:
    """The problems verify_match finds once the snapshot is rebuilt from the forged log (a
    forger would do that too: only the content itself can give the forgery away)."""
    return [str(p) for p in verify_match(match)]


def test_an_intact_match_with_a_receipt_verifies(world: Any) -> None:
    assert problems_after(finished_score_match(world)) == []


def test_a_match_ended_naming_the_loser_as_winner_is_caught(world: Any) -> None:
    match = finished_score_match(world)

    def swap(event: MatchEvent) -> dict[str, Any] | None:
        if event.kind != "match_ended":
            return None
        return {**event.payload, "winner": 1, "bazzis": [0, 1]}

    (seq,) = forge(match, swap)
    found = problems_after(match)
    assert any(p.startswith(f"event {seq}: replay failed: match_ended says") for p in found), found


@pytest.mark.parametrize(
    "change",
    [
        {"points": [90, 90]},  # D2: card points are 100 in all
        {"sweeps": [[75], []]},  # W1: no sweep is worth 75
        {"total": [999, 40]},  # E2: a total is the points plus the sweeps
        {"dealer": 2},  # R1-R3 named another dealer
    ],
    ids=["points", "sweep", "total", "dealer"],
)
def test_a_forged_deal_result_is_caught_by_the_replay(world: Any, change: dict[str, Any]) -> None:
    match = finished_score_match(world)

    def edit(event: MatchEvent) -> dict[str, Any] | None:
        if event.kind == "deal_ended" and event.payload["deal"] == 1:
            return {**event.payload, **change}
        return None

    (seq,) = forge(match, edit)
    found = problems_after(match)
    assert any(p.startswith(f"event {seq}: replay failed") for p in found), found


def test_a_derived_event_written_apart_from_its_command_is_caught(world: Any) -> None:
    match = world.digital_match
    append(match, "match_started", {"first_dealer": 3})
    with tampering():
        MatchEvent.objects.filter(match=match, seq=2).update(caused_by=None)
    found = [str(p) for p in verify_match(match)]
    assert any(p.startswith("event 2: a derived event not written with its command") for p in found)


def test_a_request_digest_is_inside_the_chain(world: Any) -> None:
    match = world.digital_match
    append(match, "match_started", {"first_dealer": 3})
    move = sc.legal_moves(deal_in_play(match))[0]
    other = sc.legal_moves(deal_in_play(match))[1]
    append(match, "move_played", {"move": move}, idempotency_key="k")
    forged = request_digest("move_played", {"move": other}, 2)
    with tampering():
        MatchEvent.objects.filter(match=match, seq=3).update(request_digest=forged)
    found = [str(p) for p in verify_match(match)]
    assert "event 3: hash does not match its content and chain" in found
    # And the retry with the other body is not answered with the original events.
    with pytest.raises(CommandRefused) as refused:
        match_append_event(match=match, expected_seq=2, kind="move_played",
                           payload={"move": other}, actor=SYSTEM, idempotency_key="k")  # fmt: skip
    assert refused.value.code == "idempotency_record_damaged"
    assert not isinstance(refused.value, IdempotencyKeyReused)


# --- verifying while others play (PostgreSQL: concurrent connections) -------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_verification_during_play_never_reports_tampering_that_is_not_there(world: Any) -> None:
    match = world.digital_match
    Match.objects.filter(pk=match.pk).update(match_format={"bazzis": 50})
    append(match, "match_started", {"first_dealer": 3})
    stop = threading.Event()
    written = [0]
    failures: list[BaseException] = []

    def play() -> None:
        rng = random.Random(8)
        try:
            while not stop.is_set():
                try:
                    append(match, "move_played",
                           {"move": rng.choice(sc.legal_moves(deal_in_play(match)))})  # fmt: skip
                    written[0] += 1
                except StaleSequence:  # pragma: no cover - one writer; kept for safety
                    continue
        except BaseException as exc:
            failures.append(exc)
        finally:
            connection.close()

    writer = threading.Thread(target=play, daemon=True)
    writer.start()
    reports, runs = [], 0
    deadline = time.monotonic() + 4
    try:
        while time.monotonic() < deadline:
            runs += 1
            reports += [str(p) for p in verify_match(Match.objects.get(pk=match.pk))]
    finally:
        stop.set()
        writer.join(20)
    assert not failures, failures
    assert runs >= 20 and written[0] >= 20, (runs, written[0])
    assert reports == [], reports[:5]


@pytest.mark.django_db
def test_rebuilding_a_forged_log_refuses_rather_than_trusting_it(world: Any) -> None:
    match = finished_score_match(world)
    forge(match, lambda e: {**e.payload, "total": [1, 1]} if e.kind == "deal_ended" else None)
    from tournaments.matchlog import LogInconsistent

    with pytest.raises(LogInconsistent):
        rebuild_snapshot(match)


pytestmark = pytest.mark.django_db
