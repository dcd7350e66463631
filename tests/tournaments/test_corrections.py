"""A director's corrections through the append service (issue 11, "Corrections").

``deal_corrected`` replaces a counted deal's result, ``deal_voided`` removes it,
``score_adjusted`` adds a penalty or a bonus, ``match_forfeited`` ends the match: each a new
event with a reason, by a director only. The match's standing is counted again from the start
(a finished match ends again with the new result, or is reopened), scoring's projection
follows, and a correction after which the format would end the match before deals already
played is refused (``correction_ends_early``). Nothing is ever rewritten.
"""

from __future__ import annotations

import logging
import random
from functools import partial
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

import seep_core as sc
from scoring.models import DealResult, MatchResult
from tests.matches import assert_log_intact
from tests.scoring.helpers import committed
from tournaments.access import SYSTEM
from tournaments.errors import (
    AppendRefused,
    CommandRefused,
    MatchStateConflict,
    MoveRefused,
    NotPermitted,
)
from tournaments.matchlog import repeatable_decks
from tournaments.models import Match, MatchEvent, MatchReceipt
from tournaments.selectors import match_state
from tournaments.services import match_append_event, match_create

pytestmark = pytest.mark.django_db

EVEN = {"points": [50, 50], "sweeps": [[], []]}
AHEAD = {"points": [60, 40], "sweeps": [[], []]}  # +20 for team 0
BAZZI = {"points": [91, 9], "sweeps": [[50], []]}  # +132: team 0 wins a bazzi (L2)
BEHIND = {"points": [9, 91], "sweeps": [[], [50]]}  # -132: team 1 wins one


def score_match(world: Any, fmt: dict[str, Any]) -> Match:
    """Return a started score match of teams A and B (dealer seat 1: the bidder is seat 2)."""
    match = match_create(
        tournament=world.tournament,
        team0=world.teams[0],
        team1=world.teams[1],
        mode="score",
        match_format=fmt,
    )
    match.scorekeepers.add(world.scorekeeper)
    send(match, "match_started", {"first_dealer": 1}, SYSTEM)
    return match


def send(match: Match, kind: str, payload: dict[str, Any], actor: Any, **kw: Any) -> Any:
    match.refresh_from_db()
    with committed():  # the scoring projection runs, as after a real commit
        return match_append_event(
            match=match,
            expected_seq=match.last_seq,
            kind=kind,
            payload=payload,
            actor=actor,
            **kw,
        )


def deals(match: Match, *results: dict[str, Any]) -> None:
    for result in results:
        send(match, "deal_ended", dict(result), SYSTEM)


def kinds(result: Any) -> list[str]:
    return [e["kind"] for e in result.events]


def log_of(match: Match) -> list[tuple[str, dict[str, Any]]]:
    return list(
        MatchEvent.objects.filter(match=match).order_by("seq").values_list("kind", "payload")
    )


def refused(error: type[Exception], match: Match, call: Any) -> Any:
    before = log_of(match)
    with pytest.raises(error) as caught:
        call()
    assert log_of(match) == before, "a refused command wrote something"
    return caught.value


def projected(match: Match) -> tuple[Any, ...]:
    row = MatchResult.objects.get(match=match)
    rows = DealResult.objects.filter(match=match).order_by("deal")
    return (
        row.deals,
        row.difference,
        (row.bazzis0, row.bazzis1),
        row.over,
        row.winner,
        [(d.deal, d.total0, d.total1, d.running_difference) for d in rows],
    )


CORRECTIONS = {
    "deal_corrected": {"deal": 1, **EVEN, "reason": "the sweep was the other team's"},
    "deal_voided": {"deal": 1, "reason": "dealt with a short deck"},
    "score_adjusted": {"team": 0, "points": -20, "reason": "slow play"},
    "match_forfeited": {"team": 1, "reason": "did not come back after the break"},
}


# --- who, and with what ---------------------------------------------------------------------


