"""The scoring fold: a match's events in, its deal results and match standing out (no database).

The rules are seep_core's (``MatchProgress.after_deal``: L1-L3, R1-R3, M1); this module only
collects each scored deal from the log and folds them in deal order from the start of the
match. Because the whole match is folded afresh every time, an event that changes an earlier
deal (a director's correction, a later issue) changes that deal's row and every row after it
with no special case: it only has to change what ``scored_deals`` collects.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import seep_core as sc
from tournaments import matchlog
from tournaments.matchlog import ledger

log = logging.getLogger(__name__)

#: the event kinds the projection reads; any other kind cannot change a result, and a task
#: that finds only other kinds past its checkpoint just moves the checkpoint
SCORED_KINDS = (
    matchlog.MATCH_STARTED,
    matchlog.DEAL_ENDED,
    matchlog.MATCH_ENDED,
    *matchlog.CORRECTIONS,
    matchlog.Kind.MATCH_REOPENED,
)


class ProjectionError(ValueError):
    """The log cannot be folded into results (it does not follow from itself)."""


@dataclass(frozen=True, slots=True)
class LogEvent:
    """The part of a stored event the fold reads."""

    seq: int
    kind: str
    payload: dict[str, Any]
    recorded_at: datetime


@dataclass(frozen=True, slots=True)
class DealRow:
    """One scored deal: the teams' scores (E2) and the ledger after it (L1-L3)."""

    deal: int
    dealer: int
    points: tuple[int, int]
    sweeps: tuple[tuple[int, ...], tuple[int, ...]]
    total: tuple[int, int]
    difference: int  # this deal's total, team 0 minus team 1
    running_difference: int  # after the deal
    reset: bool  # a team fell under the minimum (L3)
    bazzi: int | None
    reason: str | None  # "lead" (L2), "minimum" (L3) or None
    bazzis: tuple[int, int]  # after the deal
    seq: int


@dataclass(frozen=True, slots=True)
class MatchRow:
    """The match after its last scored deal."""

    started: bool
    deals: int
    difference: int
    bazzis: tuple[int, int]
    next_dealer: int | None
    over: bool
    winner: int | None
    draw: bool
    forfeited_by: int | None  # the team a director declared forfeit
    completed_at: datetime | None  # when the event that ended the match was recorded


NOT_STARTED = MatchRow(False, 0, 0, (0, 0), None, False, None, False, None, None)


@dataclass(frozen=True, slots=True)
class Projection:
    """A match's scoring read model as of some prefix of its log."""

    match: MatchRow
    deals: tuple[DealRow, ...]


