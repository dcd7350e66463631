"""Planning a command: the events a client's request makes, checked by folding them.

No database here: the append service locks, plans with ``plan`` and writes what it returns.
A command is folded like any stored event, then the server writes whatever the state makes
due (a new deal, a deal's score, the match's end) until nothing is, so the planner and a
replay of the log cannot disagree.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import seep_core as sc

from ..errors import CommandRefused, MatchStateConflict
from .decks import Shuffle, secure_deck
from .fold import Event, apply_event, deal_result, match_outcome, play_move
from .kinds import COMMANDS, Kind, Mode
from .state import FINISHED, SCHEDULED, MatchState

MATCH_STARTED, DEAL_STARTED, MOVE_PLAYED = Kind.MATCH_STARTED, Kind.DEAL_STARTED, Kind.MOVE_PLAYED
DEAL_ENDED, MATCH_ENDED = Kind.DEAL_ENDED, Kind.MATCH_ENDED
DIGITAL, SCORE = Mode.DIGITAL, Mode.SCORE


@dataclass(frozen=True)
class MatchSetup:
    """What the match row fixes: its mode, rules, format, first dealer, and who sits where."""

    mode: str
    rules: dict[str, Any]
    format: dict[str, Any]
    first_dealer: int | None
    #: the players' ids and their users' ids by seat; read only when the match starts
    players: tuple[int, ...] = ()
    users: tuple[int | None, ...] = ()


def plan(
    state: MatchState,
    setup: MatchSetup,
    kind: str,
    payload: Any,
    *,
    shuffle: Shuffle = secure_deck,
    draw_dealer: Callable[[], int] = lambda: secrets.randbelow(4),
) -> tuple[list[Event], MatchState]:
    """Return the events a command makes (the command first) and the state after them.

    Raises CommandRefused (MatchStateConflict when the match cannot take it now), or the
    engine's SeepError for a refused move or deal result.
    """
    if kind not in COMMANDS:
        raise CommandRefused(
            f"{kind!r} is not something a client appends: one of {', '.join(COMMANDS)}",
            code="kind_not_appendable",
        )
    if not isinstance(payload, dict):
        raise CommandRefused("the payload is an object", code="bad_payload")
    if state.status == FINISHED:
        raise MatchStateConflict("the match is over", code="match_over", rule="M1")
    if kind == MATCH_STARTED:
        command = _match_started(state, setup, payload, draw_dealer)
        state = apply_event(state, *command)
    elif state.status == SCHEDULED:
        raise MatchStateConflict("the match has not started", code="match_not_started")
    elif kind == MOVE_PLAYED:
        command, state = _move_played(state, setup, payload)  # checked and applied once
    else:
        command = _deal_result(state, setup, payload)
        state = apply_event(state, *command)
    events = [command]
    while state.due is not None:
        event = _due_event(state, shuffle)
        events.append(event)
        state = apply_event(state, *event)
    return events, state


def _match_started(
    state: MatchState, setup: MatchSetup, payload: dict[str, Any], draw_dealer: Callable[[], int]
) -> Event:
    _expect_fields(payload, set(), {"first_dealer"})
    if state.status != SCHEDULED:
        raise MatchStateConflict("the match has started already", code="match_started")
    first = payload.get("first_dealer", setup.first_dealer)
    if first is None:
        first = draw_dealer()  # S2: at random
    if type(first) is not int or not 0 <= first <= 3:
        raise CommandRefused(f"first_dealer is a seat 0-3, not {first!r}", code="bad_payload")
    return MATCH_STARTED, {
        "first_dealer": first,
        "rules": setup.rules,
        "format": setup.format,
        "mode": setup.mode,
        "players": list(setup.players),
        "users": list(setup.users),
    }


def _move_played(
    state: MatchState, setup: MatchSetup, payload: dict[str, Any]
) -> tuple[Event, MatchState]:
    if setup.mode != DIGITAL:
        raise CommandRefused(
            f"moves are recorded in digital matches; this match is in {setup.mode} mode",
            code="mode_mismatch",
        )
    _expect_fields(payload, {"move"}, set())
    recorded, after = play_move(state, payload["move"])  # raises IllegalMove / MalformedMove
    return (MOVE_PLAYED, recorded), after


def _deal_result(state: MatchState, setup: MatchSetup, payload: dict[str, Any]) -> Event:
    """A deal's result entered as a command: score mode."""
    if setup.mode != SCORE:
        raise CommandRefused(
            f"deal results are entered in score matches; this match is in {setup.mode} mode",
            code="mode_mismatch",
        )
    _expect_fields(payload, {"points", "sweeps"}, set())
    progress = state.progress
    assert progress is not None
    return DEAL_ENDED, deal_result(
        progress, state.deal_no + 1, payload["points"], payload["sweeps"]
    )


def _due_event(state: MatchState, shuffle: Shuffle) -> Event:
    """Return the derived event the state makes due."""
    progress = state.progress
    assert progress is not None
    if state.due == DEAL_STARTED:  # the first deal, the next one, or B2's redeal
        return DEAL_STARTED, {
            "deal": state.deal_no + 1,
            "dealer": progress.dealer,
            "deck": shuffle(),
        }
    if state.due == DEAL_ENDED:
        deal = state.deal
        assert deal is not None
        return DEAL_ENDED, {"deal": state.deal_no, "dealer": deal.dealer, **sc.score(deal)}
    assert state.due == MATCH_ENDED
    return MATCH_ENDED, match_outcome(progress)


def _expect_fields(payload: dict[str, Any], required: set[str], optional: set[str]) -> None:
    missing = sorted(required - set(payload))
    unknown = sorted(set(payload) - required - optional)
    if missing or unknown:
        parts = [
            f"missing {', '.join(missing)}" if missing else "",
            f"unknown {', '.join(unknown)}" if unknown else "",
        ]
        raise CommandRefused(
            "payload fields: " + "; ".join(p for p in parts if p), code="bad_payload"
        )
