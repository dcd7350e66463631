"""A table's last play withdrawn (``move_withdrawn``): the recorder's undo, a new event and
never an edit.

* Every recorded deal, recorded at a table with a slip before each play (another card the
  table could have played, then withdrawn), folds to the deal recorded without slips: the
  same position after every play and the same score.
* Only the last play, only before anything else is recorded: a second withdrawal, a deal's
  last play (its ``deal_ended`` follows it), another play than the last, a digital match's
  play are refused, and nothing is written.
* Only the match's score-keeper or a director: a seated player, an outsider, another
  match's score-keeper are refused.
* The log with its withdrawals verifies, and its snapshot is its replay.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import seep_core as sc
from tests.engine.test_table_mode import at_the_table
from tests.matches import assert_log_intact
from tournaments import matchlog
from tournaments.access import SYSTEM
from tournaments.errors import CommandRefused, MatchStateConflict, NotPermitted
from tournaments.models import Match, MatchEvent
from tournaments.selectors import match_state
from tournaments.services import match_append_event, match_create

DEALS = [
    path
    for path in sorted((Path(__file__).parents[1] / "data" / "deals").glob("*.json"))
    if json.loads(path.read_text())["expected"]["phase"] == "over"  # not a throw-in
]


def recorded(path: Path) -> tuple[int, list[dict[str, Any]], dict[str, Any]]:
    data = json.loads(path.read_text())
    return data["dealer"], at_the_table(data["deck"], data["moves"]), data


def table_setup(dealer: int, rules: dict[str, Any]) -> matchlog.MatchSetup:
    return matchlog.MatchSetup("table", rules, {"deal_cap": 1}, dealer, (1, 2, 3, 4), (None,) * 4)


@pytest.mark.parametrize("path", DEALS, ids=[p.stem for p in DEALS])
def test_a_deal_recorded_with_a_slip_withdrawn_before_each_play_is_the_deal_without_them(
    path: Path,
) -> None:
    dealer, moves, data = recorded(path)
    setup = table_setup(dealer, data.get("rules", {}))
    rnd = random.Random(path.stem)
    plain = slipped = matchlog.plan(matchlog.MatchState("table"), setup, "match_started", {})[1]
    log: list[tuple[str, dict[str, Any]]] = []
    for n, move in enumerate(moves):
        assert slipped.deal == plain.deal
        ends = n == len(moves) - 1  # the deal's last play: no slip there (it cannot be withdrawn)
        others = [m for m in sc.legal_moves(slipped.deal) if m["seat"] == move["seat"]]
        if others and not ends and move["action"] not in ("bid", "redeal"):
            slip = rnd.choice(others)
            events, slipped = matchlog.plan(slipped, setup, "move_played", {"move": slip})
            log += events
            assert slipped.last_play is not None and slipped.last_play.move == events[0][1]["move"]
            events, slipped = matchlog.plan(
                slipped, setup, "move_withdrawn", {"move": slip}, actor=None
            )
            assert events == [("move_withdrawn", {"deal": 1, "move": events[0][1]["move"]})]
            log += events
        events, slipped = matchlog.plan(slipped, setup, "move_played", {"move": move})
        log += events
        plain = matchlog.plan(plain, setup, "move_played", {"move": move})[1]
    assert slipped.progress == plain.progress and slipped.ledger == plain.ledger
    ended = [p for k, p in log if k == "deal_ended"]
    assert ended[0]["total"] == data["expected"]["score"]["total"]
    # and the stored log replays to the same state
    started = matchlog.plan(matchlog.MatchState("table"), setup, "match_started", {})[0]
    assert matchlog.replay([*started, *log], "table") == slipped


# --- through the append service ------------------------------------------------------------

BID = {"seat": 0, "action": "bid", "value": 13, "floor": ["2S", "3H", "4D", "9C"]}
BUILD = {"seat": 0, "action": "build", "card": "4C", "value": 13, "take": ["9C"]}


def table_match(world: Any, deals: int = 1) -> Match:
    match = match_create(
        tournament=world.tournament, team0=world.teams[0], team1=world.teams[1], mode="table",
        match_format={"deal_cap": deals},
    )  # fmt: skip
    match.scorekeepers.add(world.scorekeeper)
    match_append_event(
        match=match, expected_seq=0, kind="match_started", payload={"first_dealer": 3},
        actor=SYSTEM,
    )  # fmt: skip
    return match


def append(match: Match, kind: str, payload: dict[str, Any], actor: Any) -> Any:
    match.refresh_from_db()
    return match_append_event(
        match=match, expected_seq=match.last_seq, kind=kind, payload=payload, actor=actor
    )


def refused(error: type[Exception], match: Match, kind: str, payload: Any, actor: Any) -> Any:
    before = MatchEvent.objects.filter(match=match).count()
    with pytest.raises(error) as caught:
        append(match, kind, payload, actor)
    assert MatchEvent.objects.filter(match=match).count() == before
    return caught.value


@pytest.mark.django_db
def test_the_score_keeper_withdraws_the_last_play_and_the_log_says_so(world: Any) -> None:
    match = table_match(world)
    append(match, "move_played", {"move": BID}, world.scorekeeper)
    bid = match_state(match).deal
    append(match, "move_played", {"move": BUILD}, world.scorekeeper)
    # the take named in another order is the same move
    result = append(match, "move_withdrawn", {"move": {**BUILD, "take": ["9C"]}}, world.scorekeeper)
    assert [(e["kind"], e["payload"]) for e in result.events] == [
        ("move_withdrawn", {"deal": 1, "move": BUILD})
    ]
    state = match_state(match)
    assert state.deal == bid and state.last_play is None
    assert [e.kind for e in MatchEvent.objects.filter(match=match).order_by("seq")] == [
        "match_started", "deal_started", "move_played", "move_played", "move_withdrawn",
    ]  # fmt: skip
    # one play only: the bid before it stays
    conflict = refused(MatchStateConflict, match, "move_withdrawn", {"move": BID}, world.organizer)
    assert conflict.code == "nothing_to_withdraw"
    throw = next(m for m in sc.legal_moves(bid) if m != BUILD)
    append(match, "move_played", {"move": throw}, world.organizer)  # a director records too
    wrong = refused(MatchStateConflict, match, "move_withdrawn", {"move": BUILD}, world.organizer)
    assert wrong.code == "not_the_last_play"
    append(match, "move_withdrawn", {"move": throw}, world.organizer)  # a director withdraws
    assert_log_intact(match)


@pytest.mark.django_db
def test_only_the_recorder_or_a_director_withdraws_a_play(
    world: Any, django_user_model: Any
) -> None:
    match = table_match(world)
    append(match, "move_played", {"move": BID}, world.players[0].user)  # the bidder's own seat
    other_keeper = django_user_model.objects.create_user("keeper-elsewhere")
    world.score_match.scorekeepers.add(other_keeper)
    for who in (world.players[0].user, world.players[1].user, other_keeper):
        refused(NotPermitted, match, "move_withdrawn", {"move": BID}, who)
    append(match, "move_withdrawn", {"move": BID}, world.scorekeeper)
    assert match_state(match).deal.bid is None


@pytest.mark.django_db
def test_a_deals_last_play_and_a_digital_play_are_not_withdrawn(world: Any) -> None:
    digital = world.digital_match
    match_append_event(
        match=digital, expected_seq=0, kind="match_started", payload={"first_dealer": 0},
        actor=SYSTEM,
    )  # fmt: skip
    deal = match_state(digital).deal
    move = sc.legal_moves(deal)[0]
    append(digital, "move_played", {"move": move}, world.organizer)
    mode = refused(CommandRefused, digital, "move_withdrawn", {"move": move}, world.organizer)
    assert mode.code == "mode_mismatch"

    # a deal's last play is followed by its deal_ended (and the next deal): the director's
    match = table_match(world, deals=2)  # seat 3 deals first: a recorded deal dealt by seat 3
    _, moves, _ = next(r for r in map(recorded, DEALS) if r[0] == 3 and not r[2].get("rules"))
    for move in moves:
        append(match, "move_played", {"move": move}, world.scorekeeper)
    kinds = list(MatchEvent.objects.filter(match=match).order_by("-seq").values_list("kind"))
    assert kinds[:3] == [("deal_started",), ("deal_ended",), ("move_played",)]
    ended = refused(
        MatchStateConflict, match, "move_withdrawn", {"move": moves[-1]}, world.organizer
    )
    assert ended.code == "nothing_to_withdraw"
    assert_log_intact(match)
