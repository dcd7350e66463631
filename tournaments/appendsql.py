"""The append's fixed SQL: its locked read and its writes, written once, in one or two trips.

``services.match_append_event`` is the store's one hot path, so it does not build its
statements with the ORM on every call (compiling them cost more than running them), and on
PostgreSQL the server does not parse and plan them on every call either. An append makes
two round trips (or one: 3. below). Each of the two is one query string sent by the simple
protocol (psycopg's client-side binding merges the values in), whose statements the server
runs one after another, stopping at the first error; the one trip is one statement:

1. ``read_locked``: ``BEGIN``, then the locked read. On PostgreSQL that is one call of the
   function ``tournaments_append_read`` (migration 0006, which says why functions: PL/pgSQL
   keeps its statements' plans for the connection's life, and PgBouncer can route them; 0007
   added the published flag): the match row ``FOR UPDATE OF`` it alone (not the tournament's
   row, joined for who organizes it and whether it is published, which the API's ``gate``
   decides visibility by, nor whether the actor is among its added directors), then the
   snapshot and the event holding the idempotency key, in statements of their own after the
   lock, so that they read what the last append committed (in READ COMMITTED each statement
   of a VOLATILE function reads what was committed when it starts). The snapshot's state
   comes back only when its digest is not the one the caller names as known (the state this
   process kept from its last write or read of the match: ``snapshots.RecentStates``), so an
   append that follows its own process's last one neither sends nor decodes a few KB of
   JSON.
2. ``write``: the events, the head of the log, the snapshot (an upsert): on PostgreSQL one
   call of ``tournaments_append_write``, the events passed as one JSON array; then the
   receipt when the match ended, and ``COMMIT``. An error in any (a unique violation, a
   trigger) is raised as Django's error, the ``COMMIT`` is not run, and the service's
   transaction rolls back as ever. It returns the row it leaves (``Held``), which the
   service keeps with the state at its head (``snapshots.recent``).
3. ``write_held`` (PostgreSQL): the append in one round trip, without the read. A row held
   is the values the read returned, with the new head, and the digest of all of them but
   the head (migration 0008's ``ROW_DIGEST``). A process whose last append to the match
   left the row held there, with the state at its head, decides the next append on them
   (``services._append_held``) and sends one statement, a call of
   ``tournaments_append_try``, in autocommit when the transaction is the append's own (so
   the statement is its transaction), its values bound by the server and the statement
   prepared by psycopg after a few runs on the connection (``_run_bound``): the server
   parses neither the state's JSON as SQL text nor the statement again, and the client
   quotes nothing. The function locks the row as the read does, checks that its head is
   the one held and, in statements after the lock, that the row's digest and the
   snapshot's are the ones held, that the actor is an added director exactly when the held
   row says so, and that no event holds the idempotency key; then writes as
   ``tournaments_append_write`` does. If any check fails it writes nothing and returns
   false; the row is no longer held (the service forgets it) and the append is made again
   the two-trip way, decided on the row as locked (three trips in all). So another
   process's append, a team reassigned, the tournament renamed or unpublished, a director
   added or removed, a snapshot rebuilt: each costs the next append of a process one trip
   more, and is never decided on. An append that the held row would refuse or answer
   otherwise (a refusal, a stale ``expected_seq``, a start, an end with its receipt) goes
   the two-trip way at once, without the trip.

``BEGIN`` and ``COMMIT`` are in those strings only when the service's transaction is the
outermost one, the one Django begins and commits: psycopg would send a ``BEGIN`` of its own,
in a round trip of its own, so the psycopg connection is put in autocommit for it (a client
flag: nothing is sent; the one trip's statement is then a transaction of its own), and
Django's commit at the end of the atomic block finds the
transaction committed and runs the on-commit hooks. Outside any transaction (a request, a
worker: ``autocommitting``), the service sends the one trip without opening Django's atomic
block at all: the statement is the transaction, and the on-commit hooks run after it, at
once. Nested in a caller's transaction (tests, commands), the statements run in the
caller's transaction and savepoint like any query.

What is held is checked by the server, not trusted: the digest covers every column the
read returns, and the checks run under the lock the write takes, so a held append decides on
what a read under that lock would have returned. Only the score-keepers (read by
``_authorize`` through the ORM, off the common path) are read before the lock rather than
after it, as any unrelated transaction's change may land just before or after an append.

Measured (docs/events.md has the figures): the same statements sent as plain SQL
cost the server about 0.4 ms more per append, parsing and planning them; psycopg's pipeline
mode with server-bound values was no faster than one string. The one trip's single
statement bound by the server and prepared cost the client about 6% fewer instructions and
the server about 15% less CPU than ``BEGIN``, the call with its values quoted in, and
``COMMIT`` as one string; behind PgBouncer (before 1.21 it cannot route prepared
statements: ``prepare_threshold`` is off there) it runs bound but unprepared.

SQLite runs the same steps as separate statements below (no server, so no round trips and
no plans to keep; the write lock is its IMMEDIATE transaction, taken at BEGIN). Both
backends are tested (tests/tournaments/test_appendsql.py, which counts the round trips on
PostgreSQL on the wire, checks that a held row that changed is found out, and that the read
function returns the Match model's fields).
Whatever is off the hot path (rebuilding a snapshot, answering a retry, looking up a
score-keeper or an added director for ``_authorize``) stays with the ORM.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from psycopg import ClientCursor, Cursor, IsolationLevel
from psycopg.pq import TransactionStatus

from . import rawsql
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
    if f.attname in ("id", "slug", "organizer_id", "published")
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
#: the state only when its digest is not the one named as known (NULL: the caller has it)
SNAPSHOT_ROW = (
    "SELECT seq, head_hash, digest, CASE WHEN digest = %s THEN NULL ELSE state END "
    f"FROM {SNAPSHOT} WHERE match_id = %s"
)
KEYED = f"SELECT seq FROM {EVENT} WHERE match_id = %s AND idempotency_key = %s"
TAIL = (
    f"SELECT seq, hash, kind, payload, actor_id, via FROM {EVENT} "
    "WHERE match_id = %s AND seq >= %s ORDER BY seq"
)
#: PostgreSQL: the same reads in one function (migration 0006), a row of the columns of
#: LOCK, then the snapshot's seq, head hash, digest and state, then the keyed seq, the row's
#: digest (0008) and the events from the snapshot's on when it is behind the head (0023)
READ_POSTGRESQL = "SELECT * FROM tournaments_append_read(%s, %s, %s, %s)"
WRITE_POSTGRESQL = "SELECT tournaments_append_write(%s, %s::jsonb, %s, %s, %s, %s, %s::text, %s)"
#: the write, made only if the row, the snapshot, the director flag and the key are as named:
#: one statement, its values bound by the server (so typed here, as the function's signature)
TRY_POSTGRESQL = (
    "SELECT tournaments_append_try(%s::bigint, %s::integer, %s::text, %s::text, %s::text, "
    "%s::boolean, %s::integer, %s::varchar, %s::varchar, %s::jsonb, %s::varchar, "
    "%s::integer, %s::varchar, %s::varchar, %s::text, %s::timestamptz)"
)
INSERT_EVENT = f"INSERT INTO {EVENT} ({', '.join(EVENT_FIELDS)}) VALUES "
EVENT_ROW = f"({', '.join(['%s'] * len(EVENT_FIELDS))})"
UPDATE_HEAD = f"UPDATE {MATCH} SET last_seq = %s, last_hash = %s, status = %s WHERE id = %s"
UPSERT_SNAPSHOT = (
    f"INSERT INTO {SNAPSHOT} (match_id, seq, head_hash, digest, state, updated_at) "
    "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (match_id) DO UPDATE SET "
    "seq = excluded.seq, head_hash = excluded.head_hash, digest = excluded.digest, "
    "state = excluded.state, updated_at = excluded.updated_at"
)
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
    #: the snapshot's (seq, head_hash, digest, state: the canonical JSON stored), or None
    #: when the match has none; its state is None when its digest was the known one
    snapshot: tuple[int, str, str, str | None] | None
    #: the seq of the event that holds the request's idempotency key, or None
    keyed_seq: int | None
    #: the events from the snapshot's own to the head (seq, hash, kind, payload, actor id,
    #: via), read with it when it is behind the head; else None
    tail: list[tuple[Any, ...]] | None = None
    #: read_locked sent the transaction's BEGIN, so write sends its COMMIT
    began: bool = False
    #: PostgreSQL: the row as read, with its digest (what ``write`` holds after it), else None
    held: Held | None = None


@dataclass(frozen=True)
class Writes:
    """What one append writes; ``receipt`` when the match ended."""

    match_id: int
    events: list[MatchEvent]
    status: str
    #: the digest and the state's canonical JSON; None: the snapshot is left as it is
    snapshot: tuple[str, str] | None
    receipt: tuple[dict[str, Any], str, str] | None = None  # body, signature, key id


@dataclass(frozen=True)
class Held:
    """What a process holds of a match's row after its last write of it there (kept with the
    state at its head, ``snapshots.recent``): the values the locked read would return now,
    unless something changed since (PostgreSQL)."""

    row_digest: str
    match_values: tuple[Any, ...]  # MATCH_FIELDS' values, the JSON ones decoded
    tournament_values: tuple[Any, ...]  # TOURNAMENT_FIELDS' values
    #: the actor the last read was made for, and whether it is among the added directors
    actor_id: int | None
    listed_director: bool

    def match(self) -> Match:
        """A new Match of the values held, its tournament attached, as the read builds it."""
        return _match(_db(), list(self.match_values), self.tournament_values)

    def listed(self, actor_id: int | None) -> bool:
        """Whether ``actor_id`` is taken to be an added director (checked by the write)."""
        return self.listed_director if actor_id == self.actor_id else False


@dataclass(frozen=True)
class Guard:
    """What ``write_held`` asks the server to find under the lock before it writes: what the
    append was decided on (the row held, the snapshot's digest, whether the actor is taken
    for an added director) and the key that no event may hold yet."""

    held: Held
    actor_id: int | None
    key: str | None
    snapshot_digest: str
    listed: bool


def _db() -> Any:
    """Return the default connection's wrapper, looked up once (``connection`` is a proxy
    that looks it up again on every attribute: a few microseconds, many times an append)."""
    return connections[DEFAULT_DB_ALIAS]


def _run_sqlite(db: Any, statements: list[tuple[str, Sequence[Any]]]) -> list[Any]:
    """Run ``statements`` one by one (SQLite); return each one's rows (None: it returns none)."""
    results: list[list[tuple[Any, ...]] | None] = []
    with db.cursor() as cursor:
        for sql, params in statements:
            cursor.execute(sql, params)
            results.append(cursor.fetchall() if cursor.description is not None else None)
    return results


