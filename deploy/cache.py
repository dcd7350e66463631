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

import contextlib
import logging
import time
from collections.abc import Iterator
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
#: the same count, and in the same step a mark (KEYS[2]) read, made ARGV[2] if there is none
_COUNT_AND_MARK = """
local counted = redis.call('INCR', KEYS[1])
if counted == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
redis.call('SET', KEYS[2], ARGV[2], 'NX')
return {counted, redis.call('GET', KEYS[2])}
"""
#: a mark read, made ARGV[1] if there is none
_MARK = """
redis.call('SET', KEYS[1], ARGV[1], 'NX')
return redis.call('GET', KEYS[1])
"""
_WARN_EVERY = 60.0


class ReusedClient(RedisCacheClient):
    """Django's cache client, keeping its ``redis.Redis`` clients instead of making one a call."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}
        self._scripts: dict[tuple[int, str], Any] = {}  # registered scripts, by client

    def script(self, source: str = _COUNT) -> Any:
        """Return the script ``source`` registered with the writing client."""
        client = self.get_client(write=True)
        script = self._scripts.get((id(client), source))
        if script is None:
            script = self._scripts[id(client), source] = client.register_script(source)
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

    @contextlib.contextmanager
    def _failing_open(self, operation: str) -> Iterator[None]:
        """Swallow Redis being down (logged): the caller goes on to answer "nothing there"."""
        try:
            yield
        except _UNAVAILABLE as exc:
            self._down(operation, exc)

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        with self._failing_open("get"):
            return super().get(key, default, version)
        return default

    def get_many(self, keys: Any, version: Any = None) -> Any:
        with self._failing_open("get_many"):
            return super().get_many(keys, version)
        return {}

    def has_key(self, key: Any, version: Any = None) -> bool:
        with self._failing_open("has_key"):
            return bool(super().has_key(key, version))
        return False

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> bool:
        with self._failing_open("add"):
            return bool(super().add(key, value, timeout, version))
        return False

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        with self._failing_open("set"):
            super().set(key, value, timeout, version)

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> list[Any]:
        with self._failing_open("set_many"):
            return list(super().set_many(data, timeout, version))
        return list(data)

    def count(self, key: Any, timeout: int, version: Any = None) -> int | None:
        """Add one to the counter at ``key`` (made to live ``timeout`` seconds when it is
        new) and return it: one command, one round trip (a script, so the expiry is set in
        the same step as the counter is made); None while Redis is down (nothing counted).

        The counter is a plain Redis integer, as Django's serializer stores an int, so
        ``get`` reads it too.
        """
        key = self.make_and_validate_key(key, version=version)
        with self._failing_open("count"):
            counter = self._cache.script()  # type: ignore[attr-defined]  # a ReusedClient
            return int(counter(keys=[key], args=[timeout]))
        return None

    def count_and_mark(
        self, key: Any, timeout: int, mark: Any, candidate: str, version: Any = None
    ) -> tuple[int, str] | None:
        """``count`` at ``key``, and in the same round trip read the mark at ``mark`` (made
        ``candidate`` when there is none); None while Redis is down.

        A mark is a plain string, changed by ``renew_mark`` when what it stands for changes:
        a process that remembers something together with the mark it read then knows, by
        reading the mark again, whether it may still trust what it remembers (api.auth).
        """
        key = self.make_and_validate_key(key, version=version)
        mark = self.make_and_validate_key(mark, version=version)
        with self._failing_open("count_and_mark"):
            script = self._cache.script(_COUNT_AND_MARK)  # type: ignore[attr-defined]
            counted, value = script(keys=[key, mark], args=[timeout, candidate])
            return int(counted), _text(value)
        return None

    def mark(self, mark: Any, candidate: str, version: Any = None) -> str | None:
        """Read the mark at ``mark`` (made ``candidate`` when there is none); None while
        Redis is down."""
        mark = self.make_and_validate_key(mark, version=version)
        with self._failing_open("mark"):
            value = self._cache.script(_MARK)(keys=[mark], args=[candidate])  # type: ignore[attr-defined]
            return _text(value)
        return None

    def renew_mark(self, mark: Any, value: str, version: Any = None) -> bool:
        """Set the mark at ``mark`` to ``value`` (never expiring); False while Redis is down."""
        mark = self.make_and_validate_key(mark, version=version)
        with self._failing_open("renew_mark"):
            self._cache.get_client(mark, write=True).set(mark, value)
            return True
        return False

    def delete(self, key: Any, version: Any = None) -> bool:
        with self._failing_open("delete"):
            return bool(super().delete(key, version))
        return False


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