@pytest.mark.parametrize("kind", CORRECTIONS)
def test_only_a_director_corrects_and_always_with_a_reason(
    world: Any, django_user_model: Any, kind: str
) -> None:
    match = score_match(world, {"bazzis": 3})
    deals(match, AHEAD)
    seats = [p.user for p in match.seat_players()]
    outsider = django_user_model.objects.create_user("outsider")
    payload = CORRECTIONS[kind]
    for actor in (world.scorekeeper, seats[0], seats[1], outsider, world.players[4].user):
        error = refused(NotPermitted, match, lambda a=actor: send(match, kind, payload, a))
        assert error.code == "director_only"
    error = refused(NotPermitted, match, lambda: send(match, kind, payload, AnonymousUser()))
    assert error.code == "not_signed_in"
    missing = {k: v for k, v in payload.items() if k != "reason"}
    error = refused(CommandRefused, match, lambda: send(match, kind, missing, world.organizer))
    assert error.code == "bad_payload"
    for reason in ("", "   ", "x" * 501, None, 3, ["late"]):
        bad = {**payload, "reason": reason}
        error = refused(CommandRefused, match, lambda b=bad: send(match, kind, b, world.organizer))
        assert error.code == "reason_required", reason
    result = send(match, kind, payload, world.organizer)
    assert kinds(result)[0] == kind
    assert result.events[0]["payload"]["reason"] == payload["reason"]
    assert_log_intact(match)


def test_a_correction_names_a_counted_deal_and_a_possible_result(world: Any) -> None:
    match = score_match(world, {"bazzis": 3})
    deals(match, AHEAD)
    director = world.organizer

    def by_director(kind: str, payload: dict[str, Any]) -> Any:
        return send(match, kind, payload, director)

    for number in (0, 2, "1", None):
        for kind, extra in (("deal_corrected", EVEN), ("deal_voided", {})):
            payload = {"deal": number, **extra, "reason": "r"}
            error = refused(CommandRefused, match, partial(by_director, kind, payload))
            assert error.code == "no_such_deal"
    wrong = {"deal": 1, "points": [60, 50], "sweeps": [[], []], "reason": "r"}
    assert refused(MoveRefused, match, lambda: by_director("deal_corrected", wrong)).rule == "D2"
    for points, code in ((0, "bad_adjustment"), (1001, "bad_adjustment"), (2.5, "bad_adjustment")):
        payload = {"team": 0, "points": points, "reason": "r"}
        error = refused(MoveRefused, match, partial(by_director, "score_adjusted", payload))
        assert error.code == code
    for team in (2, -1, "0", True):
        for kind, extra in (("score_adjusted", {"points": 5}), ("match_forfeited", {})):
            payload = {"team": team, **extra, "reason": "r"}
            error = refused(AppendRefused, match, partial(by_director, kind, payload))
            assert error.code in ("bad_team", "bad_payload")


# --- corrections counted from the start ----------------------------------------------------


def test_a_corrected_or_voided_deal_carries_into_every_later_one(world: Any) -> None:
    match = score_match(world, {"bazzis": 3})
    deals(match, AHEAD, AHEAD, EVEN)
    assert projected(match) == (
        3,
        40,
        (0, 0),
        False,
        None,
        [(1, 60, 40, 20), (2, 60, 40, 40), (3, 50, 50, 40)],
    )
    result = send(
        match, "deal_corrected", {"deal": 2, **BEHIND, "reason": "misread"}, world.organizer
    )
    assert kinds(result) == ["deal_corrected"]
    assert result.events[0]["payload"] == {
        "deal": 2,
        "dealer": match_state(match).ledger[1].dealer,
        "points": [9, 91],
        "sweeps": [[], [50]],
        "total": [9, 141],
        "reason": "misread",
    }
    assert projected(match) == (
        3,
        0,
        (0, 1),
        False,
        None,
        [(1, 60, 40, 20), (2, 9, 141, 0), (3, 50, 50, 0)],
    )
    send(match, "deal_voided", {"deal": 1, "reason": "a short deck"}, world.organizer)
    assert projected(match)[:3] == (2, 0, (0, 1))
    assert [d for d, *_ in projected(match)[5]] == [2, 3]
    send(
        match, "score_adjusted", {"team": 1, "points": -15, "reason": "slow play"}, world.organizer
    )
    assert projected(match)[:3] == (2, 15, (0, 1))
    deals(match, AHEAD)  # the next deal is numbered on: 4
    assert projected(match)[5][-1] == (4, 60, 40, 35)
    # nothing was rewritten: every event is still there, the deals as first entered
    assert [p["points"] for k, p in log_of(match) if k == "deal_ended"] == [[60, 40]] * 2 + [
        [50, 50],
        [60, 40],
    ]
    assert_log_intact(match)


