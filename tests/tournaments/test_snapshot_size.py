"""A snapshot stays small: a table's last play is stored as what it changed, not as a second
deal, and a state read back from its snapshot folds on exactly as the log's own fold does.

* Every recorded deal, recorded at a table with slips (another card the table could have
  played) withdrawn at random points: the state read back from its stored JSON after every
  event, and folded on from there, is the state the events alone fold to; and a withdrawal
  made from a state read back gives the deal before the play.
* The stored last play grows the snapshot by what one play changes: a bounded size, less than
  half what storing the deal before it did over a deal.
* A version 6 snapshot (the whole deal before the play) still reads, and withdraws the same.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import seep_core as sc
from tests.tournaments.test_move_withdrawn import DEALS, recorded, table_setup
from tournaments import matchlog
from tournaments.chain import canonical_json
from tournaments.matchlog.state import MatchState


def stored(state: MatchState) -> MatchState:
    """The state as a snapshot gives it back: its canonical JSON, decoded."""
    return MatchState.from_json(json.loads(canonical_json(state.to_json())))


def slipped_log(path: Any, seed: int, slips: float) -> list[tuple[str, dict[str, Any]]]:
    """A recorded deal's events at a table, with a slip withdrawn before some plays."""
    dealer, moves, data = recorded(path)
    setup = table_setup(dealer, data.get("rules", {}))
    rnd = random.Random(seed)
    log, state = matchlog.plan(MatchState("table"), setup, "match_started", {})
    for n, move in enumerate(moves):
        ends = n == len(moves) - 1
        others = [m for m in sc.legal_moves(state.deal) if m["seat"] == move["seat"]]
        if others and not ends and move["action"] not in ("bid", "redeal") and rnd.random() < slips:
            events, state = matchlog.plan(state, setup, "move_played", {"move": rnd.choice(others)})
            log += events
            events, state = matchlog.plan(
                state, setup, "move_withdrawn", {"move": events[0][1]["move"]}
            )
            log += events
        events, state = matchlog.plan(state, setup, "move_played", {"move": move})
        log += events
    return log


@settings(max_examples=15, deadline=None)  # a whole deal folded twice per example
@given(
    path=st.sampled_from(DEALS),
    seed=st.integers(0, 2**32 - 1),
    slips=st.floats(0, 1),
)
def test_a_state_read_back_from_its_snapshot_at_any_event_folds_on_as_the_log_does(
    path: Any, seed: int, slips: float
) -> None:
    log = slipped_log(path, seed, slips)
    alone = MatchState("table")
    from_snapshots = MatchState("table")
    for kind, payload in log:
        alone = matchlog.apply_event(alone, kind, payload)
        from_snapshots = stored(matchlog.apply_event(from_snapshots, kind, payload))
        assert from_snapshots == alone
        if alone.last_play is not None and alone.due is None:  # the undo, from it, is exact
            undo = {"deal": alone.deal_no, "move": alone.last_play.move}
            withdrawn = matchlog.apply_event(from_snapshots, "move_withdrawn", undo)
            assert withdrawn.deal == alone.last_play.before
            assert withdrawn == matchlog.apply_event(alone, "move_withdrawn", undo)


def _after_each_play(path: Any) -> list[MatchState]:
    states, state = [], MatchState("table")
    for kind, payload in slipped_log(path, 0, 0):
        state = matchlog.apply_event(state, kind, payload)
        if state.last_play is not None:
            states.append(state)
    return states


@pytest.mark.parametrize("path", DEALS, ids=[p.stem for p in DEALS])
def test_the_stored_last_play_does_not_hold_a_second_deal(path: Any) -> None:
    grown = whole = 0
    for state in _after_each_play(path):
        assert state.last_play is not None
        with_play = len(canonical_json(state.to_json()))
        without = len(canonical_json(replace(state, last_play=None).to_json()))
        # the move and what it changed (a captured house, the cards taken): bounded, while
        # the deal before it (what version 6 stored) grows to about a kilobyte
        assert with_play - without < 600
        grown += with_play - without
        whole += len(canonical_json(state.last_play.before.to_dict()))
    assert grown < whole / 2


@pytest.mark.parametrize("path", DEALS[:4], ids=[p.stem for p in DEALS[:4]])
def test_a_version_6_snapshot_with_the_whole_deal_before_the_play_still_reads(
    path: Any,
) -> None:
    for state in _after_each_play(path):
        assert state.last_play is not None
        old = state.to_json()
        old["version"] = 6
        old["last_play"] = {
            "before": state.last_play.before.to_dict(),
            "move": state.last_play.move,
        }
        read = MatchState.from_json(json.loads(canonical_json(old)))
        assert read == state