def _run_postgresql(
    db: Any, statements: list[tuple[str, Sequence[Any]]], rows_of: int = -1
) -> list[Any] | None:
    """Send ``statements`` as one query string, one round trip; return the rows of the one at
    index ``rows_of`` (the last by default; None if it returns none).

    A client-side-binding cursor (psycopg's ``ClientCursor``, whatever cursor the connection
    is set to make) merges the values in and sends them by the simple protocol, which runs
    them one after another, each reading what was committed when it starts, and stops at the
    first error (raised as Django's error). The connection is the one ``read_locked``
    checked and opened.
    """
    sql = "; ".join(sql for sql, _ in statements)
    params = [v for _, p in statements for v in p]
    wanted = rows_of % len(statements)
    with ClientCursor(db.connection) as raw:
        rawsql.execute(db, raw, sql, params)
        for _ in range(wanted):
            raw.nextset()
        result = raw.pgresult
        return raw.fetchall() if result is not None and result.nfields else None


def _begin_here(db: Any, statements: list[tuple[str, Sequence[Any]]]) -> bool:
    """PostgreSQL: open the connection (checked once for the append's trips, as Django's own
    cursors do); if the append's transaction is the outermost one and not yet begun, put its
    ``BEGIN`` first in ``statements`` and return True (the module's doc)."""
    if not _own_transaction(db):
        return False
    statements.append((_begin(db.connection), ()))
    return True