def test_a_correction_that_would_end_the_match_before_later_deals_is_refused(world: Any) -> None:
    match = score_match(world, {"bazzis": 1})
    deals(match, AHEAD, AHEAD)
    early = {"deal": 1, **BAZZI, "reason": "the first deal's sweep was missed"}
    correct = partial(send, match, "deal_corrected", early, world.organizer)
    error = refused(CommandRefused, match, correct)
    assert error.code == "correction_ends_early"
    assert "void those deals first" in error.message
    adjust = {"team": 0, "points": 200, "reason": "bonus"}  # ends the match now: allowed
    void = {"deal": 2, "reason": "played after the match was won"}
    send(match, "deal_voided", void, world.organizer)
    result = send(match, "deal_corrected", early, world.organizer)
    assert kinds(result) == ["deal_corrected", "match_ended"]
    assert result.events[1]["payload"]["winner"] == 0
    assert result.events[1]["payload"]["deals"] == 1
    assert projected(match)[:5] == (1, 0, (1, 0), True, 0)
    error = refused(
        MatchStateConflict, match, partial(send, match, "score_adjusted", adjust, world.organizer)
    )
    assert error.code == "match_over"
    assert_log_intact(match)


def test_the_refusal_names_what_was_counted_after_the_end_it_would_make(world: Any) -> None:
    match = score_match(world, {"bazzis": 1})
    deals(match, AHEAD, AHEAD, AHEAD)
    early = {"deal": 2, **BAZZI, "reason": "a missed sweep"}
    error = refused(
        CommandRefused, match, partial(send, match, "deal_corrected", early, world.organizer)
    )
    assert error.code == "correction_ends_early"
    assert "deal 3" in error.message and "void" in error.message
    # an adjustment counted after the end: it is not a deal to void
    other = score_match(world, {"bazzis": 1})
    deals(other, AHEAD)
    send(other, "score_adjusted", {"team": 0, "points": 50, "reason": "a bonus"}, world.organizer)
    early = {"deal": 1, **BAZZI, "reason": "a missed sweep"}
    error = refused(
        CommandRefused, other, partial(send, other, "deal_corrected", early, world.organizer)
    )
    assert error.code == "correction_ends_early"
    assert "adjustment" in error.message and "void those deals" not in error.message


def test_an_adjustment_that_wins_a_bazzi_ends_the_match(world: Any) -> None:
    match = score_match(world, {"bazzis": 1})
    deals(match, AHEAD)
    result = send(
        match, "score_adjusted", {"team": 1, "points": 120, "reason": "a penalty"}, world.organizer
    )
    assert kinds(result) == ["score_adjusted", "match_ended"]
    assert result.events[1]["payload"]["winner"] == 1
    assert projected(match)[:5] == (1, 0, (0, 1), True, 1)
    assert_log_intact(match)


# --- finished matches: ended again, or reopened --------------------------------------------


def test_a_correction_to_a_finished_match_ends_it_again_with_the_new_result(
    world: Any, caplog: pytest.LogCaptureFixture
) -> None:
    match = score_match(world, {"bazzis": 1})
    deals(match, AHEAD, BAZZI)
    assert projected(match)[3:5] == (True, 0)
    with caplog.at_level(logging.ERROR):
        result = send(
            match,
            "deal_corrected",
            {"deal": 2, **BEHIND, "reason": "teams swapped"},
            world.organizer,
        )
        assert kinds(result) == ["deal_corrected", "match_ended"]
        assert result.events[1]["payload"]["winner"] == 1
        assert projected(match)[3:5] == (True, 1)
        # a correction that leaves the result as it is ends nothing again
        same = {"deal": 1, "points": [61, 39], "sweeps": [[], []], "reason": "a point"}
        assert kinds(send(match, "deal_corrected", same, world.organizer)) == ["deal_corrected"]
    assert match_state(match).status == "finished"
    # a receipt for each end, the last one with the result that stands
    receipts = MatchReceipt.objects.filter(match=match).order_by("seq")
    assert [r.body["result"]["winner"] for r in receipts] == [0, 1]
    # the log agrees with itself: scoring finds no match_ended that the deals contradict
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert_log_intact(match)


