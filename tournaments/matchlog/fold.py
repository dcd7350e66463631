"""A match's history as a pure fold: the state after each stored event.

No database here. ``apply_event`` is the one place a match's state changes: the planner emits
events through it, and ``verify_match``/``rebuild_snapshots`` replay the stored log through it,
so a snapshot and a replay cannot disagree by construction. It re-derives everything the
append checked: the engine replays every move and re-scores every deal, an entered result is
checked again, each derived event (a new deal, a deal's score, the match's end) must be the
one the state makes due, with exactly the content the rules give.
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
DIGITAL, SCORE = Mode.DIGITAL, Mode.SCORE

Event = tuple[str, dict[str, Any]]

_STARTED_FIELDS = {"first_dealer", "rules", "format", "mode", "players", "users"}


def apply_event(state: MatchState, kind: str, payload: dict[str, Any]) -> MatchState:
    """Return the state after one stored event; raise LogInconsistent if it cannot follow."""
    try:
        return _apply(state, kind, payload)
    except (sc.SeepError, KeyError, TypeError, IndexError, ValueError) as exc:
        if isinstance(exc, LogInconsistent):
            raise
        raise LogInconsistent(f"{kind} does not follow: {exc}") from exc


def replay(events: Sequence[Event], mode: str) -> MatchState:
    """Return the state after folding ``events`` (kind, payload) from the start of a match."""
    state = MatchState(mode)
    for kind, payload in events:
        state = apply_event(state, kind, payload)
    return state


def match_outcome(progress: sc.MatchProgress) -> dict[str, Any]:
    """Return the payload of the ``match_ended`` event the match's progress calls for."""
    return {
        "winner": progress.winner,
        "draw": progress.draw,
        "bazzis": list(progress.bazzis),
        "difference": progress.difference,
        "deals": progress.deals,
    }


def _apply(state: MatchState, kind: str, payload: dict[str, Any]) -> MatchState:
    if state.status == FINISHED:
        raise LogInconsistent(f"{kind} after the match ended")
    if not isinstance(payload, dict):
        raise LogInconsistent(f"{kind} with a payload that is not an object")
    if state.due is not None and kind != state.due:
        raise LogInconsistent(f"{kind} where the server owed {state.due}")
    if kind == MATCH_STARTED:
        return _match_started(state, payload)
    progress = state.progress
    if progress is None:
        raise LogInconsistent(f"{kind} before match_started")
    if kind == DEAL_STARTED:
        return _deal_started(state, progress, payload)
    if kind == MOVE_PLAYED:
        return _move_played(state, payload)
    if kind == DEAL_ENDED:
        return _deal_ended(state, progress, payload)
    if kind == MATCH_ENDED:
        if state.due != MATCH_ENDED:
            raise LogInconsistent("match_ended before the format says the match is over")
        if payload != match_outcome(progress):
            raise LogInconsistent(
                f"match_ended says {payload}, the deals give {match_outcome(progress)}"
            )
        return replace(state, status=FINISHED, due=None)
    raise LogInconsistent(f"unknown event kind {kind!r}")


def _match_started(state: MatchState, payload: dict[str, Any]) -> MatchState:
    if state.status != SCHEDULED:
        raise LogInconsistent("match_started twice")
    if set(payload) != _STARTED_FIELDS:
        raise LogInconsistent(f"match_started with fields {sorted(payload)}")
    if payload["mode"] != state.mode:
        raise LogInconsistent(f"match_started in {payload['mode']} mode, the match is {state.mode}")
    players, users = payload["players"], payload["users"]
    if not (
        isinstance(players, list)
        and len(players) == 4
        and all(type(p) is int for p in players)
        and isinstance(users, list)
        and len(users) == 4
        and all(u is None or type(u) is int for u in users)
    ):
        raise LogInconsistent("match_started without four seated players")
    progress = sc.start_match(
        payload["first_dealer"],
        sc.MatchFormat.from_dict(payload["format"]),
        sc.Rules.from_dict(payload["rules"]),
    )
    return replace(
        state,
        status=IN_PROGRESS,
        progress=progress,
        players=tuple(players),
        users=tuple(users),
        due=DEAL_STARTED if state.mode == DIGITAL else None,
    )