def _own_transaction(db: Any) -> bool:
    """PostgreSQL: open the connection (checked once, as Django's own cursors do); if the
    append's transaction is the outermost one and not yet begun, put the psycopg connection
    in autocommit (a client flag: the append sends its own BEGIN, or is one statement) and
    return True."""
    db.close_if_health_check_failed()
    db.ensure_connection()
    if not _outermost(db):
        return False
    raw = db.connection
    if raw.info.transaction_status != TransactionStatus.IDLE:
        return False
    raw.autocommit = True
    return True


def _begin(raw: Any) -> str:
    """Return the BEGIN psycopg would send, with the connection's isolation level if set."""
    if raw.isolation_level is None:
        return "BEGIN"
    return f"BEGIN ISOLATION LEVEL {IsolationLevel(raw.isolation_level).name.replace('_', ' ')}"


def read_locked(
    match_id: int, actor_id: int | None, key: str | None, known_digest: str | None = None
) -> Locked | None:
    """Lock the match's row and read what the append needs; None if there is no such match.

    ``known_digest``: the digest of a snapshot whose state the caller holds; if the row's
    digest is that one, its state is not sent (``Locked.snapshot`` holds None for it).
    Call inside the append's transaction: the lock is held until it ends.
    """
    db = _db()
    statements: list[tuple[str, Sequence[Any]]] = []
    postgresql = db.vendor == "postgresql"
    began = postgresql and _begin_here(db, statements)
    if postgresql:
        statements.append((READ_POSTGRESQL, (match_id, actor_id, key, known_digest)))
        rows = _run_postgresql(db, statements)
        if not rows:
            return None
        row = rows[0]
        snapshot_at = len(MATCH_FIELDS) + len(TOURNAMENT_FIELDS) + 1
        snapshot_row = row[snapshot_at : snapshot_at + 4]
        keyed, row_digest, tail = row[snapshot_at + 4 : snapshot_at + 7]
        locked = _locked(
            db,
            row,
            snapshot_row if snapshot_row[0] is not None else None,
            keyed,
            began=began,
            digest_of=(row_digest, actor_id),
            tail=None if tail is None else [tuple(event) for event in _json(tail)],
        )
        return locked
    statements.append((LOCK, (actor_id, match_id)))
    statements.append((SNAPSHOT_ROW, (known_digest, match_id)))
    if key is not None:
        statements.append((KEYED, (match_id, key)))
    results = _run_sqlite(db, statements)
    rows, snapshots = results[0], results[1]
    if not rows:
        return None
    keyed_rows = results[2] if key is not None else None
    snapshot_row = snapshots[0] if snapshots else None
    tail = None
    if snapshot_row is not None and snapshot_row[0] < rows[0][MATCH_FIELDS.index("last_seq")]:
        found = _run_sqlite(db, [(TAIL, (match_id, snapshot_row[0]))])[0]
        tail = [
            (seq, hash_, kind, _json(payload), *rest) for seq, hash_, kind, payload, *rest in found
        ]
    return _locked(
        db,
        rows[0],
        snapshot_row,
        keyed_rows[0][0] if keyed_rows else None,
        began=False,
        tail=tail,
    )


