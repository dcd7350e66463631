"""A tournament's results log: its happenings (tournaments.happenings), as the API shows them,
for integrators who read it from a position (``GET /tournaments/{id}/results/``) or follow it
as it grows (the results stream, api/stream.py).

The log IS the tournament's happenings, by their seq: each is written in the transaction of
the change it tells (a deal recorded, a match completed, a round published...), and seqs
commit in order, so a reader that has seen seq N has seen every entry up to N, and an entry
it has not seen has a seq above N: resuming "after N" loses nothing and doubles nothing. A
process killed just after a change's commit loses no entry. The log holds results, pairings
and the standings' rounds: never a card.

Unlike a ``standings.changed`` delivery, an entry does not carry the table: it says which
rounds changed, and ``GET /stages/{id}/standings/?round=`` gives it (every recompute would
otherwise store the whole table).
"""

from __future__ import annotations

from typing import Any

from tournaments import happenings
from tournaments.models import Happening


def head(tournament_id: int) -> int:
    """The seq of the tournament's last entry (0 before the first)."""
    return happenings.head(tournament_id)


def entries(tournament_id: int, after: int, limit: int) -> list[dict[str, Any]]:
    """The entries after seq ``after`` (at most ``limit``), each as the API shows it."""
    return [shown(entry) for entry in happenings.since(tournament_id, after, limit)]


def shown(entry: Happening) -> dict[str, Any]:
    """An entry as the API shows it: its seq, kind, tournament and time, then its body (the
    webhook delivery's fields)."""
    return {
        "seq": entry.seq,
        "kind": entry.kind,
        "tournament": entry.tournament_id,
        "created_at": entry.created_at.isoformat(),
        **entry.body,
    }
