"""Exactly one Celery beat sends: a scheduler that sends only while it holds a lock in Redis.

Every beat (``celery beat``, or a worker's ``-B``) uses ``LockedScheduler``
(``CELERY_BEAT_SCHEDULER``). Before each tick it takes or renews one key in Redis
(``SET NX PX``, renewed only by the holder's own token, by a Lua compare-and-extend). The
beat that holds it sends what is due; any other waits as a standby, sending nothing, and
takes over once the holder's lock lapses (``BEAT_LOCK_SECONDS`` after it stopped renewing:
it died, or lost Redis). A holder that finds its lock gone (it stalled past the lock's life
and another took over) drops back to standby before sending anything more. A warm shutdown
releases the lock at once, so a standby takes over without waiting.

The schedule is kept in memory, not in a ``celerybeat-schedule`` file: a beat that starts
(or takes over) sends the catch-up at once, which is harmless (the task is idempotent) and
needs no writable file. The lock is per queue (``CELERY_QUEUE``): deployments (or test runs)
sharing a Redis server each have their own beat.
"""

from __future__ import annotations

import logging
import os
import socket
import uuid
from typing import Any

import redis
from celery.beat import Scheduler
from django.conf import settings

log = logging.getLogger(__name__)

# Extend the lock only if it is still ours (compare-and-extend), atomically.
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('del', KEYS[1])
end
return 0
"""


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def lock_key(queue: str | None = None) -> str:
    """Return the Redis key of the beat lock for ``queue`` (default: ours)."""
    return f"seep:beat:{queue or settings.CELERY_TASK_DEFAULT_QUEUE}"


class LockedScheduler(Scheduler):
    """Celery's in-memory scheduler, sending only while this beat holds the beat lock."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.lock_ms = settings.BEAT_LOCK_SECONDS * 1000
        # Renew well within the lock's life, so two missed ticks still keep it.
        self.renew_every = settings.BEAT_LOCK_SECONDS / 3
        self.token = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.holding = False
        self._redis: redis.Redis | None = None
        super().__init__(*args, **kwargs)

    @property
    def redis(self) -> redis.Redis:
        if self._redis is None:
            self._redis = redis.Redis.from_url(
                self.app.conf.broker_url, socket_connect_timeout=2, socket_timeout=2
            )
        return self._redis

    def tick(self, *args: Any, **kwargs: Any) -> float:
        if not self._hold_lock():
            return self.renew_every  # standby: look again later, send nothing
        return min(super().tick(*args, **kwargs), self.renew_every)

    def _hold_lock(self) -> bool:
        """Take or renew the lock; return whether this beat holds it now."""
        key = lock_key()
        try:
            if self.holding:
                renewed = self.redis.eval(_RENEW, 1, key, self.token, self.lock_ms)
                if not renewed:
                    self.holding = False
                    log.error("beat: lost the beat lock %s (another beat took over): standby", key)
            if not self.holding and self.redis.set(key, self.token, nx=True, px=self.lock_ms):
                self.holding = True
                log.info("beat: took the beat lock %s: sending the schedule", key)
                self._heap = None  # entries due while on standby are due now
        except (redis.RedisError, OSError) as exc:
            if self.holding:
                log.warning("beat: cannot renew the beat lock (%s): standby", exc)
            self.holding = False
        if not self.holding:
            log.debug("beat: standby, the beat lock %s is held by %s", key, self._holder())
        return self.holding

    def _holder(self) -> str:
        try:
            holder = self.redis.get(lock_key())
        except (redis.RedisError, OSError):
            return "(Redis unavailable)"
        return _text(holder) if holder else "(nobody)"

    def close(self) -> None:
        try:
            super().close()
        finally:
            if self.holding:
                try:
                    self.redis.eval(_RELEASE, 1, lock_key(), self.token)
                    log.info("beat: released the beat lock %s", lock_key())
                except (redis.RedisError, OSError):
                    pass  # it lapses by itself
                self.holding = False


def main() -> int:
    """``python -m deploy.beat``: exit 0 if some beat holds the beat lock (a health check)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deploy.settings")
    client = redis.Redis.from_url(
        settings.CELERY_BROKER_URL, socket_connect_timeout=2, socket_timeout=2
    )
    try:
        holder = client.get(lock_key())
    except (redis.RedisError, OSError) as exc:
        print(f"the broker is unavailable: {exc}")
        return 1
    finally:
        client.close()
    print(f"the beat lock is held by {_text(holder)}" if holder else "no beat holds the lock")
    return 0 if holder else 1


if __name__ == "__main__":
    import sys

    sys.exit(main())
