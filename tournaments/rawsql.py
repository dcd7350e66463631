"""Statements sent on psycopg cursors of their own, kept to Django's behaviour.

The store's append (``tournaments.appendsql``) and the API's hottest reads (``api.sql``) run
fixed SQL on psycopg cursors rather than Django's, which would bind on the client or proxy
every call. ``execute`` runs a statement as Django's cursor wrapper would (logged, wrapped,
its errors Django's).

A request's first statement can also be its connection's health check. Django checks a kept
connection (``CONN_HEALTH_CHECKS``) with a round trip of its own before a request's first
query; for a statement that is safe to send twice, the statement itself can be the check
(``as_health_check``): on a connection the server dropped it fails at once, and it is sent
again on a new one. The API's hottest reads and the append's one trip (whose named head
makes a second send write nothing if the first committed) are run so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, InterfaceError, OperationalError, connections

T = TypeVar("T")


def as_health_check(run: Callable[[], T]) -> T:
    """Return ``run()``, its first statement taken for the connection's health check when
    one is due (a request's first, outside any transaction): if it fails on a connection the
    server dropped, the connection is closed and ``run()`` is called again, on a new one.
    Any other error is ``run``'s, raised as it is, and nothing is run twice."""
    db: Any = connections[DEFAULT_DB_ALIAS]  # Any: the stubs lack the health check's fields
    check = (
        db.connection is not None
        and db.health_check_enabled
        and not db.health_check_done
        and not db.in_atomic_block
    )
    db.health_check_done = True
    try:
        return run()
    except (OperationalError, InterfaceError) as exc:
        if not check or not (
            _ended_by_the_server(exc) or db.connection is None or db.connection.broken
        ):
            raise  # not a dropped connection: the error is the statement's
        db.close()
        return run()


def _ended_by_the_server(exc: BaseException) -> bool:
    """Whether ``exc`` is the server ending the session (SQLSTATE class 57P: an operator's
    shutdown or a restart). psycopg may not yet call the connection broken when the
    statement raced the server's ending of it (its answer read before the socket closed),
    though nothing of the statement was committed."""
    state = getattr(exc.__cause__, "sqlstate", None) or getattr(exc, "sqlstate", None)
    return isinstance(state, str) and state.startswith("57P")


def execute(db: Any, raw: Any, sql: str, params: Sequence[Any]) -> None:
    """Execute on the psycopg cursor ``raw`` of ``db`` as Django's cursor wrapper would:
    through it when queries are logged (DEBUG, CaptureQueriesContext) or execute wrappers are
    set; else with its checks and its errors translated to Django's, without its proxying."""
    if db.queries_logged or db.execute_wrappers:
        wrap = db.make_debug_cursor if db.queries_logged else db.make_cursor
        wrap(raw).execute(sql, params)
    else:
        db.validate_no_broken_transaction()
        with db.wrap_database_errors:
            raw.execute(sql, params)


__all__ = ["as_health_check", "execute"]
