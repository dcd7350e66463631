"""The API's hottest queries, of fixed text, run so that PostgreSQL plans each once.

Django sends every query with its values merged in (client-side binding), so the server
parses and plans it again each time: for the lookup of a stage and its checkpoint, that
planning was most of the server's work of a standings read (pgbench, one client: 0.33 ms a
lookup planned each time, 0.10 prepared, of which 0.07 is the round trip). ``rows`` runs a
query with its values bound by the server instead (psycopg's server-side binding), so that
psycopg prepares it after a few runs on a connection and the server keeps its plan
(``prepare_threshold``, deploy/settings.py). Behind PgBouncer in transaction mode preparing
is off (it cannot route prepared statements before 1.21) and the query runs unprepared, as
correct. SQLite runs it as any query.

Errors are Django's, as from its own cursors; a query logged (DEBUG, CaptureQueriesContext)
or wrapped (``connection.execute_wrapper``) goes through Django's cursor wrapper.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, InterfaceError, OperationalError, connections
from psycopg import Cursor


def rows(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """Return the rows of ``sql`` (a read: ``%s`` placeholders) run with ``params``."""
    # once: ``connection`` looks it up on every attribute; Any: the stubs lack the health check
    db: Any = connections[DEFAULT_DB_ALIAS]
    if db.vendor != "postgresql":
        with db.cursor() as cursor:
            cursor.execute(sql, params)
            return list(cursor.fetchall())
    # Django checks a kept connection with a round trip of its own (SELECT 1) before a
    # request's first query. When that first query is one of these reads, outside any
    # transaction, the read itself is the check: on a connection the server dropped it fails
    # at once, and it is run again on a new connection (a read: running it twice is safe).
    retry = (
        db.connection is not None
        and db.health_check_enabled
        and not db.health_check_done
        and not db.in_atomic_block
    )
    db.health_check_done = True
    try:
        return _run(db, sql, params)
    except (OperationalError, InterfaceError):
        if not retry or not (db.connection is None or db.connection.broken):
            raise  # not a dropped connection: the error is the query's
        db.close()
        return _run(db, sql, params)


def _run(db: Any, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    db.ensure_connection()
    with Cursor(db.connection) as raw:
        if db.queries_logged or db.execute_wrappers:
            wrap = db.make_debug_cursor if db.queries_logged else db.make_cursor
            cursor = wrap(raw)  # a DB-API cursor, as Django's own
            cursor.execute(sql, params)
        else:  # what Django's cursor wrapper does, without its proxying
            db.validate_no_broken_transaction()
            with db.wrap_database_errors:
                raw.execute(sql, params)
        return list(raw.fetchall())


__all__ = ["rows"]