def _deal_started(
    state: MatchState, progress: sc.MatchProgress, payload: dict[str, Any]
) -> MatchState:
    if state.due != DEAL_STARTED:
        raise LogInconsistent("deal_started while a deal is in play, or not in a digital match")
    if set(payload) != {"deal", "dealer", "deck"}:
        raise LogInconsistent(f"deal_started with fields {sorted(payload)}")
    if payload["deal"] != state.deal_no + 1 or payload["dealer"] != progress.dealer:
        raise LogInconsistent(
            f"deal_started #{payload['deal']} by seat {payload['dealer']}, expected "
            f"#{state.deal_no + 1} by seat {progress.dealer}"
        )
    deal = sc.new_deal(payload["dealer"], payload["deck"], progress.rules)
    return replace(state, deal_no=payload["deal"], deal=deal, due=None)


def play_move(state: MatchState, move: Any) -> tuple[dict[str, Any], MatchState]:
    """Return the ``move_played`` payload of ``move`` (canonical) and the state after it.

    The engine checks and applies the move once (``seep_core.play``): the planner records a
    client's move with it, and the replay of a stored move goes through it too.
    """
    deal = state.deal
    if state.mode != DIGITAL or deal is None or deal.phase in ("over", "redealt"):
        raise LogInconsistent("move_played with no deal in play")
    canonical, deal = sc.play(deal, move)
    due = DEAL_ENDED if deal.phase == "over" else DEAL_STARTED if deal.phase == "redealt" else None
    return {"deal": state.deal_no, "move": canonical}, replace(state, deal=deal, due=due)


def _move_played(state: MatchState, payload: dict[str, Any]) -> MatchState:
    if set(payload) != {"deal", "move"} or payload["deal"] != state.deal_no:
        raise LogInconsistent(f"move_played for deal {payload.get('deal')!r}, not in play")
    recorded, after = play_move(state, payload["move"])
    if recorded != payload:
        raise LogInconsistent(f"move_played {payload['move']} is not in the form the append stores")
    return after


def deal_result(
    progress: sc.MatchProgress, deal_no: int, points: Any, sweeps: Any
) -> dict[str, Any]:
    """Return the ``deal_ended`` payload of an entered result (score mode), checked (D2, W)."""
    checked = sc.check_result(points, sweeps, progress.dealer, progress.rules)
    return {"deal": deal_no, "dealer": progress.dealer, **checked}


def _deal_ended(
    state: MatchState, progress: sc.MatchProgress, payload: dict[str, Any]
) -> MatchState:
    if state.mode == DIGITAL:
        deal = state.deal
        if state.due != DEAL_ENDED or deal is None:
            raise LogInconsistent("deal_ended before the deal is over")
        expected = {"deal": state.deal_no, "dealer": deal.dealer, **sc.score(deal)}
        if payload != expected:
            raise LogInconsistent(f"deal_ended says {payload}, the cards say {expected}")
        deal_no = state.deal_no
    elif state.mode == SCORE:
        deal_no = state.deal_no + 1
        if set(payload) != {"deal", "dealer", "points", "sweeps", "total"}:
            raise LogInconsistent(f"deal_ended with fields {sorted(payload)}")
        expected = deal_result(progress, deal_no, payload["points"], payload["sweeps"])
        if payload != expected:
            raise LogInconsistent(f"deal_ended says {payload}, the rules give {expected}")
    else:
        raise LogInconsistent(f"deal_ended in a {state.mode} match")
    progress = progress.after_deal(payload["total"])
    due = MATCH_ENDED if progress.over else DEAL_STARTED if state.mode == DIGITAL else None
    return replace(state, progress=progress, deal_no=deal_no, deal=None, due=due)
