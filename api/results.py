"""A tournament's results log: each happening its webhooks tell (a deal recorded, a match
completed, a round published or taken back, standings changed), numbered per tournament, for
integrators who read it from a position (``GET /tournaments/{id}/results/``) or follow it as
it grows (the results stream, api/stream.py).

An entry is written when the webhooks are told (api/webhooks.py), whether or not anyone
subscribed, in a transaction of its own that first takes the next seq from the tournament's
:class:`~api.models.ResultsHead` row: that row stays locked until the entry commits, so the
entries of a tournament commit in the order of their seqs. A reader that has seen seq N has
seen every entry up to N, and an entry it has not seen has a seq above N: resuming "after N"
loses nothing and doubles nothing. The log holds results, pairings and the standings' rounds:
never a card.

Unlike a ``standings.changed`` delivery, an entry does not carry the table: it says which
rounds changed, and ``GET /stages/{id}/standings/?round=`` gives it (every recompute would
otherwise store the whole table).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import F

from tournaments import live

from .models import ResultEntry, ResultsHead


def record(tournament_id: int, kind: str, body: dict[str, Any]) -> ResultEntry:
    """Append a happening to the tournament's results log (and tell the push processes)."""
    with transaction.atomic():
        ResultsHead.objects.bulk_create(
            [ResultsHead(tournament_id=tournament_id)], ignore_conflicts=True
        )
        # the update locks the head until the commit: the next writer waits for this entry
        ResultsHead.objects.filter(pk=tournament_id).update(last_seq=F("last_seq") + 1)
        seq = ResultsHead.objects.values_list("last_seq", flat=True).get(pk=tournament_id)
        entry = ResultEntry.objects.create(
            tournament_id=tournament_id, seq=seq, kind=kind, body=body
        )
        live.publish("x", tournament_id)
    return entry


def head(tournament_id: int) -> int:
    """The seq of the tournament's last entry (0 before the first)."""
    found = ResultsHead.objects.filter(pk=tournament_id).values_list("last_seq", flat=True)
    return found.first() or 0


def entries(tournament_id: int, after: int, limit: int) -> list[dict[str, Any]]:
    """The entries after seq ``after`` (at most ``limit``), each as the API shows it."""
    rows = ResultEntry.objects.filter(tournament_id=tournament_id, seq__gt=after).order_by("seq")
    return [shown(entry) for entry in rows[:limit]]


def shown(entry: ResultEntry) -> dict[str, Any]:
    """An entry as the API shows it: its seq, kind, tournament and time, then its body (the
    webhook delivery's fields)."""
    return {
        "seq": entry.seq,
        "kind": entry.kind,
        "tournament": entry.tournament_id,
        "created_at": entry.created_at.isoformat(),
        **entry.body,
    }
