"""Where a match stands between events: the value the fold produces and a snapshot stores."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import seep_core as sc

from .kinds import Kind, Status

SCHEDULED, IN_PROGRESS, FINISHED = Status.SCHEDULED, Status.IN_PROGRESS, Status.FINISHED
#: the version of ``MatchState.to_json``; a snapshot of another version is rebuilt
STATE_VERSION = 2


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
    #: who sits where, fixed by match_started: the players' ids and their users' ids by seat
    players: tuple[int, ...] | None = None
    users: tuple[int | None, ...] | None = None
    #: the derived event the server must write next, within the same append (None between
    #: appends): the fold refuses anything else, so a log cannot skip or invent one
    due: Kind | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the state as JSON (what a snapshot stores)."""
        return {
            "version": STATE_VERSION,
            "mode": self.mode,
            "status": self.status,
            "deal_no": self.deal_no,
            "progress": None if self.progress is None else self.progress.to_dict(),
            "deal": None if self.deal is None else self.deal.to_dict(),
            "players": None if self.players is None else list(self.players),
            "users": None if self.users is None else list(self.users),
            "due": self.due,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MatchState:
        """Return the state ``to_json`` wrote; raise ValueError for any other shape or version."""
        try:
            if data["version"] != STATE_VERSION:
                raise ValueError(f"state version {data['version']!r}, not {STATE_VERSION}")
            progress = (
                None if data["progress"] is None else sc.MatchProgress.from_dict(data["progress"])
            )
            deal = None
            if data["deal"] is not None:
                rules = progress.rules if progress is not None else None
                deal = sc.Deal.from_dict(data["deal"], rules)
            players, users, due = data["players"], data["users"], data["due"]
            return cls(
                data["mode"],
                Status(data["status"]),
                progress,
                data["deal_no"],
                deal,
                None if players is None else tuple(players),
                None if users is None else tuple(users),
                None if due is None else Kind(due),
            )
        except (KeyError, TypeError, IndexError) as exc:
            raise ValueError(f"not a match state: {exc!r}") from exc
