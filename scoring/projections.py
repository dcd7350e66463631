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

log = logging.getLogger(__name__)

#: the event kinds the projection reads; any other kind cannot change a result, and a task
#: that finds only other kinds past its checkpoint just moves the checkpoint. A new kind that
#: changes results (a director's correction) must be added here.
SCORED_KINDS = (matchlog.MATCH_STARTED, matchlog.DEAL_ENDED, matchlog.MATCH_ENDED)


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
    completed_at: datetime | None  # when the deal that ended the match was recorded


NOT_STARTED = MatchRow(False, 0, 0, (0, 0), None, False, None, False, None)


@dataclass(frozen=True, slots=True)
class Projection:
    """A match's scoring read model as of some prefix of its log."""

    match: MatchRow
    deals: tuple[DealRow, ...]


@dataclass(frozen=True, slots=True)
class ScoredDeal:
    """A deal's result as the log records it (before the ledger is applied)."""

    deal: int
    dealer: int
    points: tuple[int, int]
    sweeps: tuple[tuple[int, ...], tuple[int, ...]]
    total: tuple[int, int]
    seq: int
    recorded_at: datetime


def scored_deals(events: Iterable[LogEvent]) -> tuple[LogEvent | None, list[ScoredDeal]]:
    """Return the match's ``match_started`` event and its scored deals in deal order.

    This is where correction events (a deal voided or corrected by a director) will act:
    they replace or drop a deal's entry, and ``fold`` recomputes everything from there.
    """
    started: LogEvent | None = None
    deals: dict[int, ScoredDeal] = {}
    for event in events:
        if event.kind == matchlog.MATCH_STARTED:
            if started is not None:
                raise ProjectionError(f"event {event.seq}: match_started twice")
            started = event
        elif event.kind == matchlog.DEAL_ENDED:
            deal = _scored_deal(event)
            if deal.deal in deals:
                raise ProjectionError(
                    f"event {event.seq}: deal {deal.deal} scored twice "
                    f"(first at event {deals[deal.deal].seq})"
                )
            deals[deal.deal] = deal
    if deals and started is None:
        raise ProjectionError("deals scored before match_started")
    return started, [deals[number] for number in sorted(deals)]


def fold(events: Iterable[LogEvent]) -> Projection:
    """Return the projection of a match whose log (in seq order) holds ``events``.

    Only the kinds in ``SCORED_KINDS`` matter; others are skipped. Raises ProjectionError
    when the log cannot be folded.
    """
    events = list(events)
    started, deals = scored_deals(events)
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
    rows: list[DealRow] = []
    completed_at = None
    for deal in deals:
        try:
            progress = progress.after_deal(list(deal.total))
        except sc.SeepError as exc:
            raise ProjectionError(f"event {deal.seq}: deal {deal.deal}: {exc}") from exc
        step = progress.last_step
        assert step is not None  # after_deal always records its step
        rows.append(
            DealRow(
                deal=deal.deal,
                dealer=deal.dealer,
                points=deal.points,
                sweeps=deal.sweeps,
                total=deal.total,
                difference=deal.total[0] - deal.total[1],
                running_difference=step.difference,
                reset=step.reason == "minimum",
                bazzi=step.bazzi,
                reason=step.reason,
                bazzis=progress.bazzis,
                seq=deal.seq,
            )
        )
        if progress.over:
            completed_at = deal.recorded_at
    result = MatchRow(
        started=True,
        deals=progress.deals,
        difference=progress.difference,
        bazzis=progress.bazzis,
        next_dealer=None if progress.over else progress.dealer,
        over=progress.over,
        winner=progress.winner,
        draw=progress.draw,
        completed_at=completed_at,
    )
    _check_against_match_ended(events, result)
    return Projection(result, tuple(rows))


def _scored_deal(event: LogEvent) -> ScoredDeal:
    payload = event.payload
    try:
        points = _pair(payload["points"])
        sweeps = payload["sweeps"]
        sweeps_pair = (_values(sweeps[0]), _values(sweeps[1]))
        total = _pair(payload["total"])
        deal, dealer = payload["deal"], payload["dealer"]
        if type(deal) is not int or type(dealer) is not int or not 0 <= dealer <= 3:
            raise TypeError("deal and dealer are whole numbers, the dealer a seat 0-3")
    except (KeyError, TypeError, IndexError, ValueError) as exc:
        raise ProjectionError(f"event {event.seq}: malformed deal_ended: {exc!r}") from exc
    return ScoredDeal(deal, dealer, points, sweeps_pair, total, event.seq, event.recorded_at)


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
    for event in events:
        if event.kind != matchlog.MATCH_ENDED:
            continue
        recorded = (
            event.payload.get("winner"),
            event.payload.get("draw"),
            event.payload.get("bazzis"),
        )
        folded = (result.winner, result.draw, list(result.bazzis))
        if not result.over or recorded != folded:
            log.error(
                "event %s: match_ended says winner/draw/bazzis %s, the deals fold to %s (over: %s)",
                event.seq,
                recorded,
                folded,
                result.over,
            )
