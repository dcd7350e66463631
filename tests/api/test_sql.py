"""api/sql.py: the API's hottest queries are planned once per connection on PostgreSQL."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from api import auth, sql
from tests.conftest import dropped_by_the_server

from .conftest import League

pytestmark = pytest.mark.django_db


def prepared() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


@pytest.mark.postgres
def test_a_token_s_reads_are_prepared_after_a_few_runs(league: League) -> None:
    client = league.client(token="a_read")
    path = f"/api/v1/matches/{league.digital.pk}/state/"
    for _ in range(8):
        auth._verified.clear()  # the token read each time, as without Redis (api.auth)
        assert client.get(path).status_code == 200
    statements = prepared()
    assert any("api_apitoken" in s for s in statements), statements  # the token's lookup
    assert any("tournaments_tournament t ON" in s for s in statements), statements  # the match


def test_rows_returns_the_rows_and_is_logged_like_any_query(league: League) -> None:
    with CaptureQueriesContext(connection) as queries:
        found = sql.rows("SELECT id FROM tournaments_match WHERE id = %s", [league.digital.pk])
    assert found == [(league.digital.pk,)]
    assert len(queries) == 1
    assert sql.rows("SELECT id FROM tournaments_match WHERE id = %s", [0]) == []


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_connection_the_server_dropped_is_replaced_before_the_first_query(
    league: League,
) -> None:
    client = league.client(token="a_read")
    path = f"/api/v1/matches/{league.digital.pk}/state/"
    assert client.get(path).status_code == 200
    backend = dropped_by_the_server()
    # A new request re-arms the health check (Django's request_started, which the test
    # client does not send): the first query of this one is the token's, through api/sql.py.
    connection.health_check_done = False
    assert client.get(path).status_code == 200
    assert connection.connection.info.backend_pid != backend


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_read_that_fails_on_a_live_connection_is_not_run_again(league: League) -> None:
    from django.db import OperationalError

    with connection.cursor() as cursor:
        cursor.execute("SET statement_timeout = 50")
    try:
        connection.health_check_done = False  # the request's first query
        with CaptureQueriesContext(connection) as queries, pytest.raises(OperationalError):
            sql.rows("SELECT pg_sleep(%s)", [1])
        assert len(queries) == 1  # the timeout is the query's: no second try
        assert not connection.connection.broken
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET statement_timeout")
