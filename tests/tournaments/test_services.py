"""The append service: validation through the engine, optimistic concurrency, idempotency,
permissions, the deal lifecycle of digital and score matches, and scheduling after commit."""

from __future__ import annotations

import random
from typing import Any
from unittest import mock

import pytest
from django.db import transaction

import seep_core as sc
from tests.matches import deal_in_play as current_deal
from tournaments.access import SYSTEM
from tournaments.errors import (
    CommandRefused,
    IdempotencyKeyReused,
    MoveRefused,
    NotPermitted,
    StaleSequence,
)
from tournaments.matchlog import repeatable_decks as fixed_decks
from tournaments.models import Match, MatchEvent
from tournaments.selectors import render_events
from tournaments.services import match_append_event
from tournaments.verify import verify_match

pytestmark = pytest.mark.django_db


def start(match: Match, actor: Any, **payload: Any) -> Any:
    return match_append_event(
        match=match, expected_seq=0, kind="match_started", payload=payload, actor=actor,
        shuffle=fixed_decks(1),
    )  # fmt: skip


def play(match: Match, move: dict[str, Any], actor: Any = SYSTEM, **kw: Any) -> Any:
    match.refresh_from_db()
    return match_append_event(
        match=match, expected_seq=match.last_seq, kind="move_played", payload={"move": move},
        actor=actor, shuffle=kw.pop("shuffle", fixed_decks(7)), **kw,
    )  # fmt: skip


def test_starting_a_digital_match_records_the_rules_and_deals_a_shuffled_deck(world: Any) -> None:
    match = world.digital_match
    result = start(match, world.organizer, first_dealer=3)
    assert [e["kind"] for e in result.events] == ["match_started", "deal_started"]
    started, dealt = result.events
    players = [p.pk for p in match.seat_players()]
    assert started["payload"] == {
        "first_dealer": 3, "rules": sc.Rules().to_dict(),
        "format": sc.MatchFormat().to_dict(), "mode": "digital",
        "players": players, "users": [p.user_id for p in match.seat_players()],
    }  # fmt: skip
    assert dealt["payload"]["deal"] == 1 and dealt["payload"]["dealer"] == 3
    assert sorted(dealt["payload"]["deck"]) == sorted(sc.ordered_deck())  # a director sees it
    assert dealt["caused_by"] == started["seq"] == 1
    match.refresh_from_db()
    assert (match.last_seq, match.status) == (2, "in_progress")
    assert current_deal(match).to_play == 0  # the bidder sits to the dealer's right (S3)


def test_a_match_started_without_a_first_dealer_draws_one(world: Any) -> None:
    result = start(world.digital_match, world.organizer)
    assert result.events[0]["payload"]["first_dealer"] in range(4)


def test_a_real_shuffle_uses_every_card_once(world: Any) -> None:
    result = match_append_event(
        match=world.digital_match, expected_seq=0, kind="match_started", payload={},
        actor=world.organizer,
    )  # fmt: skip
    assert sorted(result.events[1]["payload"]["deck"]) == sorted(sc.ordered_deck())


def test_a_legal_move_is_stored_in_canonical_form(world: Any) -> None:
    match = world.digital_match
    start(match, world.organizer, first_dealer=3)
    move = sc.legal_moves(current_deal(match))[0]
    result = play(match, move)
    (event,) = result.events
    assert event["kind"] == "move_played" and event["payload"] == {"deal": 1, "move": move}
    assert result.last_seq == 3


def test_an_illegal_move_is_refused_with_its_rule_and_nothing_is_written(world: Any) -> None:
    match = world.digital_match
    start(match, world.organizer, first_dealer=3)
    deal = current_deal(match)
    with pytest.raises(MoveRefused) as refused:
        play(match, {"seat": 0, "action": "bid", "value": 8})
    assert refused.value.rule == "B1" and refused.value.code == "bad_bid"
    with pytest.raises(MoveRefused) as refused:
        play(match, {"seat": 1, "action": "redeal"})
    assert refused.value.rule == "T0"
    match.refresh_from_db()
    assert match.last_seq == 2 and MatchEvent.objects.filter(match=match).count() == 2
    assert current_deal(match) == deal


