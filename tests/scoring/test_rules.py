"""Every scoring rule, read through the projections: deals are entered through the real append
service and the real projection task runs after each commit (eagerly, as on the embedded
default). Expected figures are worked out by hand from docs/rules.md (E2, L1-L3, R1-R3, M1, V2-V3).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import seep_core as sc
from scoring.models import DealResult
from tournaments.models import MatchEvent

from .helpers import deals_of, enter, new_match, play, result_of, start

pytestmark = pytest.mark.django_db


def ledger_columns(deal: DealResult) -> tuple[Any, ...]:
    return (deal.running_difference, deal.reset, deal.bazzi, deal.reason)


# --- E2 and L1: a deal's scores and the running difference --------------------------------


def test_a_deal_records_each_teams_card_points_sweeps_and_total(world: Any) -> None:
    match = new_match(world)
    start(match, first_dealer=0)
    appended = enter(match, [60, 40], ([50], []))
    (deal,) = deals_of(match)
    assert (deal.deal, deal.dealer, deal.seq) == (1, 0, appended.events[0]["seq"])
    assert (deal.points0, deal.points1, deal.sweeps0, deal.sweeps1) == (60, 40, [50], [])
    assert (deal.total0, deal.total1, deal.difference) == (110, 40, 70)
    assert ledger_columns(deal) == (70, False, None, None)
    assert (deal.bazzis0, deal.bazzis1) == (0, 0)


def test_deal_differences_add_up_to_the_running_difference(world: Any) -> None:
    match = new_match(world)
    start(match)
    for points in ([60, 40], [45, 55], [30, 70]):
        enter(match, points)
    assert [(d.difference, d.running_difference) for d in deals_of(match)] == [
        (20, 20),
        (-10, 10),
        (-40, -30),
    ]
    result = result_of(match)
    assert (result.deals, result.difference, result.bazzis, result.over) == (3, -30, (0, 0), False)


# --- L3: the minimum ----------------------------------------------------------------------


def test_eight_points_and_a_50_sweep_are_not_under_the_minimum(world: Any) -> None:
    match = new_match(world)
    start(match)
    enter(match, [8, 92], ([50], []))
    (deal,) = deals_of(match)
    assert (deal.total0, deal.total1, deal.difference) == (58, 92, -34)
    assert ledger_columns(deal) == (-34, False, None, None)
    assert not result_of(match).over


def test_exactly_nine_is_not_under_the_minimum(world: Any) -> None:
    match = new_match(world)
    start(match)
    enter(match, [9, 91])
    assert ledger_columns(deals_of(match)[0]) == (-82, False, None, None)


def test_a_team_under_the_minimum_loses_the_bazzi_whatever_the_running_difference(
    world: Any,
) -> None:
    match = new_match(world, fmt={"bazzis": 3})
    start(match)
    enter(match, [80, 20])  # team 0 leads by 60
    enter(match, [8, 92])  # ...and scores 8: team 1 wins the bazzi at once
    enter(match, [55, 45])  # the running difference starts again from zero
    first, reset, after = deals_of(match)
    assert ledger_columns(first) == (60, False, None, None)
    assert ledger_columns(reset) == (0, True, 1, "minimum")
    assert (reset.bazzis0, reset.bazzis1) == (0, 1)
    assert ledger_columns(after) == (10, False, None, None)
    result = result_of(match)
    assert (result.bazzis, result.difference, result.over) == ((0, 1), 10, False)


# --- L2: a lead of 100 --------------------------------------------------------------------


def test_a_running_lead_of_exactly_100_wins_a_bazzi_and_resets_the_difference(world: Any) -> None:
    match = new_match(world, fmt={"bazzis": 3})
    start(match)
    enter(match, [75, 25])
    enter(match, [75, 25])
    first, second = deals_of(match)
    assert ledger_columns(first) == (50, False, None, None)
    assert ledger_columns(second) == (0, False, 0, "lead")  # a lead, not a reset (L3)
    assert (second.bazzis0, second.bazzis1) == (1, 0)


def test_a_running_lead_of_98_is_no_bazzi(world: Any) -> None:
    match = new_match(world, fmt={"bazzis": 3})
    start(match)
    enter(match, [74, 26])
    enter(match, [75, 25])
    assert ledger_columns(deals_of(match)[-1]) == (98, False, None, None)
    assert result_of(match).bazzis == (0, 0)


def test_team_1_wins_a_bazzi_with_a_lead_over_100_in_one_deal(world: Any) -> None:
    match = new_match(world, fmt={"bazzis": 3})
    start(match)
    enter(match, [10, 90], ([], [50]))  # 10 v 140
    (deal,) = deals_of(match)
    assert (deal.difference, *ledger_columns(deal)) == (-130, 0, False, 1, "lead")


def test_several_bazzis_in_one_match_and_its_winner(world: Any) -> None:
    match = new_match(world, fmt={"bazzis": 3})
    start(match)
    enter(match, [80, 20])  # 60
    enter(match, [70, 30])  # 100: team 0's bazzi
    enter(match, [5, 95])  # team 0 under 9: team 1's bazzi
    enter(match, [60, 40])  # 20
    last = enter(match, [90, 10])  # 100: team 0's second bazzi, the third played
    deals = deals_of(match)
    assert [(d.bazzi, d.reason) for d in deals] == [
        (None, None),
        (0, "lead"),
        (1, "minimum"),
        (None, None),
        (0, "lead"),
    ]
    assert [(d.bazzis0, d.bazzis1) for d in deals] == [(0, 0), (1, 0), (1, 1), (1, 1), (2, 1)]
    result = result_of(match)
    assert (result.bazzis, result.deals, result.difference) == ((2, 1), 5, 0)
    assert (result.over, result.winner, result.draw, result.next_dealer) == (True, 0, False, None)
    assert result.completed_at.isoformat() == last.events[0]["recorded_at"]
    assert [e["kind"] for e in last.events] == ["deal_ended", "match_ended"]


# --- V2 and V3: the match's own rules -----------------------------------------------------


def test_a_minimum_of_zero_turns_the_reset_off(world: Any) -> None:
    match = new_match(world, rules={"minimum": 0})
    start(match)
    enter(match, [5, 95])
    assert ledger_columns(deals_of(match)[0]) == (-90, False, None, None)


def test_the_bazzi_lead_is_the_matchs_own(world: Any) -> None:
    match = new_match(world, rules={"bazzi_lead": 50})
    start(match)
    enter(match, [75, 25])
    assert ledger_columns(deals_of(match)[0]) == (0, False, 0, "lead")
    assert result_of(match).winner == 0


# --- R1-R3: who deals next ----------------------------------------------------------------


def test_the_deal_stays_with_a_dealer_behind_or_level_and_passes_right_when_ahead(
    world: Any,
) -> None:
    match = new_match(world, fmt={"bazzis": 2})
    start(match, first_dealer=0)
    next_dealers = []
    for points in ([60, 40], [45, 55], [40, 60], [50, 50]):
        enter(match, points)
        next_dealers.append(result_of(match).next_dealer)
    # +20: seat 0's team ahead, passes right (R2); +10: seat 1's team behind, stays (R1);
    # -10: seat 1's team ahead, passes (R2); -10: seat 2's team behind, stays (R1).
    assert next_dealers == [1, 1, 2, 2]
    assert [d.dealer for d in deals_of(match)] == [0, 1, 1, 2]


def test_after_a_bazzi_the_deal_goes_to_the_partner_of_whom_r1_r2_choose(world: Any) -> None:
    match = new_match(world, fmt={"bazzis": 3})
    start(match, first_dealer=2)
    enter(match, [5, 95])  # team 1 wins the bazzi: seat 2 is behind, R1 keeps 2, R3: seat 0
    assert result_of(match).next_dealer == 0
    enter(match, [95, 5])  # team 0 wins: seat 0 is ahead, R2 passes to 1, R3: seat 3
    assert result_of(match).next_dealer == 3


# --- M1: when the match is over -----------------------------------------------------------


def test_first_to_two_bazzis_ends_as_soon_as_a_team_has_two(world: Any) -> None:
    match = new_match(world, fmt={"bazzis": 2, "first_to": True})
    start(match)
    enter(match, [95, 5])
    assert not result_of(match).over
    enter(match, [95, 5])
    result = result_of(match)
    assert (result.over, result.winner, result.bazzis, result.deals) == (True, 0, (2, 0), 2)


def test_a_capped_match_is_decided_by_the_running_difference_when_bazzis_are_level(
    world: Any,
) -> None:
    match = new_match(world, fmt={"bazzis": 5, "deal_cap": 2})
    start(match)
    enter(match, [40, 60])
    enter(match, [55, 45])
    result = result_of(match)
    assert (result.over, result.winner, result.draw, result.difference) == (True, 1, False, -10)


def test_a_capped_match_level_on_everything_is_a_draw(world: Any) -> None:
    match = new_match(world, fmt={"bazzis": 5, "deal_cap": 2, "draws": True})
    start(match)
    enter(match, [60, 40])
    last = enter(match, [40, 60])
    result = result_of(match)
    assert (result.over, result.winner, result.draw, result.next_dealer) == (True, None, True, None)
    assert result.completed_at.isoformat() == last.events[0]["recorded_at"]


def test_a_tie_at_the_cap_of_an_elimination_match_plays_on_until_broken(world: Any) -> None:
    match = new_match(world, fmt={"bazzis": 5, "deal_cap": 2, "draws": False})
    start(match)
    enter(match, [60, 40])
    enter(match, [40, 60])
    result = result_of(match)
    assert (result.over, result.completed_at) == (False, None)
    enter(match, [52, 48])
    result = result_of(match)
    assert (result.over, result.winner, result.deals, result.difference) == (True, 0, 3, 4)


# --- the projection follows the log -------------------------------------------------------


def test_a_started_match_has_a_result_before_its_first_deal(world: Any) -> None:
    match = new_match(world)
    start(match, first_dealer=3)
    result = result_of(match)
    assert (result.started, result.deals, result.next_dealer, result.seq) == (True, 0, 3, 1)
    assert deals_of(match) == []


def test_a_digital_match_is_projected_deal_by_deal_with_its_redeals_numbered(world: Any) -> None:
    match = world.digital_match
    start(match, first_dealer=1, seed=2)  # a short match (2 deals) with a redeal
    play(match, random.Random(1))
    ended = list(MatchEvent.objects.filter(match=match, kind="deal_ended").order_by("seq"))
    deals = deals_of(match)
    numbers = [d.deal for d in deals]
    assert numbers == [e.payload["deal"] for e in ended]
    assert numbers != list(range(1, len(numbers) + 1)), "this seed has a redeal (B2)"
    for deal, event in zip(deals, ended, strict=True):
        assert deal.seq == event.seq
        assert [deal.points0, deal.points1] == event.payload["points"]
        assert [deal.sweeps0, deal.sweeps1] == event.payload["sweeps"]
        assert [deal.total0, deal.total1] == event.payload["total"]
    ledger = sc.ledger([e.payload["total"] for e in ended])
    assert [ledger_columns(d)[0::2] for d in deals] == [
        (step["difference"], step["bazzi"]) for step in ledger
    ]
    final = MatchEvent.objects.get(match=match, kind="match_ended").payload
    result = result_of(match)
    match.refresh_from_db()
    assert result.seq == match.last_seq
    assert (result.winner, result.draw, list(result.bazzis), result.deals) == (
        final["winner"],
        final["draw"],
        final["bazzis"],
        final["deals"],
    )
