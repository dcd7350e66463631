"""Checking a match's history: the hash chain, the replay, the snapshot, and signed receipts."""

from __future__ import annotations

import hmac
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from . import matchlog, receipts
from .chain import GENESIS, canonical_json, stored_event_hash
from .models import Match, MatchEvent, MatchReceipt, MatchSnapshot
from .reads import consistent_read
from .signals import verifying
from .snapshots import canonical_digest


@dataclass(frozen=True)
class Anchor:
    """A head of a match's log recorded outside it: the log's first ``seq`` events must still
    hash to ``head_hash`` (``source`` says where it was recorded)."""

    seq: int
    head_hash: str
    source: str


@dataclass(frozen=True)
class Problem:
    """Where a match's stored history disagrees with itself (or with a receipt)."""

    seq: int | None  # the event at fault, None for the match row, the snapshot or a receipt
    message: str

    def __str__(self) -> str:
        where = "match" if self.seq is None else f"event {self.seq}"
        return f"{where}: {self.message}"


def verify_match(match: Match, *, receipts_given: Iterable[receipts.Receipt] = ()) -> list[Problem]:
    """Return every problem found in ``match``'s log (empty: the history is intact).

    Reads the match row, its events, its snapshot and its receipts as one consistent picture
    (appends may go on meanwhile). Recomputes the hash chain from the first event; replays
    every event through the fold, which re-derives everything the append checked; checks that
    each derived event belongs to the command before it; compares the result with the match
    row's head of log and setup and with the snapshot; and checks the log against every
    signed receipt, the stored ones and ``receipts_given`` (copies held outside the database,
    the ones that prove something against a rewritten table), and against the heads of the
    log recorded elsewhere (``signals.verifying``: a stage's record of its rounds). Stops
    replaying at the first event that does not follow, and says where.
    """
    with consistent_read():
        match.refresh_from_db()  # compare with the stored head of log, not a stale copy
        events = list(MatchEvent.objects.filter(match=match).order_by("seq"))
        snapshot = MatchSnapshot.objects.filter(match=match).first()
        stored_receipts = [
            receipts.Receipt(r.body, r.signature) for r in MatchReceipt.objects.filter(match=match)
        ]
    problems: list[Problem] = []
    previous = GENESIS
    state = matchlog.MatchState(match.mode)
    replaying = True
    expected_seq = 1
    command: MatchEvent | None = None
    hashes: dict[int, str] = {}
    outcomes: dict[int, dict[str, object]] = {}
    #: the state after the snapshot's event (a snapshot may be a few events behind the head)
    at_snapshot = matchlog.MatchState(match.mode) if snapshot and snapshot.seq == 0 else None
    for event in events:
        if event.seq != expected_seq:
            problems.append(Problem(event.seq, f"seq {event.seq} where {expected_seq} was due"))
        expected_seq = event.seq + 1
        if stored_event_hash(previous, event) != event.hash:
            problems.append(Problem(event.seq, "hash does not match its content and chain"))
        previous = event.hash
        hashes[event.seq] = event.hash
        if bool(event.idempotency_key) != bool(event.request_digest):
            problems.append(Problem(event.seq, "an idempotency key without its request digest"))
        if not replaying:
            continue
        if state.due is None:  # the server owed nothing: this is a client's command
            command = event
            if event.caused_by is not None:
                problems.append(Problem(event.seq, "a command that names a cause"))
        elif command is None or (
            event.caused_by != command.seq
            or event.actor_id != command.actor_id
            or event.recorded_at != command.recorded_at
            or event.idempotency_key is not None
            or event.via != command.via
        ):
            problems.append(Problem(event.seq, "a derived event not written with its command"))
        try:
            author = matchlog.author(event.actor_id, event.via)
            state = matchlog.apply_event(state, event.kind, event.payload, author)
        except matchlog.LogInconsistent as exc:
            problems.append(Problem(event.seq, f"replay failed: {exc}"))
            replaying = False
            continue
        if snapshot is not None and event.seq == snapshot.seq:
            at_snapshot = state
        if event.kind == matchlog.MATCH_ENDED:
            outcomes[event.seq] = event.payload
        if event.kind == matchlog.MATCH_STARTED:
            problems += _setup_problems(match, event)
    last_seq = expected_seq - 1
    if match.last_seq != last_seq:
        problems.append(
            Problem(None, f"head of log says seq {match.last_seq}, log ends at {last_seq}")
        )
    if (match.last_hash or "") != (previous if last_seq else ""):
        problems.append(Problem(None, "head of log hash differs from the last event's hash"))
    if replaying:
        if state.due is not None:
            problems.append(Problem(None, f"the log ends owing {state.due}"))
        if match.status != state.status:
            problems.append(Problem(None, f"status {match.status}, the log says {state.status}"))
        problems += _snapshot_problems(match, snapshot, at_snapshot, hashes, last_seq)
    recorded_elsewhere: list[Any] = []
    for _, anchors in verifying.send(sender=Match, match_id=match.pk):
        recorded_elsewhere += anchors or ()
    for anchor in recorded_elsewhere:
        if isinstance(anchor, Anchor) and hashes.get(anchor.seq) != anchor.head_hash:
            problems.append(Problem(anchor.seq, f"the log differs from {anchor.source}"))
    elsewhere = [r for r in recorded_elsewhere if isinstance(r, receipts.Receipt)]
    for receipt in [*stored_receipts, *receipts_given, *elsewhere]:
        problems += _receipt_problems(match, receipt, hashes, outcomes, replaying)
    receipted = {r.body.get("seq") for r in stored_receipts}
    problems += [
        Problem(seq, "the match ended here, and no receipt was stored for it")
        for seq in outcomes
        if seq not in receipted
    ]
    return problems


