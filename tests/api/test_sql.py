"""api/sql.py: the API's hottest queries are planned once per connection on PostgreSQL."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from api import sql

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
