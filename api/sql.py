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

from django.db import DEFAULT_DB_ALIAS, connections
from psycopg import Cursor

from tournaments.rawsql import as_health_check, execute


def rows(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """Return the rows of ``sql`` (a read: ``%s`` placeholders) run with ``params``."""
    # once: ``connection`` looks it up on every attribute; Any: the stubs lack the health check
    db: Any = connections[DEFAULT_DB_ALIAS]
    if db.vendor != "postgresql":
        with db.cursor() as cursor:
            cursor.execute(sql, params)
            return list(cursor.fetchall())
    # A request's first query is one of these reads more often than not: the read itself is
    # the connection's health check (no SELECT 1 before it), run again on a new connection if
    # the server dropped the old one (a read: running it twice is safe).
    return as_health_check(lambda: _run(db, sql, params))


def _run(db: Any, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    db.ensure_connection()
    with Cursor(db.connection) as raw:
        execute(db, raw, sql, params)
        return list(raw.fetchall())


__all__ = ["rows"]
