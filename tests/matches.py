"""Helpers shared by the tests that drive matches through the append service."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any
from unittest import mock

from django.db import connection

import seep_core as sc
from tests.conftest import append_only_triggers_suspended
from tournaments import matchlog, snapshots
from tournaments.chain import canonical_json, event_hash
from tournaments.models import Match, MatchEvent, MatchSnapshot
from tournaments.selectors import current_deal
from tournaments.services import AppendResult
from tournaments.snapshots import SNAPSHOT_EVERY, replay_log
from tournaments.verify import verify_match


def deal_in_play(match: Match | int) -> sc.Deal:
    """Return the deal in play in a digital match (failing the test if there is none)."""
    if isinstance(match, int):
        match = Match.objects.get(pk=match)
    deal = current_deal(match)
    assert deal is not None, f"match {match.pk} has no deal in play"
    return deal


def body(result: AppendResult) -> list[tuple[Any, ...]]:
    """Return what a response carries of an append: every field of its events, and the head."""
    return [*result.events, ("last_seq", result.last_seq)]


def assert_log_intact(match: Match) -> None:
    """The seqs run 1..N without gaps or duplicates, the chain verifies, the snapshot is the
    replay of the log to its seq (at the head or a few events behind it), and the state read
    from it (the events after it folded on) is the replay of the whole log."""
    match.refresh_from_db()
    events = MatchEvent.objects.filter(match=match).order_by("seq")
    seqs = list(events.values_list("seq", flat=True))
    assert seqs == list(range(1, match.last_seq + 1))
    assert verify_match(match) == []
    assert_snapshot_replays(match)


def assert_snapshot_replays(match: Match) -> None:
    """The snapshot is the replay of the log to its seq (at the head, or fewer than twice
    ``SNAPSHOT_EVERY`` events behind it), and the state read from it (the events after it
    folded on) is the replay of the whole log."""
    match.refresh_from_db()
    snapshot = MatchSnapshot.objects.get(match=match)
    assert match.last_seq - SNAPSHOT_EVERY * 2 < snapshot.seq <= match.last_seq
    events = MatchEvent.objects.filter(match=match, seq__lte=snapshot.seq).order_by("seq")
    upto = events.values_list("kind", "payload", "actor_id", "via")
    replayed = matchlog.replay(
        [(kind, payload, matchlog.author(actor, via)) for kind, payload, actor, via in upto],
        match.mode,
    )
    assert snapshot.state == canonical_json(replayed.to_json())
    with mock.patch.object(snapshots, "recent", snapshots.RecentStates()):  # read afresh
        assert snapshots.current_state(match.pk) == replay_log(match)


@contextlib.contextmanager
def tampering() -> Iterator[None]:
    """Lift the append-only triggers for the block (the test suite's helper), as a forger
    with the database's own role could."""
    if connection.vendor == "postgresql" and connection.in_atomic_block:
        with connection.cursor() as cursor:
            # PostgreSQL alters no table with the transaction's deferred foreign-key checks
            # (from the inserts before) still pending: run them now.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    with append_only_triggers_suspended(connection):
        yield


def forge(match: Match, edit: Callable[[MatchEvent], dict[str, Any] | None]) -> list[int]:
    """Rewrite the payloads ``edit`` returns (None: keep) and recompute the whole chain, the
    head of log and the snapshot's seq, as a forger with write access to the tables could.

    Returns the seqs edited. Only a replay that re-derives the content can catch it.
    """
    edited = []
    previous = "0" * 64
    with tampering():
        for event in MatchEvent.objects.filter(match=match).order_by("seq"):
            payload = edit(event)
            if payload is not None:
                event.payload = payload
                edited.append(event.seq)
            previous = event_hash(
                previous, seq=event.seq, kind=event.kind, payload=event.payload,
                actor=event.actor_id, recorded_at=event.recorded_at,
                idempotency_key=event.idempotency_key, caused_by=event.caused_by,
                request_digest=event.request_digest, via=event.via,
            )  # fmt: skip
            MatchEvent.objects.filter(pk=event.pk).update(payload=event.payload, hash=previous)
    Match.objects.filter(pk=match.pk).update(last_hash=previous)
    match.refresh_from_db()
    return edited
