"""The cache in Redis, failing open: a Redis that is down is a cache that remembers nothing.

The cache holds nothing that matters for correctness: the API's rate-limit counters, and
whatever else may cache later. Django's own Redis cache raises when Redis is unreachable,
so while Redis restarted every API request failed with a 500 (the throttle reads the cache
before the view runs), although appends need only PostgreSQL. Here a read that cannot reach
Redis is a miss and a write is skipped (logged at most once a minute per process), so the
API serves on and rate limits resume with Redis.

Django's client also makes a new ``redis.Redis`` for every operation, and one costs about as
much Python as the round trip (it builds its table of response callbacks each time): here a
process keeps one per connection pool (a ``redis.Redis`` is thread-safe, and its pool starts
afresh in a forked child).
"""

from __future__ import annotations

import logging
import time
from typing import Any

import redis
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

log = logging.getLogger(__name__)

_UNAVAILABLE = (redis.RedisError, OSError)
#: INCR, and on the counter's first count its expiry (EVALSHA: the script is sent once)
_COUNT = """
local counted = redis.call('INCR', KEYS[1])
if counted == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return counted
"""
_WARN_EVERY = 60.0


class ReusedClient(RedisCacheClient):
    """Django's cache client, keeping its ``redis.Redis`` clients instead of making one a call."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}
        self._counters: dict[int, Any] = {}  # a client's registered script, by its id

    def counter(self) -> Any:
        """Return the counting script (``_COUNT``) registered with the writing client."""
        client = self.get_client(write=True)
        script = self._counters.get(id(client))
        if script is None:
            script = self._counters[id(client)] = client.register_script(_COUNT)
        return script

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]  # as _client
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)  # type: ignore[attr-defined]  # set by RedisCacheClient, not in the stubs
        return client


class FailOpenRedisCache(RedisCache):
    """Django's RedisCache, with every operation answering "nothing there" while Redis is down."""

    _warned_at = 0.0

    def __init__(self, server: Any, params: Any) -> None:
        super().__init__(server, params)
        self._class = ReusedClient

    def _down(self, operation: str, exc: Exception) -> None:
        now = time.monotonic()
        if now - FailOpenRedisCache._warned_at >= _WARN_EVERY:
            FailOpenRedisCache._warned_at = now
            log.warning("cache unavailable (%s: %s): serving without it", operation, exc)

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        try:
            return super().get(key, default, version)
        except _UNAVAILABLE as exc:
            self._down("get", exc)
            return default

    def get_many(self, keys: Any, version: Any = None) -> Any:
        try:
            return super().get_many(keys, version)
        except _UNAVAILABLE as exc:
            self._down("get_many", exc)
            return {}

    def has_key(self, key: Any, version: Any = None) -> bool:
        try:
            return bool(super().has_key(key, version))
        except _UNAVAILABLE as exc:
            self._down("has_key", exc)
            return False

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> bool:
        try:
            return bool(super().add(key, value, timeout, version))
        except _UNAVAILABLE as exc:
            self._down("add", exc)
            return False

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        try:
            super().set(key, value, timeout, version)
        except _UNAVAILABLE as exc:
            self._down("set", exc)

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> list[Any]:
        try:
            return list(super().set_many(data, timeout, version))
        except _UNAVAILABLE as exc:
            self._down("set_many", exc)
            return list(data)

    def count(self, key: Any, timeout: int, version: Any = None) -> int | None:
        """Add one to the counter at ``key`` (made to live ``timeout`` seconds when it is
        new) and return it: one command, one round trip (a script, so the expiry is set in
        the same step as the counter is made); None while Redis is down (nothing counted).

        The counter is a plain Redis integer, as Django's serializer stores an int, so
        ``get`` reads it too.
        """
        key = self.make_and_validate_key(key, version=version)
        try:
            counter = self._cache.counter()  # type: ignore[attr-defined]  # a ReusedClient
            return int(counter(keys=[key], args=[timeout]))
        except _UNAVAILABLE as exc:
            self._down("count", exc)
            return None

    def delete(self, key: Any, version: Any = None) -> bool:
        try:
            return bool(super().delete(key, version))
        except _UNAVAILABLE as exc:
            self._down("delete", exc)
            return False
