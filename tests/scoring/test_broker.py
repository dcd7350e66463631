"""The projection's message as scoring.broker pushes it is the message Celery pushes.

``schedule_projection`` sets the match's pending flag and pushes ``project_match``'s message
itself, rather than through Celery's send. Compared field by field with what
``project_match.delay`` puts on the same queue, on the real Redis, the request id's header
included (Celery's publish signals); the worker tests (test_worker.py, tests/stack) run real
workers on these messages.
"""

from __future__ import annotations

import base64
import json
import os
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import redis

from deploy import logs
from deploy.celery import app as celery_app
from scoring import broker as scoring_broker
from scoring import tasks

pytestmark = [pytest.mark.redis]

FRESH = ("id", "root_id", "correlation_id", "delivery_tag")  # new for every message


def _pushed(queue: str) -> list[dict[str, Any]]:
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    try:
        return [json.loads(raw) for raw in client.lrange(queue, 0, -1)]  # newest first
    finally:
        client.close()


def _without_fresh(message: dict[str, Any]) -> dict[str, Any]:
    headers = {k: v for k, v in message["headers"].items() if k not in FRESH}
    properties = {k: v for k, v in message["properties"].items() if k not in FRESH}
    body = json.loads(base64.b64decode(message["body"]))
    return {**message, "headers": headers, "properties": properties, "body": body}


def test_the_message_is_the_one_celery_would_send(broker: str, settings: Any) -> None:
    settings.SCORING_COALESCE_MS = 50
    with logs.bound("a-request-id"):
        sent = datetime.now(UTC)
        tasks.project_match.apply_async((7,), countdown=0.05)  # Celery's own send: no flag
        tasks.schedule_projection(7)  # the flag was down: the flag and a message
        tasks.schedule_projection(7)  # the flag is up: nothing
    ours, celerys = _pushed(broker)
    # each may start 50 ms after it was sent (the two sends a few ms apart)
    etas = [datetime.fromisoformat(m["headers"].pop("eta")) for m in (ours, celerys)]
    assert all(timedelta(0) < eta - sent < timedelta(seconds=1) for eta in etas), etas
    assert abs(etas[0] - etas[1]) < timedelta(milliseconds=500)
    assert _without_fresh(ours) == _without_fresh(celerys)
    assert _without_fresh(ours)["body"][0] == [7]
    assert ours["headers"][logs.HEADER] == "a-request-id"
    assert ours["properties"]["delivery_info"] == {"exchange": "", "routing_key": broker}
    task_id = ours["headers"]["id"]
    assert str(uuid.UUID(task_id)) == task_id != celerys["headers"]["id"]
    assert ours["headers"]["root_id"] == ours["properties"]["correlation_id"] == task_id
    assert ours["properties"]["delivery_tag"] not in (
        task_id,
        celerys["properties"]["delivery_tag"],
    )
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    try:
        left = client.ttl(f"{tasks.PENDING_PREFIX}:{broker}:7")
    finally:
        client.close()
    assert 0 < left <= tasks.PENDING_SECONDS


def test_with_no_window_the_message_may_start_at_once(broker: str, settings: Any) -> None:
    settings.SCORING_COALESCE_MS = 0
    tasks.project_match.delay(8)
    tasks.schedule_projection(8)
    ours, celerys = _pushed(broker)
    assert ours["headers"]["eta"] is None
    assert _without_fresh(ours) == _without_fresh(celerys)


@pytest.mark.parametrize(
    "setting, value",
    [
        ("broker_transport_options", {"global_keyprefix": "club:"}),  # kombu prefixes keys
        ("task_routes", {"scoring.tasks.project_match": {"queue": "q", "priority": 5}}),
        ("broker_url", "amqp://guest@127.0.0.1//"),  # not Redis
        ("task_protocol", 1),  # another message shape
        ("task_compression", "gzip"),  # a compressed body
    ],
)
def test_what_the_envelope_does_not_cover_is_left_to_celery(setting: str, value: Any) -> None:
    conf = celery_app.conf
    saved = conf[setting]
    assert scoring_broker.queue_of(tasks.project_match, (7,)) is not None  # as configured
    try:
        conf[setting] = value
        _forget_routes()
        assert scoring_broker.queue_of(tasks.project_match, (7,)) is None
    finally:
        conf[setting] = saved
        _forget_routes()
    assert scoring_broker.queue_of(tasks.project_match, (7,)) is not None


def _forget_routes() -> None:
    """Have Celery read the routes again (it keeps them once read)."""
    celery_app.amqp.__dict__.pop("router", None)
    celery_app.amqp._rtable = None