def test_a_correction_that_undoes_the_end_reopens_the_match(
    world: Any, caplog: pytest.LogCaptureFixture
) -> None:
    match = score_match(world, {"bazzis": 1})
    deals(match, AHEAD, BAZZI)
    with caplog.at_level(logging.ERROR):
        result = send(match, "deal_voided", {"deal": 2, "reason": "a misdeal"}, world.organizer)
        assert kinds(result) == ["deal_voided", "match_reopened"]
        assert result.events[1]["payload"] == {"deals": 1}
        match.refresh_from_db()
        assert match.status == "in_progress"
        assert projected(match)[:5] == (1, 20, (0, 0), False, None)
        assert MatchResult.objects.get(match=match).completed_at is None
        # play goes on: the next deal is 3, and it can end the match again
        result = send(match, "deal_ended", dict(BEHIND), world.scorekeeper)
        assert kinds(result) == ["deal_ended", "match_ended"]
        assert result.events[0]["payload"]["deal"] == 3
        assert projected(match)[3:5] == (True, 1)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert_log_intact(match)


def test_a_forfeit_ends_the_match_for_the_other_team_once(world: Any) -> None:
    match = score_match(world, {"bazzis": 3})
    deals(match, AHEAD)
    result = send(match, "match_forfeited", {"team": 0, "reason": "left"}, world.organizer)
    assert kinds(result) == ["match_forfeited", "match_ended"]
    assert result.events[1]["payload"] == {
        "winner": 1,
        "draw": False,
        "bazzis": [0, 0],
        "difference": 20,
        "deals": 1,
        "forfeit": 0,
    }
    assert projected(match)[3:5] == (True, 1)
    error = refused(
        MatchStateConflict,
        match,
        lambda: send(match, "match_forfeited", {"team": 1, "reason": "x"}, world.organizer),
    )
    assert error.code == "forfeited"
    refused(MatchStateConflict, match, lambda: deals(match, AHEAD))
    # a correction afterwards keeps the forfeit: the winner stays the other team
    corrected = send(match, "deal_corrected", {"deal": 1, **BAZZI, "reason": "r"}, world.organizer)
    assert corrected.events[-1]["payload"]["winner"] == 1
    assert_log_intact(match)


def test_a_digital_match_is_corrected_and_reopened_like_any_other(world: Any) -> None:
    """The corrections are the ledger's: a digital match's deals are voided and forfeited too;
    reopened, it deals the next deal."""
    match = match_create(
        tournament=world.tournament,
        team0=world.teams[0],
        team1=world.teams[1],
        mode="digital",
        match_format={"deal_cap": 1},
    )
    send(match, "match_started", {"first_dealer": 0}, SYSTEM, shuffle=repeatable_decks(5))
    rng = random.Random(5)
    while match_state(match).status != "finished":
        deal = match_state(match).deal
        send(
            match,
            "move_played",
            {"move": rng.choice(sc.legal_moves(deal))},
            SYSTEM,
            shuffle=repeatable_decks(rng.randrange(99)),
        )
    counted = match_state(match).ledger[-1].deal
    result = send(
        match,
        "deal_voided",
        {"deal": counted, "reason": "a card was exposed"},
        world.organizer,
        shuffle=repeatable_decks(6),
    )
    assert kinds(result) == ["deal_voided", "match_reopened", "deal_started"]
    assert result.events[2]["payload"]["deal"] == counted + 1
    assert match_state(match).deal is not None and match_state(match).deal.plays == 0
    result = send(match, "match_forfeited", {"team": 1, "reason": "left"}, world.organizer)
    assert kinds(result) == ["match_forfeited", "match_ended"]
    assert match_state(match).deal is None
    deal_move = {"seat": 1, "action": "redeal"}
    play = partial(send, match, "move_played", {"move": deal_move}, SYSTEM)
    refused(MatchStateConflict, match, play)
    assert_log_intact(match)
