"""Planning a command: the events a client's request makes, checked by replaying them.

No database here: the append service locks, plans with ``plan`` and writes what it returns.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import seep_core as sc

from ..errors import CommandRefused
from .decks import Shuffle, secure_deck
from .fold import Event, apply_event
from .kinds import COMMANDS, Kind, Mode
from .state import FINISHED, SCHEDULED, MatchState

MATCH_STARTED, DEAL_STARTED, MOVE_PLAYED = Kind.MATCH_STARTED, Kind.DEAL_STARTED, Kind.MOVE_PLAYED
DEAL_ENDED, MATCH_ENDED = Kind.DEAL_ENDED, Kind.MATCH_ENDED
DIGITAL, SCORE = Mode.DIGITAL, Mode.SCORE


@dataclass(frozen=True)
class MatchSetup:
    """What the match row fixes: its mode, rules, format and (optionally) first dealer."""

    mode: str
    rules: dict[str, Any]
    format: dict[str, Any]
    first_dealer: int | None


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

    Raises CommandRefused, or seep_core's IllegalMove/MalformedMove for a refused move.
    """
    if kind not in COMMANDS:
        raise CommandRefused(
            f"{kind!r} is not something a client appends: one of {', '.join(COMMANDS)}",
            code="kind_not_appendable",
        )
    if not isinstance(payload, dict):
        raise CommandRefused("the payload is an object", code="bad_payload")
    if state.status == FINISHED:
        raise CommandRefused("the match is over", code="match_over", rule="M1", status=409)
    events: list[Event] = []

    def emit(event_kind: str, event_payload: dict[str, Any]) -> None:
        nonlocal state
        state = apply_event(state, event_kind, event_payload)
        events.append((event_kind, event_payload))

    if kind == MATCH_STARTED:
        _expect_fields(payload, set(), {"first_dealer"})
        if state.status != SCHEDULED:
            raise CommandRefused("the match has started already", code="match_started", status=409)
        first = payload.get("first_dealer", setup.first_dealer)
        if first is None:
            first = draw_dealer()  # S2: at random
        if type(first) is not int or not 0 <= first <= 3:
            raise CommandRefused(f"first_dealer is a seat 0-3, not {first!r}", code="bad_payload")
        emit(
            MATCH_STARTED,
            {
                "first_dealer": first,
                "rules": setup.rules,
                "format": setup.format,
                "mode": setup.mode,
            },
        )
        if setup.mode == DIGITAL:
            _deal_next(state, emit, shuffle)
        return events, state

    if state.status == SCHEDULED:
        raise CommandRefused("the match has not started", code="match_not_started", status=409)
    if kind == MOVE_PLAYED:
        if setup.mode != DIGITAL:
            raise CommandRefused(
                f"moves are recorded in digital matches; this match is in {setup.mode} mode",
                code="mode_mismatch",
            )
        _expect_fields(payload, {"move"}, set())
        deal = state.deal
        assert deal is not None  # a digital match in progress always has a deal in play
        move = sc.canonical_move(deal, payload["move"])  # raises IllegalMove / MalformedMove
        emit(MOVE_PLAYED, {"deal": state.deal_no, "move": move})
        deal = state.deal
        assert deal is not None
        if deal.phase == "redealt":
            _deal_next(state, emit, shuffle)  # B2: the same dealer deals again
        elif deal.phase == "over":
            score = sc.score(deal)
            emit(DEAL_ENDED, {"deal": state.deal_no, "dealer": deal.dealer, **score})
            _after_deal(state, emit, shuffle)
        return events, state

    # DEAL_ENDED, entered as a command: score mode
    if setup.mode != SCORE:
        raise CommandRefused(
            f"deal results are entered in score matches; this match is in {setup.mode} mode",
            code="mode_mismatch",
        )
    _expect_fields(payload, {"points", "sweeps"}, set())
    progress = state.progress
    assert progress is not None
    points, sweeps = _checked_result(payload, progress.rules, progress.dealer)
    # card points sum to 100, so at most one team is under any minimum (V2: 0-50) and the
    # ledger (L1-L3, in apply_event) always takes the deal
    total = [points[0] + sum(sweeps[0]), points[1] + sum(sweeps[1])]
    emit(
        DEAL_ENDED,
        {
            "deal": state.deal_no + 1,
            "dealer": progress.dealer,
            "points": points,
            "sweeps": sweeps,
            "total": total,
        },
    )
    _after_deal(state, emit, shuffle)
    return events, state


def _deal_next(
    state: MatchState, emit: Callable[[str, dict[str, Any]], None], shuffle: Shuffle
) -> None:
    assert state.progress is not None
    emit(
        DEAL_STARTED,
        {"deal": state.deal_no + 1, "dealer": state.progress.dealer, "deck": shuffle()},
    )


def _after_deal(
    state: MatchState, emit: Callable[[str, dict[str, Any]], None], shuffle: Shuffle
) -> None:
    """After a scored deal: end the match if its format says so (M1), else deal the next."""
    progress = state.progress
    assert progress is not None
    if progress.over:
        emit(
            MATCH_ENDED,
            {
                "winner": progress.winner,
                "draw": progress.draw,
                "bazzis": list(progress.bazzis),
                "difference": progress.difference,
                "deals": progress.deals,
            },
        )
    elif state.mode == DIGITAL:
        _deal_next(state, emit, shuffle)


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


def _checked_result(
    payload: dict[str, Any], rules: sc.Rules, dealer: int
) -> tuple[list[int], list[list[int]]]:
    """Check an entered deal result (score mode): D2 points, W1-W2 sweeps."""
    points, sweeps = payload["points"], payload["sweeps"]
    if (
        not isinstance(points, list)
        or len(points) != 2
        or not all(type(p) is int and 0 <= p <= 100 for p in points)
    ):
        raise CommandRefused("points are two whole numbers 0-100", code="bad_payload")
    if sum(points) != 100:
        raise CommandRefused(
            f"card points sum to 100 in every deal, not {sum(points)}",
            code="points_not_100",
            rule="D2",
        )
    if (
        not isinstance(sweeps, list)
        or len(sweeps) != 2
        or not all(isinstance(s, list) and all(type(v) is int for v in s) for s in sweeps)
    ):
        raise CommandRefused("sweeps are two lists of sweep values", code="bad_payload")
    allowed = {rules.sweep, rules.first_sweep, rules.last_sweep} - {0}
    bidder_team = (dealer + 1) % 2
    first_play = 0
    for team, values in enumerate(sweeps):
        for value in values:
            if value not in allowed:
                raise CommandRefused(
                    f"a sweep is worth {sorted(allowed)} under this match's rules, not {value}",
                    code="impossible_sweep",
                    rule="W1",
                )
            if value == rules.first_sweep and value != rules.sweep:
                first_play += 1
                if team != bidder_team:
                    raise CommandRefused(
                        "only the bidder's team can sweep on the first play",
                        code="impossible_sweep",
                        rule="W2",
                    )
    if first_play > 1:
        raise CommandRefused(
            "at most one sweep on the first play", code="impossible_sweep", rule="W2"
        )
    if sum(len(s) for s in sweeps) > 47:
        raise CommandRefused("more sweeps than plays", code="impossible_sweep", rule="W1")
    return list(points), [list(sweeps[0]), list(sweeps[1])]