def _locked(
    db: Any,
    row: Sequence[Any],
    snapshot_row: Sequence[Any] | None,
    keyed: Any,
    *,
    began: bool,
    digest_of: tuple[str, int | None] | None = None,
    tail: list[tuple[Any, ...]] | None = None,
) -> Locked:
    """Return the ``Locked`` of a read's row: the match's, its tournament's, then the rest.

    ``digest_of``: the row's digest and the actor it was read for (PostgreSQL): ``held``.
    """
    fields, tournament_fields = len(MATCH_FIELDS), len(TOURNAMENT_FIELDS)
    values = list(row[:fields])
    for index in MATCH_JSON:
        values[index] = _json(values[index])
    tournament_values = tuple(row[fields : fields + tournament_fields])
    match = _match(db, values, tournament_values)
    listed = bool(row[fields + tournament_fields])
    kept = None
    if digest_of is not None:
        kept = Held(digest_of[0], tuple(values), tournament_values, digest_of[1], listed)
    snapshot = None
    if snapshot_row is not None:
        seq, head_hash, digest, state = snapshot_row
        snapshot = (int(seq), head_hash, digest, state)
    return Locked(
        match=match,
        listed_director=listed,
        snapshot=snapshot,
        keyed_seq=None if keyed is None else int(keyed),
        tail=tail,
        began=began,
        held=kept,
    )


