"""What a match counts: its deals' results and a director's adjustments, corrections applied.

A deal's result is counted when its ``deal_ended`` is in the log; a director's
``deal_corrected`` replaces it, ``deal_voided`` removes it, ``score_adjusted`` adds a penalty or
a bonus between deals. The match's standing (bazzis, running difference, next dealer, the
format's verdict) is then the engine's fold of what is counted, from the start
(``seep_core.MatchProgress``), so a correction to an early deal carries into every later one.
The store's fold and the scoring projection both count through here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

import seep_core as sc

from .kinds import Kind


class Counted(NamedTuple):
    """One thing the ledger counts: a deal's result, or an adjustment."""

    kind: str  # "deal" or "adjust"
    deal: int  # the deal's number; 0 for an adjustment
    dealer: int | None  # who dealt it (a deal)
    points: tuple[int, int] | None
    sweeps: tuple[tuple[int, ...], tuple[int, ...]] | None
    total: tuple[int, int] | None
    team: int | None  # an adjustment: the team it is for, and how many points
    amount: int | None
    seq: int  # the event that made it so (the last correction, if any)

    def to_json(self) -> list[Any]:
        """Return it as JSON (in a snapshot)."""
        return [
            self.kind, self.deal, self.dealer,
            None if self.points is None else list(self.points),
            None if self.sweeps is None else [list(self.sweeps[0]), list(self.sweeps[1])],
            None if self.total is None else list(self.total),
            self.team, self.amount, self.seq,
        ]  # fmt: skip

    @classmethod
    def from_json(cls, data: list[Any]) -> Counted:
        """Return what ``to_json`` wrote."""
        kind, deal, dealer, points, sweeps, total, team, amount, seq = data
        return cls(
            kind, deal, dealer,
            None if points is None else (points[0], points[1]),
            None if sweeps is None else (tuple(sweeps[0]), tuple(sweeps[1])),
            None if total is None else (total[0], total[1]),
            team, amount, seq,
        )  # fmt: skip


def deal_counted(payload: dict[str, Any], seq: int) -> Counted:
    """Return the counted result of a ``deal_ended`` (or ``deal_corrected``) payload."""
    points, sweeps, total = payload["points"], payload["sweeps"], payload["total"]
    return Counted(
        "deal", payload["deal"], payload.get("dealer"), (points[0], points[1]),
        (tuple(sweeps[0]), tuple(sweeps[1])), (total[0], total[1]), None, None, seq,
    )  # fmt: skip


def recount(
    ledger: tuple[Counted, ...], kind: str, payload: dict[str, Any], seq: int
) -> tuple[Counted, ...]:
    """Return the ledger after one event (unchanged for a kind that counts nothing)."""
    if kind == Kind.DEAL_ENDED:
        return (*ledger, deal_counted(payload, seq))
    if kind == Kind.DEAL_CORRECTED:
        dealer = next(c.dealer for c in ledger if c.kind == "deal" and c.deal == payload["deal"])
        corrected = deal_counted({**payload, "dealer": dealer}, seq)
        return tuple(
            corrected if c.kind == "deal" and c.deal == payload["deal"] else c for c in ledger
        )
    if kind == Kind.DEAL_VOIDED:
        return tuple(c for c in ledger if not (c.kind == "deal" and c.deal == payload["deal"]))
    if kind == Kind.SCORE_ADJUSTED:
        return (*ledger, Counted("adjust", 0, None, None, None, None, payload["team"],
                                 payload["points"], seq))  # fmt: skip
    return ledger


class LedgerError(sc.SeepError):
    """A counted item the match cannot take (``item``): it comes after the match ended."""

    def __init__(self, item: Counted, cause: sc.SeepError) -> None:
        super().__init__(cause.message, code=cause.code, rule=cause.rule)
        self.item = item


def steps(
    start: sc.MatchProgress, ledger: Iterable[Counted]
) -> list[tuple[Counted, sc.MatchProgress]]:
    """Return each counted item with the match's standing after it, from ``start``.

    Raises ``seep_core.SeepError`` when an item comes after the format has ended the match
    (a correction that would end it earlier than the deals already played after it).
    """
    out = []
    progress = start
    for item in ledger:
        try:
            if item.kind == "deal":
                assert item.total is not None
                progress = progress.after_deal(list(item.total))
            else:
                assert item.team is not None and item.amount is not None
                progress = progress.after_adjustment(item.team, item.amount)
        except sc.SeepError as exc:
            raise LedgerError(item, exc) from exc
        out.append((item, progress))
    return out


def standing(start: sc.MatchProgress, ledger: Iterable[Counted]) -> sc.MatchProgress:
    """Return the match's standing after everything counted."""
    counted = steps(start, ledger)
    return counted[-1][1] if counted else start
