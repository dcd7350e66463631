"""A process remembers the tokens it verified, and forgets them whenever a token or a user
changes, in any process (api.auth): with the cache in Redis, where the mark lives."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.throttling import SimpleRateThrottle

from api import auth
from api.models import ApiToken
from tests.scoring.helpers import committed
from tests.test_cache import cache_at

from .conftest import League, _build_league

pytestmark = [pytest.mark.django_db, pytest.mark.redis]


@pytest.fixture
def league(db: None) -> League:
    """The league built afresh for each test, not once a module (tests/shared.py): these
    tests count the token table's queries on the connection, and with one build shared by
    the module, CI on PostgreSQL captured queries that named no SQL (order-dependent)."""
    return _build_league()


@pytest.fixture
def redis_cache(settings: Any) -> Iterator[None]:
    """The cache in Redis under a key prefix of this test's own (its own mark), and nothing
    remembered from another test."""
    settings.CACHES = cache_at(os.environ["REDIS_URL"])
    auth._verified.clear()
    yield
    auth._verified.clear()


@pytest.fixture
def reader(league: League, redis_cache: None) -> Any:
    """A client with the read token, which its first request has this process remember."""
    client = league.client(token="a_read")
    assert token_queries(client) == (200, 1)
    return client


def token_queries(client: Any, url: str = "/api/v1/tournaments/") -> tuple[int, int]:
    """The response's status, and how many of its queries read the token table."""
    with CaptureQueriesContext(connection) as queries:
        status = client.get(url).status_code
    table = ApiToken._meta.db_table
    return status, sum(table in q["sql"] for q in queries.captured_queries)


def another_process_renews_the_mark() -> None:
    """What forget_tokens does in another process once its change commits: a new mark."""
    assert cache.renew_mark(auth.MARK, "another-process")  # type: ignore[attr-defined]


def test_a_token_verified_once_is_not_read_again_while_its_mark_stands(reader: Any) -> None:
    assert token_queries(reader) == (200, 0)
    another_process_renews_the_mark()
    assert token_queries(reader) == (200, 1)  # verified again, and remembered with the new mark
    assert token_queries(reader) == (200, 0)


def test_a_token_deleted_in_another_process_is_refused_from_its_next_request(reader: Any) -> None:
    # by SQL: this process sees no signal, as if another one had deleted it
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {ApiToken._meta.db_table} WHERE name = 'a_read'")
    another_process_renews_the_mark()
    assert reader.get("/api/v1/tournaments/").status_code == 401


def test_a_token_revoked_or_a_user_deactivated_here_is_refused_at_once(
    league: League, redis_cache: None
) -> None:
    reader, writer = league.client(token="a_read"), league.client(token="a_write")
    assert token_queries(reader) == (200, 1) and token_queries(writer) == (200, 1)
    with committed():
        ApiToken.objects.get(name="a_read").delete()
    assert reader.get("/api/v1/tournaments/").status_code == 401
    owner = league.users["organizer_a"]
    owner.is_active = False
    with committed():
        owner.save()
    assert writer.get("/api/v1/tournaments/").status_code == 401  # knox: the user is inactive


def test_the_mark_is_renewed_only_once_the_change_commits(
    league: League, redis_cache: None
) -> None:
    marks = []
    with committed():
        marks.append(cache.mark(auth.MARK, "first"))  # type: ignore[attr-defined]
        ApiToken.objects.get(name="a_read").delete()
        marks.append(cache.mark(auth.MARK, "unused"))  # type: ignore[attr-defined]
    marks.append(cache.mark(auth.MARK, "unused"))  # type: ignore[attr-defined]
    assert marks[0] == marks[1] == "first" and marks[2] not in ("first", "unused")


def test_a_sign_in_does_not_make_every_process_forget_its_tokens(
    league: League, reader: Any
) -> None:
    with committed():  # what django.contrib.auth saves at a sign-in
        owner = league.users["organizer_a"]
        owner.last_login = timezone.now()
        owner.save(update_fields=["last_login"])
    assert token_queries(reader) == (200, 0)


def test_a_remembered_token_that_expires_is_refused_and_deleted(reader: Any) -> None:
    later = timezone.now() + timedelta(days=2)  # the token was made to live a day
    with mock.patch("api.auth.timezone.now", return_value=later):
        assert reader.get("/api/v1/tournaments/").status_code == 401
    assert not ApiToken.objects.filter(name="a_read").exists()


def test_a_token_remembered_too_long_is_verified_again(reader: Any) -> None:
    later = auth.time.monotonic() + auth.KEEP_SECONDS + 1
    with mock.patch("api.auth.time.monotonic", return_value=later):
        assert token_queries(reader) == (200, 1)


def test_a_remembered_token_is_counted_once_for_its_rate_in_the_same_round_trip(
    league: League, redis_cache: None, settings: Any
) -> None:
    from rest_framework.settings import api_settings

    from api.throttling import RateThrottle

    rates = {**api_settings.DEFAULT_THROTTLE_RATES, "token": "3/min"}
    with mock.patch.object(RateThrottle, "THROTTLE_RATES", rates):
        reader = league.client(token="a_read")
        answers = [reader.get("/api/v1/tournaments/").status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]  # the last three remembered: counted once each


def test_with_redis_down_every_token_is_verified_in_the_database(
    league: League, settings: Any
) -> None:
    from tests.test_cache import DOWN

    settings.CACHES = cache_at(DOWN)
    auth._verified.clear()
    reader = league.client(token="a_read")
    assert [token_queries(reader) for _ in range(2)] == [(200, 1), (200, 1)]
    assert auth._verified == {}


def test_a_remembered_team_token_is_counted_with_its_makers_other_team_tokens(
    league: League, redis_cache: None
) -> None:
    rates = {**SimpleRateThrottle.THROTTLE_RATES, "token": "4/min"}
    director = league.client("organizer_a")
    teams = league.teams_a[:2]
    readers = []
    for team in teams:
        made = director.post(f"/api/v1/teams/{team.pk}/token/", {}, format="json")
        readers.append(league.client())
        readers[-1].credentials(HTTP_AUTHORIZATION=f"Bearer {made.json()['token']}")
    start = 1_800_000_000.0 + 10  # ten seconds into a minute: every request in one window
    with (
        mock.patch.object(SimpleRateThrottle, "THROTTLE_RATES", rates),
        mock.patch("api.throttling.time.time", return_value=start),
    ):
        # the first request of each verifies it in the database, the next one is remembered
        assert [token_queries(r) for r in readers] == [(200, 1), (200, 1)]
        assert [token_queries(r) for r in readers] == [(200, 0), (200, 0)]
        assert token_queries(readers[0]) == (429, 0)  # four in all: the rate of one token