def _match(db: Any, values: list[Any], tournament_values: Sequence[Any]) -> Match:
    match = Match.from_db(db.alias, MATCH_FIELDS, values)
    match.tournament = Tournament.from_db(db.alias, TOURNAMENT_FIELDS, tournament_values)
    return match


def write(writes: Writes, *, commit: bool, base: Held | None = None) -> Held | None:
    """Write an append's events, head, snapshot (and receipt); ``commit``: and COMMIT, at once.

    Call after ``read_locked``, in its transaction (it holds the lock, and it opened the
    connection): ``commit`` is its ``Locked.began`` (the transaction is the one it began),
    ``base`` its ``Locked.held``, the row it read. Returns the row the write leaves, to hold
    (None on SQLite).
    """
    db = _db()
    ops = db.ops
    last = writes.events[-1]
    now = ops.adapt_datetimefield_value(last.recorded_at)
    statements: list[tuple[str, Sequence[Any]]]
    postgresql = db.vendor == "postgresql"
    if postgresql:
        statements = [
            (
                WRITE_POSTGRESQL,
                (writes.match_id, *_write_arguments(writes, now)),
            )
        ]
    else:
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
        statements = [
            (INSERT_EVENT + ", ".join([EVENT_ROW] * len(writes.events)), rows),
            (UPDATE_HEAD, (last.seq, last.hash, writes.status, writes.match_id)),
        ]
        if writes.snapshot is not None:
            digest, state = writes.snapshot
            statements.append(
                (UPSERT_SNAPSHOT, (writes.match_id, last.seq, last.hash, digest, state, now))
            )
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
    if not postgresql:
        _run_sqlite(db, statements)
        return None
    _run_postgresql(db, statements)
    return None if base is None else _held_after(writes, base)


def write_held(writes: Writes, guard: Guard) -> Held | None:
    """Append in one round trip on the row held (PostgreSQL), if it still holds; no read first.

    Inside the append's transaction, with no ``read_locked`` before: one trip begins the
    transaction (when it is the outermost one, as ``read_locked`` would), calls
    ``tournaments_append_try`` (migration 0008), which locks the row and writes only if the
    row, the snapshot, the director flag and the idempotency key are as ``guard`` says the
    append was decided on, and commits. Returns the row the write leaves, to hold; None if it
    did not write (nothing was: the caller appends the two-trip way). Writes no receipt.
    """
    if writes.receipt is not None:
        raise ValueError("an append that ends its match writes its receipt the two-trip way")
    db = _db()
    last = writes.events[-1]
    # One statement: in autocommit when the transaction is the append's own, so that it is
    # its own transaction, begun and committed with it; else in the caller's.
    _own_transaction(db)
    held_row = guard.held
    params = (
        writes.match_id,
        guard.actor_id,
        guard.key,
        held_row.row_digest,
        guard.snapshot_digest,
        guard.listed,
        *(held_row.match_values[at] for at in _HEAD_AT),
        *_write_arguments(writes, last.recorded_at),
    )
    found = _run_bound(db, TRY_POSTGRESQL, params)
    return _held_after(writes, held_row) if found[0][0] else None


