"""The cache fails open: with Redis down the API still answers (its rate limits pause)."""

from __future__ import annotations

import os
import uuid
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

DOWN = "redis://127.0.0.1:1/0"  # nothing listens on port 1


def cache_at(url: str, backend: str = "deploy.cache.FailOpenRedisCache") -> dict[str, Any]:
    return {"default": {"BACKEND": backend, "LOCATION": url, "KEY_PREFIX": uuid.uuid4().hex}}


@pytest.mark.django_db
def test_with_redis_down_the_api_answers_without_its_rate_limits(settings: Any) -> None:
    settings.CACHES = cache_at(DOWN)
    assert Client().get("/api/v1/").status_code == 200
    assert cache.get("anything", "missing") == "missing"
    cache.set("anything", 1)  # skipped, not raised
    assert cache.add("anything", 1) is False
    assert cache.get_many(["a", "b"]) == {}


@pytest.mark.django_db
def test_django_s_own_redis_cache_would_fail_every_api_request(settings: Any) -> None:
    """Why deploy.cache exists: the throttle reads the cache before any view runs."""
    settings.CACHES = cache_at(DOWN, "django.core.cache.backends.redis.RedisCache")
    assert Client(raise_request_exception=False).get("/api/v1/").status_code == 500


@pytest.mark.redis
def test_with_redis_up_it_is_an_ordinary_cache(settings: Any) -> None:
    settings.CACHES = cache_at(os.environ["REDIS_URL"])
    try:
        cache.set("k", {"v": 1}, 30)
        assert cache.get("k") == {"v": 1}
        assert cache.add("k", 2) is False
        assert cache.delete("k") is True
        assert cache.get("k") is None
    finally:
        cache.delete("k")


def test_production_settings_use_it() -> None:
    from tests.test_settings import PRODUCTION, loaded

    assert loaded({**PRODUCTION, "REDIS_URL": "redis://cache.internal:6379/0"})["CACHE"] == (
        "deploy.cache.FailOpenRedisCache"
    )
