"""Checking a match's history: the hash chain, the replay, and the snapshot against both."""

from __future__ import annotations

from dataclasses import dataclass

from . import matchlog
from .chain import GENESIS, event_hash
from .models import Match, MatchEvent, MatchSnapshot


@dataclass(frozen=True)
class Problem:
    """Where a match's stored history disagrees with itself."""

    seq: int | None  # the event at fault, None for the match row or the snapshot
    message: str

    def __str__(self) -> str:
        where = "match" if self.seq is None else f"event {self.seq}"
        return f"{where}: {self.message}"


def verify_match(match: Match) -> list[Problem]:
    """Return every problem found in ``match``'s log (empty: the history is intact).

    Recomputes the hash chain from the first event, replays every event through seep_core,
    and compares the result with the stored snapshot and the match's head of log. Stops
    replaying at the first event that does not follow, and says where.
    """
    match.refresh_from_db()  # compare with the stored head of log, not a stale copy
    problems: list[Problem] = []
    previous = GENESIS
    state = matchlog.MatchState(match.mode)
    replaying = True
    expected_seq = 1
    for event in MatchEvent.objects.filter(match=match).order_by("seq").iterator():
        if event.seq != expected_seq:
            problems.append(Problem(event.seq, f"seq {event.seq} where {expected_seq} was due"))
        expected_seq = event.seq + 1
        recomputed = event_hash(
            previous,
            seq=event.seq,
            kind=event.kind,
            payload=event.payload,
            actor=event.actor_id,
            recorded_at=event.recorded_at,
            idempotency_key=event.idempotency_key,
            caused_by=event.caused_by,
        )
        if recomputed != event.hash:
            problems.append(Problem(event.seq, "hash does not match its content and chain"))
        previous = event.hash
        if replaying:
            try:
                state = matchlog.apply_event(state, event.kind, event.payload)
            except matchlog.LogInconsistent as exc:
                problems.append(Problem(event.seq, f"replay failed: {exc}"))
                replaying = False
    last_seq = expected_seq - 1
    if match.last_seq != last_seq:
        problems.append(
            Problem(None, f"head of log says seq {match.last_seq}, log ends at {last_seq}")
        )
    if (match.last_hash or "") != (previous if last_seq else ""):
        problems.append(Problem(None, "head of log hash differs from the last event's hash"))
    if replaying:
        if match.status != state.status:
            problems.append(Problem(None, f"status {match.status}, the log says {state.status}"))
        snapshot = MatchSnapshot.objects.filter(match=match).first()
        if snapshot is None:
            if last_seq:
                problems.append(Problem(None, "no snapshot for a match with events"))
        elif snapshot.seq != last_seq:
            problems.append(Problem(None, f"snapshot at seq {snapshot.seq}, log at {last_seq}"))
        elif snapshot.state != state.to_json():
            problems.append(Problem(None, f"snapshot differs from the replay at seq {last_seq}"))
    return problems
