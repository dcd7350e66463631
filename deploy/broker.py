"""The Celery broker's transport: kombu's Redis transport, keeping the client it sends with.

kombu's Redis channel makes a new ``redis.Redis`` for every message it sends (and every queue
size it asks): a client costs about as much Python as the round trip (it builds its table of
response callbacks each time), and every append sends a message after its commit, so the send
cost more than a third of the append's own Python. Here a channel keeps one client for all of
that. A ``redis.Redis`` holds no connection of its own (it takes one from the channel's pool
for each command, the pool that kombu's own client would use, and that starts afresh in a
forked child) and is thread-safe, so one serves every send of the channel. Everything else is
kombu's (deploy/settings.py names this transport when the broker is Redis), but for one
fault of kombu's: a channel closed after its connection was dropped (a worker that lost Redis
while it held a message not yet acknowledged) builds a new pool from the connection that is
gone, and fails with an AttributeError, which stops the worker (``deploy.supervise`` starts
it again, seconds later). Here that is the connection error it is, which the closing code
ignores; the message is Redis's to keep or to have lost (the catch-up sends it again).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from kombu.transport import redis
from redis.exceptions import ConnectionError as RedisConnectionError


class Channel(redis.Channel):
    _kept_client: Any = None

    @contextmanager
    def conn_or_acquire(self, client: Any = None) -> Iterator[Any]:
        if client:
            yield client
            return
        pool = self._pool  # type: ignore[attr-defined]  # None once closing dropped it
        if pool is None and getattr(self.connection, "client", None) is None:
            raise RedisConnectionError("the channel's connection was closed")
        kept = self._kept_client
        if kept is None or kept.connection_pool is not self.pool:  # a new pool after a fork
            kept = self._kept_client = self._create_client()  # type: ignore[attr-defined]
        yield kept


class Transport(redis.Transport):
    Channel = Channel


__all__ = ["Transport"]