def test_a_stale_expected_seq_is_refused_with_the_current_seq(world: Any) -> None:
    match = world.digital_match
    start(match, world.organizer, first_dealer=3)
    move = sc.legal_moves(current_deal(match))[0]
    with pytest.raises(StaleSequence) as stale:
        match_append_event(
            match=match, expected_seq=1, kind="move_played", payload={"move": move}, actor=SYSTEM
        )
    assert stale.value.current_seq == 2
    assert MatchEvent.objects.filter(match=match).count() == 2


def test_a_retried_request_writes_once_and_returns_the_same_events(world: Any) -> None:
    match = world.digital_match
    start(match, world.organizer, first_dealer=3)
    move = sc.legal_moves(current_deal(match))[0]
    results = [
        match_append_event(
            match=match,
            expected_seq=2,
            kind="move_played",
            payload={"move": move},
            actor=SYSTEM,
            idempotency_key="retry-me",
        )
        for _ in range(5)
    ]
    assert [r.replayed for r in results] == [False, True, True, True, True]
    assert all(r.events == results[0].events for r in results)
    assert [e["seq"] for e in results[0].events] == [3]
    assert MatchEvent.objects.filter(match=match).count() == 3


def test_a_key_reused_for_another_request_is_refused(world: Any) -> None:
    match = world.digital_match
    start(match, world.organizer, first_dealer=3)
    first, second = sc.legal_moves(current_deal(match))[:2]
    play(match, first, idempotency_key="k")
    with pytest.raises(IdempotencyKeyReused):
        match_append_event(
            match=match, expected_seq=3, kind="move_played", payload={"move": second},
            actor=SYSTEM, idempotency_key="k",
        )  # fmt: skip


def test_players_play_only_their_own_seat(world: Any) -> None:
    match = world.digital_match
    start(match, world.organizer, first_dealer=3)
    move = sc.legal_moves(current_deal(match))[0]  # seat 0 bids: team0's first player
    seat1_user = match.team1.first_player.user
    with pytest.raises(NotPermitted):
        play(match, move, actor=seat1_user)
    assert play(match, move, actor=match.team0.first_player.user).last_seq == 3


def test_only_a_director_starts_a_match(world: Any) -> None:
    with pytest.raises(NotPermitted):
        start(world.digital_match, world.scorekeeper)
    with pytest.raises(NotPermitted):
        start(world.digital_match, world.players[0].user)
    assert start(world.digital_match, world.organizer).last_seq == 2


def play_to_the_end(match: Match, rng: random.Random, limit: int = 5000) -> int:
    moves = 0
    match.refresh_from_db()
    while match.status != "finished" and moves < limit:
        deal = current_deal(match)
        play(match, rng.choice(sc.legal_moves(deal)), shuffle=fixed_decks(moves))
        moves += 1
        match.refresh_from_db()
    return moves


def test_a_digital_match_plays_through_deals_to_its_end(world: Any) -> None:
    match = world.digital_match
    start(match, world.organizer, first_dealer=3)
    play_to_the_end(match, random.Random(5))
    match.refresh_from_db()
    assert match.status == "finished"
    kinds = list(MatchEvent.objects.filter(match=match).values_list("kind", flat=True))
    assert kinds[-1] == "match_ended"
    ended = [e.payload for e in MatchEvent.objects.filter(match=match, kind="deal_ended")]
    assert ended and all(sum(p["points"]) == 100 for p in ended)
    progress = sc.start_match(3)
    for payload in ended:
        assert payload["dealer"] == progress.dealer  # R1-R3 across deals
        progress = progress.after_deal(payload["total"])
    assert progress.over
    final = MatchEvent.objects.get(match=match, kind="match_ended").payload
    assert final["winner"] == progress.winner and final["bazzis"] == list(progress.bazzis)
    assert verify_match(match) == []
    with pytest.raises(CommandRefused) as over:
        match_append_event(
            match=match, expected_seq=match.last_seq, kind="move_played",
            payload={"move": {"seat": 0, "action": "redeal"}}, actor=SYSTEM,
        )  # fmt: skip
    assert over.value.code == "match_over"


def test_the_deck_is_hidden_from_all_but_directors_until_the_deal_is_over(world: Any) -> None:
    match = world.digital_match
    start(match, world.organizer, first_dealer=3)
    events = list(MatchEvent.objects.filter(match=match))
    for viewer in (None, world.players[0].user, world.scorekeeper):
        rendered = render_events(match, events, viewer)
        assert rendered[1]["payload"]["deck"] is None and rendered[1]["hidden"] == ["deck"]
    assert len(render_events(match, events, world.organizer)[1]["payload"]["deck"]) == 52