def fold(events: Iterable[LogEvent]) -> Projection:
    """Return the projection of a match whose log (in seq order) holds ``events``.

    Only the kinds in ``SCORED_KINDS`` matter; others are skipped. What is counted (deals,
    corrections, voided deals, adjustments) is the store's ledger (``matchlog.ledger``), and
    the standing after each item is the engine's. Raises ProjectionError when the log cannot
    be folded.
    """
    events = list(events)
    started: LogEvent | None = None
    counted: tuple[ledger.Counted, ...] = ()
    forfeit: int | None = None
    ended_at: datetime | None = None  # when the event that ended the match was recorded
    for event in events:
        try:
            if event.kind == matchlog.MATCH_STARTED:
                if started is not None:
                    raise ProjectionError(f"event {event.seq}: match_started twice")
                started = event
            elif event.kind == matchlog.DEAL_ENDED:
                _scored_deal(event)  # its shape
                counted = ledger.recount(counted, event.kind, event.payload, event.seq)
            elif event.kind == matchlog.Kind.MATCH_FORFEITED:
                forfeit = event.payload["team"]
            elif event.kind in matchlog.CORRECTIONS:
                counted = ledger.recount(counted, event.kind, event.payload, event.seq)
            if event.kind == matchlog.MATCH_ENDED:
                ended_at = event.recorded_at
            elif event.kind == matchlog.Kind.MATCH_REOPENED:
                ended_at = None
        except (KeyError, TypeError, IndexError, StopIteration) as exc:
            raise ProjectionError(f"event {event.seq}: {event.kind}: {exc!r}") from exc
        if started is None and event.kind != matchlog.MATCH_STARTED and counted:
            raise ProjectionError("deals scored before match_started")
    if started is None:
        return Projection(NOT_STARTED, ())
    try:
        progress = sc.start_match(
            started.payload["first_dealer"],
            sc.MatchFormat.from_dict(started.payload.get("format")),
            sc.Rules.from_dict(started.payload.get("rules")),
        )
    except (KeyError, TypeError, sc.SeepError) as exc:
        raise ProjectionError(f"event {started.seq}: match_started: {exc}") from exc
    try:
        stepped = ledger.steps(progress, counted)
    except ledger.LedgerError as exc:
        where = f"deal {exc.item.deal}" if exc.item.kind == "deal" else "an adjustment"
        raise ProjectionError(f"event {exc.item.seq}: {where}: {exc}") from exc
    rows: list[DealRow] = []
    for item, after in stepped:
        progress = after
        if item.kind != "deal":
            continue  # an adjustment: it shows in the running difference of later deals
        assert item.points and item.sweeps and item.total and item.dealer is not None
        step = after.last_step
        assert step is not None  # after_deal always records its step
        rows.append(
            DealRow(
                deal=item.deal,
                dealer=item.dealer,
                points=item.points,
                sweeps=item.sweeps,
                total=item.total,
                difference=item.total[0] - item.total[1],
                running_difference=step.difference,
                reset=step.reason == "minimum",
                bazzi=step.bazzi,
                reason=step.reason,
                bazzis=after.bazzis,
                seq=item.seq,
            )
        )
    if forfeit is not None:
        progress = progress.forfeited_by(forfeit)
    result = MatchRow(
        started=True,
        deals=progress.deals,
        difference=progress.difference,
        bazzis=progress.bazzis,
        next_dealer=None if progress.over else progress.dealer,
        over=progress.over,
        winner=progress.winner,
        draw=progress.draw,
        forfeited_by=forfeit,
        completed_at=ended_at if progress.over else None,
    )
    _check_against_match_ended(events, result)
    return Projection(result, tuple(sorted(rows, key=lambda r: r.deal)))


def _scored_deal(event: LogEvent) -> None:
    """Check a deal_ended payload's shape (the projection trusts nothing it cannot read)."""
    payload = event.payload
    try:
        _pair(payload["points"])
        sweeps = payload["sweeps"]
        _values(sweeps[0])
        _values(sweeps[1])
        _pair(payload["total"])
        deal, dealer = payload["deal"], payload["dealer"]
        if type(deal) is not int or type(dealer) is not int or not 0 <= dealer <= 3:
            raise TypeError("deal and dealer are whole numbers, the dealer a seat 0-3")
    except (KeyError, TypeError, IndexError, ValueError) as exc:
        raise ProjectionError(f"event {event.seq}: malformed deal_ended: {exc!r}") from exc


def _pair(value: Any) -> tuple[int, int]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise TypeError(f"expected two whole numbers, not {value!r}")
    a, b = value
    if type(a) is not int or type(b) is not int:
        raise TypeError(f"expected two whole numbers, not {value!r}")
    return a, b


def _values(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or not all(type(v) is int for v in value):
        raise TypeError(f"expected a list of whole numbers, not {value!r}")
    return tuple(value)


def _check_against_match_ended(events: list[LogEvent], result: MatchRow) -> None:
    """Log (not raise) when the recorded match_ended disagrees with the fold.

    The fold (log + engine) is the truth; a disagreement means the engine's rules changed
    under recorded matches or the log is inconsistent, and an operator should look.
    """
    # Only the last word counts: a correction that changes a finished match's result is
    # followed by a new match_ended (or a match_reopened) in the same append.
    last = None
    for event in events:
        if event.kind in (matchlog.MATCH_ENDED, matchlog.Kind.MATCH_REOPENED):
            last = event
    if last is None:
        return
    if last.kind == matchlog.Kind.MATCH_REOPENED:
        if result.over:
            log.error("event %s: the match was reopened, its deals fold to its end", last.seq)
        return
    recorded = (last.payload.get("winner"), last.payload.get("draw"), last.payload.get("bazzis"))
    folded = (result.winner, result.draw, list(result.bazzis))
    if not result.over or recorded != folded:
        log.error(
            "event %s: match_ended says winner/draw/bazzis %s, the deals fold to %s (over: %s)",
            last.seq,
            recorded,
            folded,
            result.over,
        )
