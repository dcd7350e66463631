"""The hash chain over a match's events (docs/events.md): sha256(previous hash + event JSON)."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .models import MatchEvent

GENESIS = "0" * 64


def canonical_json(value: Any) -> str:
    """Return ``value`` as canonical JSON: sorted keys, no spaces, UTF-8 kept as is."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def timestamp(moment: datetime) -> str:
    """Return ``moment`` in ISO 8601 UTC with microseconds, as the chain hashes it."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def event_hash(
    previous: str,
    *,
    seq: int,
    kind: str,
    payload: Any,
    actor: int | None,
    recorded_at: datetime,
    idempotency_key: str | None,
    caused_by: int | None,
    request_digest: str = "",
    via: str = "",
) -> str:
    """Return the hash of one event chained to the previous event's hash.

    A keyed event's ``request_digest`` is part of what is hashed: it decides which retries
    get the original answer, so it must not change unseen. So is ``via``, how the request
    came in, when it is known: it is part of the history.
    """
    fields = {
        "seq": seq,
        "kind": kind,
        "payload": payload,
        "actor": actor,
        "recorded_at": timestamp(recorded_at),
        "idempotency_key": idempotency_key,
        "caused_by": caused_by,
    }
    if request_digest:
        fields["request_digest"] = request_digest
    if via:
        fields["via"] = via
    return hashlib.sha256((previous + canonical_json(fields)).encode()).hexdigest()


def stored_event_hash(previous: str, event: MatchEvent) -> str:
    """Return the hash a stored event must have after ``previous``, recomputed from its row
    (what verifying a log, or trusting a stored request digest, checks its ``hash`` against)."""
    return event_hash(
        previous,
        seq=event.seq,
        kind=event.kind,
        payload=event.payload,
        actor=event.actor_id,
        recorded_at=event.recorded_at,
        idempotency_key=event.idempotency_key,
        caused_by=event.caused_by,
        request_digest=event.request_digest,
        via=event.via,
    )


def request_digest(kind: str, payload: Any, expected_seq: int) -> str:
    """Return the fingerprint of an append request (to tell a retry from a reused key)."""
    body = canonical_json({"kind": kind, "payload": payload, "expected_seq": expected_seq})
    return hashlib.sha256(body.encode()).hexdigest()