def _setup_problems(match: Match, started: MatchEvent) -> list[Problem]:
    payload = started.payload
    recorded = (payload["mode"], payload["rules"], payload["format"],
                payload.get("confirmation", "none"))  # fmt: skip
    if recorded != (match.mode, match.rules, match.match_format, match.confirmation):
        return [
            Problem(
                started.seq, "match_started records another mode, rules, format or confirmation"
            )
        ]
    return []


def _snapshot_problems(
    match: Match,
    snapshot: MatchSnapshot | None,
    state: matchlog.MatchState | None,
    hashes: dict[int, str],
    last_seq: int,
) -> list[Problem]:
    """The snapshot's problems: it is the replay's state after its event (at the head, or
    fewer than ``snapshots.SNAPSHOT_EVERY`` events behind it as appends leave it), and its
    digest binds it to this match and that event."""
    if snapshot is None:
        return [Problem(None, "no snapshot for a match with events")] if last_seq else []
    if state is None or snapshot.seq > last_seq:
        return [Problem(None, f"snapshot at seq {snapshot.seq}, log at {last_seq}")]
    if snapshot.state != canonical_json(state.to_json()):
        return [Problem(None, f"snapshot differs from the replay at seq {snapshot.seq}")]
    digest = canonical_digest(match.pk, snapshot.seq, snapshot.head_hash, snapshot.state)
    if snapshot.head_hash != hashes.get(snapshot.seq) or not hmac.compare_digest(
        snapshot.digest, digest
    ):
        return [Problem(None, "snapshot does not prove it belongs to this match and head")]
    return []


def _receipt_problems(
    match: Match,
    receipt: receipts.Receipt,
    hashes: dict[int, str],
    outcomes: dict[int, dict[str, object]],
    replayed: bool,
) -> list[Problem]:
    try:
        body = receipts.verify(receipt, receipts.trusted_public_keys())
    except receipts.ReceiptInvalid as exc:
        return [Problem(None, f"receipt: {exc}")]
    if body["match"] != match.pk:
        return []  # another match's receipt (a file of many): not this match's business
    seq = body["seq"]
    if hashes.get(seq) != body["head_hash"]:
        return [Problem(seq, "the log differs from its signed receipt (head hash)")]
    if replayed and outcomes.get(seq) != body["result"]:
        return [Problem(seq, "the result differs from the signed receipt")]
    return []
