"""The OpenAPI schema is the contract: it validates, and the running API keeps it.

schemathesis generates requests for every operation from the schema (valid and invalid ones,
as a director's token, as a read-only token and anonymously) and checks each answer: never a
5xx, a status and a body the schema declares, problem+json for errors.
"""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.core.management import call_command
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance

from deploy.wsgi import application

from .conftest import League

#: the contract checked operation by operation, caller by caller (minutes of examples), and
#: the schema validated: not in the fast tier; make check does not even collect this module
#: (its examples are made at collection, about 12 s a process)
pytestmark = pytest.mark.slow

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)


def test_the_schema_validates() -> None:
    out = StringIO()
    call_command("spectacular", "--validate", "--fail-on-warn", stdout=out)
    assert "openapi: 3.1.0" in out.getvalue()


@pytest.fixture
def connection_kept_open() -> Any:
    # schemathesis calls the WSGI application itself, not through Django's test client, so
    # each request's end would close the test's database connection (it is inside the test's
    # transaction, not in autocommit) and the next request of the same example would fail.
    # The test client disconnects the same receivers for the same reason.
    for signal in (signals.request_started, signals.request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (signals.request_started, signals.request_finished):
        signal.connect(close_old_connections)


@pytest.mark.django_db
@pytest.mark.usefixtures("connection_kept_open")
@schema.parametrize()
@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.filter_too_much])  # fmt: skip
@pytest.mark.parametrize("caller", ["a_write", "a_read", None])
def test_every_operation_keeps_the_contract(case: Any, league: League, caller: str | None) -> None:
    headers = {} if caller is None else {"Authorization": f"Bearer {league.tokens[caller]}"}
    # Not checked: that every schema-valid body is accepted. A body may name a tournament or a
    # user that does not exist, which no schema can say; that is refused with a 400.
    case.call_and_validate(headers=headers, excluded_checks=[positive_data_acceptance])
