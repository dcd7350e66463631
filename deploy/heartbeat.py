"""Worker heartbeats in Redis: each worker says it is alive; /readyz asks whether one did lately.

Each worker's main process writes ``time()`` under its node name into one sorted set per
queue (the default queue's, or for a worker of the webhook queue only, that one's: /readyz
counts the workers that score), every ``WORKER_HEARTBEAT_SECONDS``, from a timer on the
consumer's own event loop (a Celery bootstep, like Celery's event heartbeat): a worker whose
loop is stuck, or that cannot reach the broker, stops beating. A warm shutdown removes its
entry at once.

Reading is one Redis command (``ZCOUNT`` over the last three periods), cheap enough for a
load balancer polling every few seconds, and it needs no worker to answer anything then,
unlike a ``control.ping`` broadcast, which waits out its timeout whenever no worker is up.
"""

from __future__ import annotations

import contextlib
import logging
import time
from typing import Any

import redis
from celery import bootsteps
from django.conf import settings

log = logging.getLogger(__name__)

#: a heartbeat older than this many periods does not count
MISSED_BEATS = 3


def key(queue: str | None = None) -> str:
    """Return the Redis key of the heartbeats of the workers of ``queue`` (default: ours)."""
    return f"seep:workers:{queue or settings.CELERY_TASK_DEFAULT_QUEUE}"


def max_age() -> float:
    """Return how old, in seconds, the newest heartbeat may be for a worker to count as up."""
    return float(MISSED_BEATS * settings.WORKER_HEARTBEAT_SECONDS)


def _client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)


def live_workers(client: redis.Redis, *, now: float | None = None) -> int:
    """Return how many workers of our queue beat within ``max_age()`` (raises RedisError)."""
    now = time.time() if now is None else now
    return int(client.zcount(key(), now - max_age(), "+inf"))


class Heartbeat(bootsteps.StartStopStep):
    """The worker-side bootstep: beat every period from the consumer's timer."""

    requires = ("celery.worker.consumer.tasks:Tasks",)  # started once the worker consumes

    def __init__(self, parent: Any, **kwargs: Any) -> None:
        super().__init__(parent, **kwargs)
        self.timer_entry: Any = None
        self.client: redis.Redis | None = None
        self.node = ""
        self.key = key()

    def start(self, parent: Any) -> None:
        url = parent.app.conf.broker_url
        if not url.startswith(("redis://", "rediss://")):
            return  # eager or another broker: nobody reads heartbeats
        self.client = _client(url)
        self.node = parent.hostname
        consumed = sorted(parent.app.amqp.queues.consume_from)
        default = settings.CELERY_TASK_DEFAULT_QUEUE
        self.key = key(default if default in consumed or not consumed else consumed[0])
        self.beat()
        self.timer_entry = parent.timer.call_repeatedly(
            settings.WORKER_HEARTBEAT_SECONDS, self.beat, priority=10
        )

    def beat(self) -> None:
        assert self.client is not None
        now = time.time()
        try:
            with self.client.pipeline(transaction=False) as pipe:
                pipe.zadd(self.key, {self.node: now})
                # Entries of workers long gone, and the key itself once every worker is.
                pipe.zremrangebyscore(self.key, "-inf", now - 10 * max_age())
                pipe.expire(self.key, int(10 * max_age()) + 1)
                pipe.execute()
        except (redis.RedisError, OSError) as exc:
            log.warning("heartbeat not written (the broker is unavailable): %s", exc)

    def stop(self, parent: Any) -> None:
        if self.timer_entry is not None:
            self.timer_entry.cancel()
            self.timer_entry = None
        if self.client is not None:
            with contextlib.suppress(redis.RedisError, OSError):  # else it lapses by itself
                self.client.zrem(self.key, self.node)
            self.client.close()
            self.client = None

    shutdown = stop


def main(argv: list[str]) -> int:
    """``python -m deploy.heartbeat [NODE]``: exit 0 if NODE (or any worker) beat lately.

    A container health check for a worker: its own node name is ``worker@$HOSTNAME``.
    """
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deploy.settings")
    url = settings.CELERY_BROKER_URL
    if not url.startswith(("redis://", "rediss://")):
        print("no Redis broker configured: nothing beats")
        return 1
    client = _client(url)
    try:
        if len(argv) > 1:  # a worker of either queue
            beats = [client.zscore(key(q), argv[1]) for q in (None, settings.WEBHOOK_QUEUE)]
            last = max((float(b) for b in beats if b is not None), default=None)
            fresh = last is not None and time.time() - last <= max_age()
        else:
            fresh = live_workers(client) > 0
    except (redis.RedisError, OSError) as exc:
        print(f"the broker is unavailable: {exc}")
        return 1
    finally:
        client.close()
    print("alive" if fresh else f"no heartbeat within {max_age():.0f} s")
    return 0 if fresh else 1


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv))
