"""The probes that load balancers and process managers poll: liveness and readiness.

- ``/healthz``: the process is up and answers. It touches nothing else, so a database or
  broker outage never makes a process manager restart every web process (which would not
  help).
- ``/readyz``: this process can do its work: the database answers, the broker answers, and
  a Celery worker of our queue wrote a heartbeat within the last three periods
  (``deploy.heartbeat``). A load balancer sends traffic only where this answers 200.

Both are cheap: ``/readyz`` is one ``SELECT 1`` and one Redis command. Details of a failure
go to the log, not to whoever polls.
"""

from __future__ import annotations

import functools
import logging

import redis
from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from . import heartbeat

logger = logging.getLogger(__name__)

OK, EAGER, UNAVAILABLE = "ok", "eager", "unavailable"


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        logger.exception("readiness: the database is unavailable")
        return UNAVAILABLE
    return OK


@functools.lru_cache(maxsize=4)
def _redis(url: str) -> redis.Redis:
    """Return this process's client for ``url``: its connections are kept between polls."""
    return redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)


def _broker_and_workers() -> tuple[str, str, int]:
    """Return the broker's state, the workers' state and how many workers beat lately."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return EAGER, EAGER, 0  # no broker configured: tasks run in this process
    try:
        workers = heartbeat.live_workers(_redis(settings.CELERY_BROKER_URL))  # also a ping
    except (redis.RedisError, OSError):
        logger.exception("readiness: the broker is unavailable")
        return UNAVAILABLE, UNAVAILABLE, 0
    if not workers:
        logger.warning(
            "readiness: no worker of queue %s beat in the last %.0f s",
            settings.CELERY_TASK_DEFAULT_QUEUE,
            heartbeat.max_age(),
        )
    return OK, OK if workers else UNAVAILABLE, workers


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Return 200 ``{"status": "ok"}``: the process is up. Nothing else is asked."""
    return JsonResponse({"status": OK})


@never_cache
@require_GET
def readyz(request: HttpRequest) -> JsonResponse:
    """Return 200 when the database, the broker and a recent worker answer, else 503.

    ``{"status", "database", "broker", "workers", "live_workers"}``; ``broker`` and
    ``workers`` are ``"eager"`` when no REDIS_URL is set (tasks run in-process), which is
    ready.
    """
    database = _database()
    broker, workers, live = _broker_and_workers()
    ready = database == OK and broker in {OK, EAGER} and workers in {OK, EAGER}
    return JsonResponse(
        {
            "status": OK if ready else UNAVAILABLE,
            "database": database,
            "broker": broker,
            "workers": workers,
            "live_workers": live,
        },
        status=200 if ready else 503,
    )