def test_a_committed_append_schedules_the_projection_once(
    world: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with mock.patch("tournaments.services._schedule_projection") as schedule:
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            start(world.digital_match, world.organizer)
            schedule.assert_not_called()  # not before the commit
        assert len(callbacks) == 2  # the projection's, and the live message's (live.publish)
        schedule.assert_called_once_with(world.digital_match.pk)


def test_a_rolled_back_append_schedules_nothing(
    world: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with mock.patch("tournaments.services._schedule_projection") as schedule:
        with (
            django_capture_on_commit_callbacks(execute=True) as callbacks,
            pytest.raises(RuntimeError),
            transaction.atomic(),
        ):
            start(world.digital_match, world.organizer)
            raise RuntimeError("the caller's transaction fails after the append")
        assert callbacks == []
    schedule.assert_not_called()
    assert not MatchEvent.objects.filter(match=world.digital_match).exists()


# --- score mode ---------------------------------------------------------------------------


def enter(match: Match, actor: Any, points: list[int], sweeps: Any = ([], [])) -> Any:
    match.refresh_from_db()
    return match_append_event(
        match=match, expected_seq=match.last_seq, kind="deal_ended",
        payload={"points": points, "sweeps": [list(sweeps[0]), list(sweeps[1])]}, actor=actor,
    )  # fmt: skip


def test_a_score_keeper_enters_deal_results_until_the_format_ends_the_match(world: Any) -> None:
    match = world.score_match
    start(match, world.organizer, first_dealer=0)
    first = enter(match, world.scorekeeper, [60, 40])
    assert first.events[0]["payload"] == {
        "deal": 1, "dealer": 0, "points": [60, 40], "sweeps": [[], []], "total": [60, 40]
    }  # fmt: skip
    second = enter(match, world.scorekeeper, [30, 70], ([50], []))  # 80 v 70: lead 30
    assert [e["kind"] for e in second.events] == ["deal_ended"]
    last = enter(match, world.scorekeeper, [92, 8])  # L3: 8 is under the minimum
    assert [e["kind"] for e in last.events] == ["deal_ended", "match_ended"]
    assert last.events[1]["payload"]["winner"] == 0
    assert verify_match(match) == []


@pytest.mark.parametrize(
    ("points", "sweeps", "rule"),
    [
        ([60, 50], ([], []), "D2"),
        ([60, 40], ([30], []), "W1"),
        ([60, 40], ([], [25]), "W2"),  # only the bidder's team (team 0 here) sweeps first
        ([60, 40], ([25, 25], []), "W2"),
    ],
)
def test_impossible_deal_results_are_refused(
    world: Any, points: list[int], sweeps: Any, rule: str
) -> None:
    match = world.score_match
    start(match, world.organizer, first_dealer=1)  # bidder: seat 2, team 0
    with pytest.raises(MoveRefused) as refused:
        enter(match, world.scorekeeper, points, sweeps)
    assert refused.value.rule == rule
    match.refresh_from_db()
    assert match.last_seq == 1


def test_players_cannot_enter_results(world: Any) -> None:
    start(world.score_match, world.organizer, first_dealer=0)
    with pytest.raises(NotPermitted):
        enter(world.score_match, world.players[4].user, [50, 50])


def test_moves_are_refused_in_a_score_match(world: Any) -> None:
    start(world.score_match, world.organizer, first_dealer=0)
    with pytest.raises(CommandRefused) as refused:
        play(world.score_match, {"seat": 1, "action": "redeal"})
    assert refused.value.code == "mode_mismatch"


def test_rendering_a_feed_reads_the_match_once_not_per_event(
    world: Any, django_assert_max_num_queries: Any
) -> None:
    match = world.digital_match
    start(match, world.organizer, first_dealer=3)
    for move in sc.legal_moves(current_deal(match))[:1]:
        play(match, move)
    events = list(MatchEvent.objects.filter(match=match))
    viewer = world.players[0].user
    with django_assert_max_num_queries(2):  # the open deal; whether the viewer directs it
        rendered = render_events(match, events, viewer)
    assert [e["seq"] for e in rendered] == [1, 2, 3]