def _run_bound(db: Any, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """Run one statement with its values bound by the server (psycopg's ``Cursor``, by the
    extended protocol, one round trip): psycopg prepares it after a few runs on the
    connection (``prepare_threshold``, deploy/settings.py; off behind PgBouncer), so the
    server neither parses the values' text as SQL nor parses and plans the statement again.
    Errors are Django's; a statement logged or wrapped goes through Django's cursor wrapper."""
    with Cursor(db.connection) as raw:
        rawsql.execute(db, raw, sql, params)
        return raw.fetchall()


def _write_arguments(writes: Writes, now: Any) -> tuple[Any, ...]:
    """The arguments of ``tournaments_append_write`` after the match's id (and the last ones
    of ``tournaments_append_try``): the events, the status, the head, the snapshot (NULLs:
    left as it is, migration 0023), the time."""
    last = writes.events[-1]
    digest, state = (None, None) if writes.snapshot is None else writes.snapshot
    return (_events_json(writes.events), writes.status, last.seq, last.hash, digest, state, now)


def _events_json(events: list[MatchEvent]) -> str:
    """The events' columns as the write functions take them: one JSON array."""
    return json.dumps(
        [
            {
                "seq": event.seq,
                "kind": event.kind,
                "payload": event.payload,
                "actor_id": event.actor_id,
                "recorded_at": event.recorded_at.isoformat(),
                "idempotency_key": event.idempotency_key,
                "request_digest": event.request_digest,
                "caused_by": event.caused_by,
                "via": event.via,
                "hash": event.hash,
            }
            for event in events
        ],
        separators=(",", ":"),
    )


#: where the head's columns are among a held row's values
_HEAD_AT = tuple(MATCH_FIELDS.index(name) for name in ("last_seq", "last_hash", "status"))


def _held_after(writes: Writes, base: Held) -> Held:
    """The row a write left: ``base`` with the new head (the digest, of the rest of the row,
    is the same)."""
    last = writes.events[-1]
    values = list(base.match_values)
    for at, value in zip(_HEAD_AT, (last.seq, last.hash, writes.status), strict=True):
        values[at] = value
    return Held(
        base.row_digest, tuple(values), base.tournament_values, base.actor_id,
        base.listed_director,
    )  # fmt: skip


def autocommitting() -> bool:
    """Whether a statement sent now is a transaction of its own (PostgreSQL, outside any
    atomic block, in Django's autocommit): then the one trip (``write_held``) needs no
    transaction around it. Opens the connection if there is none (not checked: the caller
    takes its statement for the check, ``rawsql.as_health_check``)."""
    db = _db()
    if db.vendor != "postgresql" or db.in_atomic_block:
        return False
    if db.connection is None:
        db.ensure_connection()
    return bool(db.autocommit and db.connection.autocommit)


def _outermost(db: Any) -> bool:
    return (
        db.in_atomic_block
        and db.commit_on_exit
        and len(db.atomic_blocks) == 1
        and not db.needs_rollback
    )


def _json(value: Any) -> Any:
    """Return a JSON column's value as the ORM would (the backends hand back its text)."""
    return json.loads(value) if isinstance(value, str | bytes) else value


__all__ = [
    "Guard",
    "Held",
    "Locked",
    "Writes",
    "autocommitting",
    "read_locked",
    "write",
    "write_held",
]
