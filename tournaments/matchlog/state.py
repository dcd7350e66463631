"""Where a match stands between events: the value the fold produces and a snapshot stores."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import seep_core as sc

from .kinds import Status

SCHEDULED, IN_PROGRESS, FINISHED = Status.SCHEDULED, Status.IN_PROGRESS, Status.FINISHED


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
