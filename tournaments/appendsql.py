"""The append's fixed SQL: its locked read and its writes, written once, in two round trips.

``services.match_append_event`` is the store's one hot path, so it does not build its
statements with the ORM on every call (compiling them cost more than running them). The
statements below are composed once, at import, from the models' own table and column names;
each append only binds values. On PostgreSQL each of the two steps is one query string sent
by the simple protocol (psycopg's client-side binding merges the values in), so one round
trip, whose statements the server runs one after another and stops at the first error:

1. ``read_locked``: ``BEGIN``, the match row ``FOR UPDATE OF`` it alone (not the tournament's
   row, joined for who organizes it, nor whether the actor is among its added directors),
   then the snapshot and the event holding the idempotency key. Those two are statements of
   their own, after the lock: in READ COMMITTED each statement reads what was committed when
   it starts, so they see the last append's commit, which a join in the locking statement
   would not (it would read the rows as they were before it waited for the lock).
2. ``write``: the events (one multi-row ``INSERT``), the head of the log, the snapshot (an
   upsert), the receipt when the match ended, and ``COMMIT``. An error in any (a unique
   violation, a trigger) is raised as Django's error, the ``COMMIT`` is not run, and the
   service's transaction rolls back as ever.

``BEGIN`` and ``COMMIT`` are in those strings only when the service's transaction is the
outermost one, the one Django begins and commits: psycopg would send a ``BEGIN`` of its own,
in a round trip of its own, so the psycopg connection is put in autocommit for it (a client
flag: nothing is sent), and Django's commit at the end of the atomic block finds the
transaction committed and runs the on-commit hooks. Nested in a caller's transaction (tests,
commands), the statements run in the caller's transaction and savepoint like any query.

Measured against the alternative, psycopg's pipeline mode with the values bound by the server
(each statement sent apart, the answers read at the sync), in the same process, alternating:
no less time on either side, client or server. No statement is prepared: Django leaves
psycopg's automatic preparation off (PgBouncer before 1.21 cannot route prepared statements),
and a multi-statement string cannot be prepared anyway.

SQLite runs the same statements one by one (no server, so no round trips; the write lock is
its IMMEDIATE transaction, taken at BEGIN). Both backends are tested
(tests/tournaments/test_appendsql.py, which counts the round trips on PostgreSQL on the wire).
Whatever is off the hot path (rebuilding a snapshot, answering a retry, looking up a
score-keeper or an added director for ``_authorize``) stays with the ORM.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection
from psycopg import ClientCursor, IsolationLevel
from psycopg.pq import TransactionStatus

from .models import Match, MatchEvent, MatchReceipt, MatchSnapshot, Tournament

MATCH = Match._meta.db_table
TOURNAMENT = Tournament._meta.db_table
DIRECTORS = Tournament.directors.through._meta.db_table
EVENT = MatchEvent._meta.db_table
SNAPSHOT = MatchSnapshot._meta.db_table
RECEIPT = MatchReceipt._meta.db_table

#: the fields read, in the models' order (Model.from_db's); the rest stay deferred (unused)
MATCH_FIELDS = tuple(f.attname for f in Match._meta.concrete_fields if f.name != "created_at")
MATCH_JSON = tuple(MATCH_FIELDS.index(name) for name in ("rules", "match_format"))
TOURNAMENT_FIELDS = tuple(
    f.attname
    for f in Tournament._meta.concrete_fields
    if f.attname in ("id", "slug", "organizer_id")
)
EVENT_FIELDS = (
    "match_id",
    "seq",
    "kind",
    "payload",
    "actor_id",
    "recorded_at",
    "idempotency_key",
    "request_digest",
    "caused_by",
    "via",
    "hash",
)

LOCK = (
    f"SELECT {', '.join(f'm.{name}' for name in MATCH_FIELDS)}, "
    f"{', '.join(f't.{name}' for name in TOURNAMENT_FIELDS)}, "
    f"EXISTS (SELECT 1 FROM {DIRECTORS} d WHERE d.tournament_id = m.tournament_id "
    f"AND d.user_id = %s) "
    f"FROM {MATCH} m JOIN {TOURNAMENT} t ON t.id = m.tournament_id WHERE m.id = %s"
)
LOCK_POSTGRESQL = LOCK + " FOR UPDATE OF m"
SNAPSHOT_ROW = f"SELECT seq, head_hash, digest, state FROM {SNAPSHOT} WHERE match_id = %s"
KEYED = f"SELECT seq FROM {EVENT} WHERE match_id = %s AND idempotency_key = %s"
INSERT_EVENT = f"INSERT INTO {EVENT} ({', '.join(EVENT_FIELDS)}) VALUES "
EVENT_ROW = f"({', '.join(['%s'] * len(EVENT_FIELDS))})"
UPDATE_HEAD = f"UPDATE {MATCH} SET last_seq = %s, last_hash = %s, status = %s WHERE id = %s"
UPSERT_SNAPSHOT = (  # {json}: the state comes as JSON text (jsonb on PostgreSQL)
    f"INSERT INTO {SNAPSHOT} (match_id, seq, head_hash, digest, state, updated_at) "
    "VALUES (%s, %s, %s, %s, {json}, %s) ON CONFLICT (match_id) DO UPDATE SET "
    "seq = excluded.seq, head_hash = excluded.head_hash, digest = excluded.digest, "
    "state = excluded.state, updated_at = excluded.updated_at"
)
UPSERT_SNAPSHOT_POSTGRESQL = UPSERT_SNAPSHOT.replace("{json}", "%s::jsonb")
UPSERT_SNAPSHOT = UPSERT_SNAPSHOT.replace("{json}", "%s")
INSERT_RECEIPT = (
    f"INSERT INTO {RECEIPT} (match_id, seq, body, signature, key_id, issued_at) "
    "VALUES (%s, %s, %s, %s, %s, %s)"
)


@dataclass(frozen=True)
class Locked:
    """What the locked read found: the match (its tournament attached), and the rest."""

    match: Match
    #: whether the actor is among the tournament's added directors (not: the organizer)
    listed_director: bool
    #: the snapshot's (seq, head_hash, digest, state as stored: ``decoded`` decodes it),
    #: or None when the match has none
    snapshot: tuple[int, str, str, Any] | None
    #: the seq of the event that holds the request's idempotency key, or None
    keyed_seq: int | None
    #: read_locked sent the transaction's BEGIN, so write sends its COMMIT
    began: bool = False


@dataclass(frozen=True)
class Writes:
    """What one append writes; ``receipt`` when the match ended."""

    match_id: int
    events: list[MatchEvent]
    status: str
    snapshot: tuple[str, str]  # the digest and the state's canonical JSON
    receipt: tuple[dict[str, Any], str, str] | None = None  # body, signature, key id


def _on_postgresql() -> bool:
    return connection.vendor == "postgresql"


def _run(statements: list[tuple[str, Sequence[Any]]]) -> list[list[tuple[Any, ...]] | None]:
    """Run ``statements`` in order; return each one's rows (None for one that returns none).

    On PostgreSQL they go as one query string, one round trip: a client-side-binding cursor
    (psycopg's ``ClientCursor``, whatever cursor the connection is set to make) merges the
    values in and sends them by the simple protocol, which runs them one after another, each
    reading what was committed when it starts, and stops at the first error. SQLite takes one
    statement at a time.
    """
    if not _on_postgresql():
        results: list[list[tuple[Any, ...]] | None] = []
        with connection.cursor() as cursor:
            for sql, params in statements:
                cursor.execute(sql, params)
                results.append(cursor.fetchall() if cursor.description is not None else None)
        return results
    connection.ensure_connection()
    raw = ClientCursor(connection.connection)
    # Wrapped as Django wraps its own cursors: errors become Django's, queries are logged
    # when they are (DEBUG, CaptureQueriesContext).
    wrap = connection.make_debug_cursor if connection.queries_logged else connection.make_cursor
    with wrap(raw) as cursor:  # type: ignore[arg-type]  # a DB-API cursor, as Django's own
        cursor.execute(
            "; ".join(sql for sql, _ in statements), [v for _, p in statements for v in p]
        )
        results = []
        for _ in statements:
            results.append(cursor.fetchall() if cursor.description is not None else None)
            cursor.nextset()
        return results


def _begin(raw: Any) -> str:
    """Return the BEGIN psycopg would send, with the connection's isolation level if set."""
    if raw.isolation_level is None:
        return "BEGIN"
    return f"BEGIN ISOLATION LEVEL {IsolationLevel(raw.isolation_level).name.replace('_', ' ')}"


def read_locked(match_id: int, actor_id: int | None, key: str | None) -> Locked | None:
    """Lock the match's row and read what the append needs; None if there is no such match.

    Call inside the append's transaction: the lock is held until it ends.
    """
    statements: list[tuple[str, Sequence[Any]]] = []
    began = _on_postgresql() and outermost_transaction()
    if began:
        connection.ensure_connection()
        raw = connection.connection
        began = raw.info.transaction_status == TransactionStatus.IDLE
        if began:
            raw.autocommit = True  # the BEGIN is ours, in the same trip (the module's doc)
            statements.append((_begin(raw), ()))
    statements.append((LOCK_POSTGRESQL if _on_postgresql() else LOCK, (actor_id, match_id)))
    statements.append((SNAPSHOT_ROW, (match_id,)))
    if key is not None:
        statements.append((KEYED, (match_id, key)))
    results = _run(statements)[1 if began else 0 :]
    rows, snapshots, keyed = results[0], results[1], results[2] if key is not None else None
    if not rows:
        return None
    row = rows[0]
    fields, tournament_fields = len(MATCH_FIELDS), len(TOURNAMENT_FIELDS)
    values = list(row[:fields])
    for index in MATCH_JSON:
        values[index] = _json(values[index])
    match = Match.from_db(connection.alias, MATCH_FIELDS, values)
    match.tournament = Tournament.from_db(
        connection.alias, TOURNAMENT_FIELDS, row[fields : fields + tournament_fields]
    )
    snapshot = None
    if snapshots:
        seq, head_hash, digest, state = snapshots[0]
        snapshot = (int(seq), head_hash, digest, state)
    return Locked(
        match=match,
        listed_director=bool(row[fields + tournament_fields]),
        snapshot=snapshot,
        keyed_seq=int(keyed[0][0]) if keyed else None,
        began=began,
    )


def write(writes: Writes, *, commit: bool) -> None:
    """Write an append's events, head, snapshot (and receipt); ``commit``: and COMMIT, at once.

    ``commit`` is ``Locked.began``: the transaction is the one ``read_locked`` began.
    """
    ops = connection.ops
    last = writes.events[-1]
    rows: list[Any] = []
    for event in writes.events:
        rows.extend(
            (
                writes.match_id,
                event.seq,
                event.kind,
                ops.adapt_json_value(event.payload, None),
                event.actor_id,
                ops.adapt_datetimefield_value(event.recorded_at),
                event.idempotency_key,
                event.request_digest,
                event.caused_by,
                event.via,
                event.hash,
            )
        )
    now = ops.adapt_datetimefield_value(last.recorded_at)
    digest, state = writes.snapshot
    statements: list[tuple[str, Sequence[Any]]] = [
        (INSERT_EVENT + ", ".join([EVENT_ROW] * len(writes.events)), rows),
        (UPDATE_HEAD, (last.seq, last.hash, writes.status, writes.match_id)),
        (
            UPSERT_SNAPSHOT_POSTGRESQL if _on_postgresql() else UPSERT_SNAPSHOT,
            (writes.match_id, last.seq, last.hash, digest, state, now),
        ),
    ]
    if writes.receipt is not None:
        body, signature, key_id = writes.receipt
        statements.append(
            (
                INSERT_RECEIPT,
                (
                    writes.match_id,
                    last.seq,
                    ops.adapt_json_value(body, None),
                    signature,
                    key_id,
                    now,
                ),
            )
        )
    if commit:
        statements.append(("COMMIT", ()))
    _run(statements)


def outermost_transaction() -> bool:
    """Return whether the atomic block running now is the outermost, the one that commits."""
    return (
        connection.in_atomic_block
        and connection.commit_on_exit
        and len(connection.atomic_blocks) == 1
        and not connection.needs_rollback
    )


def decoded(snapshot: tuple[int, str, str, Any] | None) -> tuple[int, str, str, Any] | None:
    """Return a ``Locked.snapshot`` with its state decoded from JSON (None stays None)."""
    if snapshot is None:
        return None
    seq, head_hash, digest, state = snapshot
    return seq, head_hash, digest, _json(state)


def _json(value: Any) -> Any:
    """Return a JSON column's value as the ORM would (the backends hand back its text)."""
    return json.loads(value) if isinstance(value, str | bytes) else value


__all__ = ["Locked", "Writes", "decoded", "outermost_transaction", "read_locked", "write"]
