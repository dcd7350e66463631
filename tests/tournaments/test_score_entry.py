"""Deal results entered in a score match are checked as the game allows (docs/rules.md D2, W):
the same check the engine gives, for every rule variant, through the append service."""

from __future__ import annotations

from typing import Any

import pytest

import seep_core as sc
from tournaments.access import SYSTEM
from tournaments.errors import MoveRefused
from tournaments.models import Match, MatchEvent
from tournaments.services import match_append_event, match_create

pytestmark = pytest.mark.django_db


def score_match(world: Any, **rules: Any) -> Match:
    world.tournament.rules = sc.Rules(**rules).to_dict()
    world.tournament.save()
    match = match_create(
        tournament=world.tournament,
        team0=world.teams[0],
        team1=world.teams[1],
        mode="score",
        match_format={"bazzis": 9},
    )
    match_append_event(
        match=match, expected_seq=0, kind="match_started", payload={"first_dealer": 1}, actor=SYSTEM
    )
    return match  # dealer seat 1 (team 1), bidder seat 2 (team 0)


def enter(match: Match, points: list[int], sweeps: list[list[int]]) -> Any:
    match.refresh_from_db()
    return match_append_event(
        match=match,
        expected_seq=match.last_seq,
        kind="deal_ended",
        payload={"points": points, "sweeps": sweeps},
        actor=SYSTEM,
    )


def refused(match: Match, points: list[int], sweeps: list[list[int]]) -> MoveRefused:
    before = MatchEvent.objects.filter(match=match).count()
    with pytest.raises(MoveRefused) as caught:
        enter(match, points, sweeps)
    assert MatchEvent.objects.filter(match=match).count() == before  # nothing written
    return caught.value


def test_a_deal_holds_at_most_24_sweeps(world: Any) -> None:
    match = score_match(world)
    most = [[25] + [50] * 23, []]  # the bidder's team on plays 1, 3, 5, ... 47
    assert enter(match, [60, 40], most).events[0]["payload"]["total"] == [60 + 25 + 50 * 23, 40]
    too_many = refused(match, [60, 40], [[25] + [50] * 23, [50]])
    assert too_many.rule == "W1"
    assert refused(match, [60, 40], [[50] * 24, []]).rule == "W1"  # 24 worth 50: one too many


def test_a_last_play_sweep_worth_points_is_the_dealers_and_there_is_one(world: Any) -> None:
    match = score_match(world, last_sweep=30)
    assert refused(match, [50, 50], [[30], []]).rule == "W2"  # the bidder's team: not last
    assert refused(match, [50, 50], [[], [30, 30]]).rule == "W2"  # one last play
    assert enter(match, [50, 50], [[], [30]]).events[0]["payload"]["sweeps"] == [[], [30]]


def test_a_last_sweep_of_25_is_accepted_where_the_engine_scores_it(world: Any) -> None:
    match = score_match(world, last_sweep=25)  # the first play's value too
    assert refused(match, [40, 60], [[], [25, 25]]).rule == "W2"
    assert enter(match, [40, 60], [[25], [25]]).events[0]["payload"]["total"] == [65, 85]


def test_card_points_say_what_is_wrong_in_words(world: Any) -> None:
    match = score_match(world)
    wrong = refused(match, [60, 37], [[], []])
    assert (wrong.rule, wrong.code) == ("D2", "points_not_100")
    assert "add up to 100" in wrong.message and "97" in wrong.message
