"""A match's history as a pure fold: the state between events, and the events a command makes.

No database here. ``apply_event`` is the one place a match's state changes: the append service
plans a command by emitting events through it, and ``verify_match``/``rebuild_snapshots``
replay the stored log through it, so a snapshot and a replay cannot disagree by construction.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import seep_core as sc

from .errors import CommandRefused

MATCH_STARTED = "match_started"
DEAL_STARTED = "deal_started"
MOVE_PLAYED = "move_played"
DEAL_ENDED = "deal_ended"
MATCH_ENDED = "match_ended"
#: the kinds a client may ask for; the others are derived by the server
COMMANDS = (MATCH_STARTED, MOVE_PLAYED, DEAL_ENDED)

SCHEDULED, IN_PROGRESS, FINISHED = "scheduled", "in_progress", "finished"
DIGITAL, SCORE = "digital", "score"  # a table match records no moves yet


class LogInconsistent(ValueError):
    """A stored event that does not follow from the events before it (found by a replay)."""


@dataclass(frozen=True)
class MatchState:
    """Where a match stands after some prefix of its log."""

    mode: str
    status: str = SCHEDULED
    progress: sc.MatchProgress | None = None
    deal_no: int = 0  # the number of the current (or last) deal, redeals included
    deal: sc.Deal | None = None  # digital: the deal in play (None between matches)

    def to_json(self) -> dict[str, Any]:
        """Return the state as JSON (what a snapshot stores)."""
        return {
            "version": 1,
            "mode": self.mode,
            "status": self.status,
            "deal_no": self.deal_no,
            "progress": None if self.progress is None else self.progress.to_dict(),
            "deal": None if self.deal is None else self.deal.to_dict(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MatchState:
        """Return the state ``to_json`` wrote."""
        progress = (
            None if data["progress"] is None else sc.MatchProgress.from_dict(data["progress"])
        )
        deal = None
        if data["deal"] is not None:
            rules = progress.rules if progress is not None else None
            deal = sc.Deal.from_dict(data["deal"], rules)
        return cls(data["mode"], data["status"], progress, data["deal_no"], deal)


Event = tuple[str, dict[str, Any]]
Shuffle = Callable[[], list[str]]


def secure_deck() -> list[str]:
    """Return the 52 card codes shuffled with the operating system's CSPRNG (``secrets``)."""
    deck = sc.ordered_deck()
    secrets.SystemRandom().shuffle(deck)
    return deck


def repeatable_decks(seed: int | random.Random) -> Shuffle:
    """Return a shuffle that deals the same decks again for the same seed.

    For demos, tests and benchmarks only: real matches are dealt with ``secure_deck``.
    """
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def shuffle() -> list[str]:
        deck = sc.ordered_deck()
        rng.shuffle(deck)
        return deck

    return shuffle


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


# --- planning a command ------------------------------------------------------------------


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
