"""Rate limits: each caller counted in one scope, in fixed windows, a 429 with Retry-After."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from django.core.cache import cache
from rest_framework.throttling import SimpleRateThrottle

from tests.api.conftest import League
from tests.api.test_errors import assert_problem

RATES = {"anon": "3/min", "token": "3/min", "user": "3/min"}


@pytest.fixture
def low_rates(fresh_cache: None) -> Iterator[None]:
    with mock.patch.object(SimpleRateThrottle, "THROTTLE_RATES", RATES):
        yield


def codes(client: Any, n: int) -> list[int]:
    return [client.get("/api/v1/tournaments/").status_code for _ in range(n)]


def test_each_caller_is_counted_apart_in_the_scope_that_applies(
    league: League, low_rates: None
) -> None:
    assert codes(league.client(token="a_read"), 4) == [200, 200, 200, 429]
    # another token of the same user, the user's browser session, an anonymous caller
    assert codes(league.client(token="a_write"), 3) == [200, 200, 200]
    assert codes(league.client("organizer_a"), 3) == [200, 200, 200]
    assert codes(league.client(), 4) == [200, 200, 200, 429]
    assert codes(league.client("organizer_b"), 1) == [200]


def test_the_next_window_lets_a_caller_in_again(league: League, low_rates: None) -> None:
    client = league.client(token="a_read")
    start = 1_800_000_000.0 + 10  # ten seconds into a minute
    with mock.patch("api.throttling.time.time", return_value=start):
        assert codes(client, 3) == [200, 200, 200]
        refused = client.get("/api/v1/tournaments/")
    assert_problem(refused, 429, "throttled")
    assert int(refused["Retry-After"]) == 50  # the rest of the minute
    with mock.patch("api.throttling.time.time", return_value=start + 50):
        assert codes(client, 1) == [200]


@pytest.mark.redis
def test_the_redis_counter_counts_in_one_round_trip_and_lives_a_window(settings: Any) -> None:
    from tests.test_cache import DOWN, cache_at

    settings.CACHES = cache_at(os.environ["REDIS_URL"])
    key = f"count-{uuid.uuid4().hex}"
    try:
        assert [cache.count(key, 60) for _ in range(3)] == [1, 2, 3]  # type: ignore[attr-defined]
        assert cache.get(key) == 3  # a plain integer, as the cache stores ints
        client = cache._cache.get_client(key)  # type: ignore[attr-defined]
        assert 0 < client.ttl(cache.make_and_validate_key(key)) <= 60
    finally:
        cache.delete(key)
    settings.CACHES = cache_at(DOWN)
    assert cache.count(key, 60) is None  # type: ignore[attr-defined]


def test_anonymous_callers_are_counted_by_their_address_not_a_header(
    league: League, fresh_cache: None
) -> None:
    with mock.patch.object(SimpleRateThrottle, "THROTTLE_RATES", {"anon": "2/min"}):
        client = league.client()
        codes = [
            client.get("/api/v1/", HTTP_X_FORWARDED_FOR=f"10.0.0.{n}").status_code for n in range(3)
        ]
    assert codes == [200, 200, 429]
