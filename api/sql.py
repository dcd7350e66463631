"""The API's hottest queries, of fixed text, run so that PostgreSQL plans each once.

Django sends every query with its values merged in (client-side binding), so the server
parses and plans it again each time: for the lookup of a stage and its checkpoint, that
planning was most of the server's work of a standings read (0.23 of 0.26 ms, measured with
pgbench). ``rows`` runs a query with its values bound by the server instead (psycopg's
server-side binding), so that psycopg prepares it after a few runs on a connection and the
server keeps its plan (``prepare_threshold``, deploy/settings.py). Behind PgBouncer in
transaction mode preparing is off (it cannot route prepared statements before 1.21) and the
query runs unprepared, as correct. SQLite runs it as any query.

Errors are Django's, as from its own cursors; a query logged (DEBUG, CaptureQueriesContext)
or wrapped (``connection.execute_wrapper``) goes through Django's cursor wrapper.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection
from psycopg import Cursor


def rows(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """Return the rows of ``sql`` (``%s`` placeholders) run with ``params``."""
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return list(cursor.fetchall())
    connection.ensure_connection()
    with Cursor(connection.connection) as raw:
        if connection.queries_logged or connection.execute_wrappers:
            logged = connection.queries_logged
            wrap = connection.make_debug_cursor if logged else connection.make_cursor
            cursor = wrap(raw)  # type: ignore[arg-type]  # a DB-API cursor, as Django's own
            cursor.execute(sql, params)
        else:  # what Django's cursor wrapper does, without its proxying
            connection.validate_no_broken_transaction()
            with connection.wrap_database_errors:
                raw.execute(sql, params)
        return list(raw.fetchall())


__all__ = ["rows"]
