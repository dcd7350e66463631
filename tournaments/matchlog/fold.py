"""A match's history as a pure fold: the state after each stored event.

No database here. ``apply_event`` is the one place a match's state changes: the planner emits
events through it, and ``verify_match``/``rebuild_snapshots`` replay the stored log through it,
so a snapshot and a replay cannot disagree by construction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import seep_core as sc

from .kinds import Kind, Mode
from .state import FINISHED, IN_PROGRESS, SCHEDULED, LogInconsistent, MatchState

MATCH_STARTED, DEAL_STARTED, MOVE_PLAYED = Kind.MATCH_STARTED, Kind.DEAL_STARTED, Kind.MOVE_PLAYED
DEAL_ENDED, MATCH_ENDED = Kind.DEAL_ENDED, Kind.MATCH_ENDED
DIGITAL = Mode.DIGITAL

Event = tuple[str, dict[str, Any]]


def apply_event(state: MatchState, kind: str, payload: dict[str, Any]) -> MatchState:
    """Return the state after one stored event; raise LogInconsistent if it cannot follow."""
    try:
        return _apply(state, kind, payload)
    except (sc.SeepError, KeyError, TypeError, IndexError) as exc:
        raise LogInconsistent(f"{kind} does not follow: {exc}") from exc


def _apply(state: MatchState, kind: str, payload: dict[str, Any]) -> MatchState:
    if state.status == FINISHED:
        raise LogInconsistent(f"{kind} after the match ended")
    if kind == MATCH_STARTED:
        if state.status != SCHEDULED:
            raise LogInconsistent("match_started twice")
        progress = sc.start_match(
            payload["first_dealer"],
            sc.MatchFormat.from_dict(payload["format"]),
            sc.Rules.from_dict(payload["rules"]),
        )
        return replace(state, status=IN_PROGRESS, progress=progress, mode=payload["mode"])
    progress = state.progress
    if progress is None:
        raise LogInconsistent(f"{kind} before match_started")
    if kind == DEAL_STARTED:
        if state.deal is not None and state.deal.phase != "redealt":
            raise LogInconsistent("deal_started while a deal is in play or unscored")
        if payload["deal"] != state.deal_no + 1 or payload["dealer"] != progress.dealer:
            raise LogInconsistent(
                f"deal_started #{payload['deal']} by seat {payload['dealer']}, expected "
                f"#{state.deal_no + 1} by seat {progress.dealer}"
            )
        deal = sc.new_deal(payload["dealer"], payload["deck"], progress.rules)
        return replace(state, deal_no=payload["deal"], deal=deal)
    if kind == MOVE_PLAYED:
        if state.deal is None or payload["deal"] != state.deal_no:
            raise LogInconsistent(f"move_played for deal {payload['deal']}, not in play")
        return replace(state, deal=sc.apply(state.deal, payload["move"]))
    if kind == DEAL_ENDED:
        total = payload["total"]
        if state.mode == DIGITAL:
            deal = state.deal
            if deal is None or deal.phase != "over" or payload["deal"] != state.deal_no:
                raise LogInconsistent("deal_ended before the deal is over")
            score = sc.score(deal)
            if [payload[k] for k in ("points", "sweeps", "total")] != [
                score[k] for k in ("points", "sweeps", "total")
            ]:
                raise LogInconsistent(f"deal_ended says {payload}, the cards say {score}")
            deal_no = state.deal_no
        else:
            deal_no = state.deal_no + 1
            if payload["deal"] != deal_no:
                raise LogInconsistent(f"deal_ended #{payload['deal']}, expected #{deal_no}")
        if payload["dealer"] != progress.dealer:
            raise LogInconsistent(f"deal_ended names dealer {payload['dealer']}")
        return replace(state, progress=progress.after_deal(total), deal_no=deal_no, deal=None)
    if kind == MATCH_ENDED:
        if not progress.over:
            raise LogInconsistent("match_ended before the format says it is over")
        return replace(state, status=FINISHED)
    raise LogInconsistent(f"unknown event kind {kind!r}")


def replay(events: Sequence[Event], mode: str) -> MatchState:
    """Return the state after folding ``events`` (kind, payload) from the start of a match."""
    state = MatchState(mode)
    for kind, payload in events:
        state = apply_event(state, kind, payload)
    return state
