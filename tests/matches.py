"""Helpers shared by the tests that drive matches through the append service."""

from __future__ import annotations

from typing import Any

import seep_core as sc
from tournaments.models import Match, MatchEvent, MatchSnapshot
from tournaments.selectors import current_deal
from tournaments.services import AppendResult, replay_log
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
    return [
        (e.pk, e.seq, e.kind, e.payload, e.actor_id, e.recorded_at, e.idempotency_key,
         e.caused_by, e.hash)
        for e in result.events
    ] + [("last_seq", result.last_seq)]  # fmt: skip


def assert_log_intact(match: Match) -> None:
    """The seqs run 1..N without gaps or duplicates, the chain verifies, the snapshot replays."""
    match.refresh_from_db()
    events = MatchEvent.objects.filter(match=match).order_by("seq")
    seqs = list(events.values_list("seq", flat=True))
    assert seqs == list(range(1, match.last_seq + 1))
    assert verify_match(match) == []
    snapshot = MatchSnapshot.objects.get(match=match)
    assert snapshot.seq == match.last_seq
    assert snapshot.state == replay_log(match).to_json()
