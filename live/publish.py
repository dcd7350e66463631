"""Publishing: one small message per change, sent after the commit.

A service that changed what a live page shows calls :func:`publish` inside its transaction
(or after, outside one). With ``REDIS_URL`` the message goes to the Redis pub/sub channel
``seep:live:<db>`` (one ``PUBLISH``, after the commit; a Redis out of reach loses the message,
never the write: a push process also looks again every ``feeds.RECHECK_SECONDS``). In every
process it also reaches the listeners registered here (:func:`listen`), which is how a push
server in the same process hears it without Redis (the tests; ``make run`` polls instead).
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction

from .messages import Message, Topic

log = logging.getLogger(__name__)

#: the Redis pub/sub channel of every change
CHANNEL = "seep:live"

_listeners: list[Callable[[str], None]] = []
_listeners_lock = threading.Lock()


def channel(url: str) -> str:
    """The channel of the deployment whose Redis is ``url``: pub/sub ignores the database
    number, so it is in the name (two deployments on one Redis do not hear each other)."""
    db = urlsplit(url).path.strip("/") or "0"
    return f"{CHANNEL}:{db}"


class _Send:
    """The on-commit callback of one message (compared by message: one per transaction)."""

    def __init__(self, message: str) -> None:
        self.message = message

    def __call__(self) -> None:
        send_now(self.message)


def publish(topic: Topic, pk: int | None, *, tournament: int | None = None) -> None:
    """Publish that ``topic`` of ``pk`` (inside ``tournament``) changed, once the current
    transaction commits (at once outside one); the same message twice in one transaction is
    sent once."""
    if pk is None:
        return
    message = Message(Topic(topic), int(pk), tournament).encode()
    current = transaction.get_connection()
    if current.in_atomic_block:
        # one a transaction: one registered at this savepoint goes (or is undone) with this
        # change (one from another savepoint could be rolled back without it)
        scope = set(current.savepoint_ids)
        if any(
            getattr(entry[1], "message", None) == message and entry[0] == scope
            for entry in current.run_on_commit
        ):
            return
        transaction.on_commit(_Send(message), robust=True)
    else:
        send_now(message)


def send_now(message: str) -> None:
    """Send the encoded ``message`` to Redis (when configured) and to this process's
    listeners."""
    url = getattr(settings, "REDIS_URL", "") or ""
    if url:
        try:
            _redis(url).publish(channel(url), message)
        except Exception:  # fail open: the write is done; hubs look again by themselves
            log.warning("live: could not publish %r", message, exc_info=True)
    with _listeners_lock:
        listeners = list(_listeners)
    for listener in listeners:
        listener(message)


@functools.cache
def _redis(url: str) -> Any:
    import redis

    return redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)


def listen(listener: Callable[[str], None]) -> Callable[[], None]:
    """Call ``listener(message)`` for every message this process publishes; return the undo."""
    with _listeners_lock:
        _listeners.append(listener)

    def undo() -> None:
        with _listeners_lock:
            if listener in _listeners:
                _listeners.remove(listener)

    return undo
