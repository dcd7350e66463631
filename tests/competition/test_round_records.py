"""A completed round records the heads of its matches' logs: verify_match checks every log
still reaches them, so a rewritten log is caught even when its whole chain was recomputed and
its stored receipts were deleted with it."""

from __future__ import annotations

from datetime import timedelta

import pytest

from competition.models import Round
from tests.matches import tampering
from tournaments.chain import GENESIS, event_hash
from tournaments.models import Match, MatchEvent, MatchReceipt
from tournaments.verify import verify_match

from .helpers import Club
from .test_corrections import correct, flip, round_one_played

pytestmark = pytest.mark.django_db


def a_completed_round() -> tuple[Club, Round, Match]:
    club, _, first, fixture = round_one_played("records-cup")
    assert first.status == Round.Status.COMPLETE and fixture.match is not None
    return club, first, fixture.match


def rewrite_history(match: Match) -> None:
    """Move the first deal's time, recompute the whole chain and the head, drop the receipts."""
    with tampering():
        previous = GENESIS
        for event in MatchEvent.objects.filter(match=match).order_by("seq"):
            recorded_at = event.recorded_at - timedelta(minutes=5) * (event.seq == 2)
            previous = event_hash(
                previous, seq=event.seq, kind=event.kind, payload=event.payload,
                actor=event.actor_id, recorded_at=recorded_at,
                idempotency_key=event.idempotency_key, caused_by=event.caused_by,
                request_digest=event.request_digest, via=event.via,
            )  # fmt: skip
            MatchEvent.objects.filter(pk=event.pk).update(hash=previous, recorded_at=recorded_at)
        Match.objects.filter(pk=match.pk).update(last_hash=previous)
        MatchReceipt.objects.filter(match=match).delete()


def test_a_log_rewritten_with_its_chain_recomputed_is_caught_by_the_rounds_record() -> None:
    _, first, match = a_completed_round()
    assert verify_match(match) == []
    entry = next(e for e in first.receipts if e["match"] == match.pk)
    assert (entry["events"], entry["head_hash"]) == (match.last_seq, match.last_hash)
    rewrite_history(match)
    found = [str(p) for p in verify_match(match)]
    assert any("the log differs from the record of stage 1, round 1" in p for p in found), found


def test_a_correction_after_the_round_keeps_the_records_checkable() -> None:
    club, first, match = a_completed_round()
    correct(club, match, flip(2, 80))
    match.refresh_from_db()
    first.refresh_from_db()
    assert verify_match(match) == []  # the old head is a prefix of the new log
    entry = next(e for e in first.receipts if e["match"] == match.pk)
    assert entry["events"] == match.last_seq  # and the record follows the correction
