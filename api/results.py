"""A tournament's results log: each happening its webhooks tell (a deal recorded, a match
completed, a round published or taken back, standings changed), numbered per tournament, for
integrators who read it from a position (``GET /tournaments/{id}/results/``) or follow it as
it grows (the results stream, api/stream.py).

An entry is written when the webhooks are told (api/webhooks.py: after the commit of what
happened, or by the task that tells it), whether or not anyone subscribed, in a transaction
of its own that first locks the tournament's :class:`~api.models.ResultsHead` row: it stays
locked until the entry commits, so the entries of a tournament commit in the order of their
seqs. A happening told twice (a task run again after its worker was lost) is written once:
each entry has a key of what it is (a deal's row, a completion at the match's head, a
round's publication), but ``standings.changed``, which only says to look again. Like a
webhook, an entry is told after the commit: a process killed between the two loses it. A
reader that has seen seq N has seen every entry up to N, and an entry it has not seen has a
seq above N: resuming "after N" loses nothing and doubles nothing. The log holds results,
pairings and the standings' rounds: never a card.

Unlike a ``standings.changed`` delivery, an entry does not carry the table: it says which
rounds changed, and ``GET /stages/{id}/standings/?round=`` gives it (every recompute would
otherwise store the whole table).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from tournaments import live

from .models import ResultEntry, ResultsHead


def record(tournament_id: int, kind: str, body: dict[str, Any], key: str = "") -> ResultEntry:
    """Append a happening to the tournament's results log (and tell the push processes);
    one with the ``key`` of an entry already there is that entry (told twice, written once)."""
    with transaction.atomic():
        ResultsHead.objects.bulk_create(
            [ResultsHead(tournament_id=tournament_id)], ignore_conflicts=True
        )
        # locked until the commit: the next writer waits for this entry, and takes the next seq
        head = ResultsHead.objects.select_for_update().get(pk=tournament_id)
        if key:
            found = ResultEntry.objects.filter(tournament_id=tournament_id, key=key).first()
            if found is not None:
                return found
        head.last_seq += 1
        head.save(update_fields=["last_seq"])
        entry = ResultEntry.objects.create(
            tournament_id=tournament_id, seq=head.last_seq, kind=kind, body=body, key=key
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
