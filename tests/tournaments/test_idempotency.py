"""Retried appends (docs/events.md): the same request with the same idempotency key writes once
and every retry gets the original answer, the events it caused included, whatever happened since.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import seep_core as sc
from tests.matches import body
from tests.matches import deal_in_play as current_deal
from tournaments.access import SYSTEM
from tournaments.errors import CommandRefused, IdempotencyKeyReused, MoveRefused, StaleSequence
from tournaments.matchlog import repeatable_decks as fixed_decks
from tournaments.models import Match, MatchEvent
from tournaments.services import AppendResult, match_append_event
from tournaments.verify import verify_match

pytestmark = pytest.mark.django_db

RETRIES = 5


def head(match: Match) -> tuple[int, int]:
    """Return the match's last seq and how many events it has."""
    match.refresh_from_db()
    return match.last_seq, MatchEvent.objects.filter(match=match).count()


def request(match: Match, kind: str, payload: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """Return an append request at the match's current head (keyword arguments of the service)."""
    match.refresh_from_db()
    return {
        "match": match, "expected_seq": match.last_seq, "kind": kind, "payload": payload,
        "actor": SYSTEM, "shuffle": fixed_decks(match.last_seq), **extra,
    }  # fmt: skip


def move(match: Match, chosen: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return request(match, "move_played", {"move": chosen}, **extra)


def retried(req: dict[str, Any], times: int = RETRIES) -> list[AppendResult]:
    """Send ``req`` ``times`` times; return the answers."""
    return [match_append_event(**req) for _ in range(times)]


def start(match: Match, **extra: Any) -> AppendResult:
    return match_append_event(**request(match, "match_started", {"first_dealer": 3}, **extra))


def play_randomly(match: Match, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        match_append_event(**move(match, rng.choice(sc.legal_moves(current_deal(match)))))


def play_to_the_last_move_of_the_deal(match: Match, rng: random.Random) -> dict[str, Any]:
    """Play random legal moves until the next one ends the deal; return that move."""
    while True:
        deal = current_deal(match)
        for candidate in sc.legal_moves(deal):
            if sc.apply(deal, candidate).phase == "over":
                return candidate
        match_append_event(**move(match, rng.choice(sc.legal_moves(deal))))


def assert_answered_alike(results: list[AppendResult]) -> None:
    assert [r.replayed for r in results] == [False] + [True] * (len(results) - 1)
    first = body(results[0])
    for result in results[1:]:
        assert body(result) == first


def test_the_same_request_retried_five_times_writes_one_event_and_returns_the_same_body(
    world: Any,
) -> None:
    match = world.digital_match
    start(match)
    before = head(match)
    req = move(match, sc.legal_moves(current_deal(match))[0], idempotency_key="bid-once")
    results = retried(req)
    assert_answered_alike(results)
    assert head(match) == (before[0] + 1, before[1] + 1)
    (event,) = results[0].events
    stored = MatchEvent.objects.get(match=match, seq=event["seq"])
    assert stored.idempotency_key == "bid-once" and results[0].last_seq == event["seq"]
    assert verify_match(match) == []


def test_a_retry_after_other_appends_gets_the_original_answer_and_writes_nothing(
    world: Any,
) -> None:
    match = world.digital_match
    start(match)
    req = move(match, sc.legal_moves(current_deal(match))[0], idempotency_key="early-bid")
    original = match_append_event(**req)
    play_randomly(match, random.Random(3), 6)
    before = head(match)
    assert before[0] == original.last_seq + 6
    retries = retried(req)
    assert_answered_alike([original, *retries])
    assert all(r.last_seq == original.events[-1]["seq"] for r in retries)  # not the head now
    assert head(match) == before
    # The client's next append, based on the original answer, is still seen to be stale.
    with pytest.raises(StaleSequence) as stale:
        match_append_event(**{**move(match, {"seat": 0, "action": "redeal"}),
                              "expected_seq": retries[-1].last_seq})  # fmt: skip
    assert stale.value.current_seq == before[0]


def test_a_retry_of_the_move_that_ends_a_deal_returns_the_events_it_caused(world: Any) -> None:
    match = world.digital_match
    Match.objects.filter(pk=match.pk).update(match_format={"bazzis": 99, "first_to": True})
    start(match)
    last = play_to_the_last_move_of_the_deal(match, random.Random(11))
    req = move(match, last, idempotency_key="last-card")
    results = retried(req)
    assert_answered_alike(results)
    kinds = [e["kind"] for e in results[0].events]
    assert kinds == ["move_played", "deal_ended", "deal_started"]
    command = results[0].events[0]
    assert [e["caused_by"] for e in results[0].events] == [None, command["seq"], command["seq"]]
    assert head(match)[0] == command["seq"] + 2
    # And after the next deal has moved on, the answer is still all three events.
    play_randomly(match, random.Random(12), 4)
    assert_answered_alike([results[0], match_append_event(**req)])
    assert verify_match(match) == []


def test_a_retry_of_the_move_that_ends_the_match_is_answered_after_the_match_is_over(
    world: Any,
) -> None:
    match = world.digital_match
    Match.objects.filter(pk=match.pk).update(match_format={"deal_cap": 1})
    start(match)
    last = play_to_the_last_move_of_the_deal(match, random.Random(21))
    req = move(match, last, idempotency_key="final-card")
    results = retried(req)
    assert_answered_alike(results)
    assert [e["kind"] for e in results[0].events] == ["move_played", "deal_ended", "match_ended"]
    match.refresh_from_db()
    assert match.status == "finished"
    assert verify_match(match) == []


def test_a_retried_start_returns_the_deal_it_dealt(world: Any) -> None:
    match = world.digital_match
    results = retried(request(match, "match_started", {}, idempotency_key="go"))
    assert_answered_alike(results)
    started, dealt = results[0].events
    assert (started["kind"], dealt["kind"], dealt["caused_by"]) == (
        "match_started",
        "deal_started",
        1,
    )
    assert head(match) == (2, 2)  # one first dealer drawn, one deck dealt


def test_a_retried_score_entry_returns_the_match_end_it_caused(world: Any) -> None:
    match = world.score_match
    start(match)
    req = request(
        match, "deal_ended", {"points": [95, 5], "sweeps": [[], []]},  # L3: 5 ends the bazzi
        actor=world.scorekeeper, idempotency_key="result-1",
    )  # fmt: skip
    results = retried(req)
    assert_answered_alike(results)
    assert [e["kind"] for e in results[0].events] == ["deal_ended", "match_ended"]
    assert head(match) == (3, 3)


def test_a_refused_request_does_not_use_up_its_key(world: Any) -> None:
    match = world.digital_match
    start(match)
    before = head(match)
    with pytest.raises(MoveRefused):
        match_append_event(
            **move(match, {"seat": 0, "action": "bid", "value": 8}, idempotency_key="k")
        )
    with pytest.raises(StaleSequence):
        match_append_event(**{**move(match, sc.legal_moves(current_deal(match))[0],
                                     idempotency_key="k"), "expected_seq": 1})  # fmt: skip
    assert head(match) == before
    results = retried(move(match, sc.legal_moves(current_deal(match))[0], idempotency_key="k"))
    assert_answered_alike(results)
    assert head(match) == (before[0] + 1, before[1] + 1)


@pytest.mark.parametrize("change", ["payload", "expected_seq", "kind"])
def test_a_key_sent_again_with_another_request_is_refused_and_writes_nothing(
    world: Any, change: str
) -> None:
    match = world.digital_match
    start(match)
    first, second = sc.legal_moves(current_deal(match))[:2]
    req = move(match, first, idempotency_key="k")
    match_append_event(**req)
    before = head(match)
    other = {
        "payload": {**req, "payload": {"move": second}},
        "expected_seq": {**req, "expected_seq": req["expected_seq"] + 1},
        "kind": {**req, "kind": "deal_ended"},
    }[change]
    with pytest.raises(IdempotencyKeyReused):
        match_append_event(**other)
    assert head(match) == before
    assert match_append_event(**req).replayed  # the original request is still answered


def test_a_key_belongs_to_one_match(world: Any) -> None:
    digital, score = world.digital_match, world.score_match
    a = start(digital, idempotency_key="same-key")
    b = start(score, idempotency_key="same-key")
    assert not a.replayed and not b.replayed
    keyed = MatchEvent.objects.filter(idempotency_key="same-key")
    assert sorted(keyed.values_list("match_id", flat=True)) == sorted([digital.pk, score.pk])
    assert a.events[0]["seq"] == b.events[0]["seq"] == 1


@pytest.mark.parametrize("key", ["", "k" * 201, 42])
def test_an_idempotency_key_that_is_empty_too_long_or_not_text_is_refused(
    world: Any, key: Any
) -> None:
    match = world.digital_match
    with pytest.raises(CommandRefused) as refused:
        match_append_event(
            match=match,
            expected_seq=0,
            kind="match_started",
            payload={},
            actor=world.organizer,
            idempotency_key=key,
        )
    assert refused.value.code == "bad_idempotency_key"
    assert not MatchEvent.objects.filter(match=match).exists()


def test_a_key_of_200_characters_is_accepted(world: Any) -> None:
    result = match_append_event(
        match=world.digital_match,
        expected_seq=0,
        kind="match_started",
        payload={},
        actor=world.organizer,
        idempotency_key="k" * 200,
    )
    assert result.last_seq == 2
    assert MatchEvent.objects.get(match=world.digital_match, seq=1).idempotency_key == "k" * 200
