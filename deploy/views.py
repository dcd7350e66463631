"""The health check that load balancers and process managers poll."""

from __future__ import annotations

import logging

import redis
from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

logger = logging.getLogger(__name__)


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        logger.exception("health check: the database is unavailable")
        return "unavailable"
    return "ok"


def _broker() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager"  # no broker configured: tasks run in-process
    try:
        client = redis.Redis.from_url(
            settings.CELERY_BROKER_URL, socket_connect_timeout=2, socket_timeout=2
        )
        try:
            client.ping()
        finally:
            client.close()
    except (redis.RedisError, OSError):
        logger.exception("health check: the broker is unavailable")
        return "unavailable"
    return "ok"


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Return 200 and ``{"status": "ok", ...}`` when the database and broker answer, else 503.

    ``broker`` is ``"eager"`` when no REDIS_URL is set (tasks run in-process), which is healthy.
    Details of a failure go to the log, not to whoever polls this.
    """
    database = _database()
    broker = _broker()
    healthy = database == "ok" and broker in {"ok", "eager"}
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", "database": database, "broker": broker},
        status=200 if healthy else 503,
    )
