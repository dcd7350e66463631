"""A task's message pushed to a Redis broker without Celery's send: the same message, less Python.

After every append ``schedule_projection`` (scoring.tasks) sends ``project_match`` unless the
match's message still waits. Through ``Task.delay`` a send is about 0.65 ms of Python (the
router, the options, kombu's producer and channel), more than the append's own SQL, on every
append while the worker keeps up. Here the message is built by Celery's own ``as_task_v2``
(the task protocol's headers and body) and kombu's serializer, wrapped as kombu's Redis
transport wraps it (``kombu.transport.redis.Channel._put``: a JSON envelope, the body in
base64) and LPUSHed onto the queue's key, with Celery's ``before_task_publish`` and
``after_task_publish`` signals sent around it as Celery sends them. The worker takes it as
any other: tests/scoring/test_broker.py compares it field by field with the message
``Task.delay`` pushes, and the worker tests (test_worker.py, tests/stack) run on it.

Only what the envelope covers: a Redis broker without a key prefix, Celery's task protocol 2
without compression, a task routed to a queue of a direct exchange, without priorities. For
anything else ``queue_of`` is None and the caller sends through Celery.
"""

from __future__ import annotations

import base64
import json
import uuid
from typing import Any

import redis
from celery import signals
from celery.utils.nodenames import anon_nodename
from kombu.serialization import dumps


def queue_of(task: Any, args: tuple[Any, ...]) -> str | None:
    """The name of the queue Celery would route ``task`` to, if the envelope here covers it."""
    app = task.app
    conf = app.conf
    if not str(conf.broker_url).startswith(("redis://", "rediss://")):
        return None
    if conf.task_protocol != 2 or conf.task_compression:
        return None  # another message shape, or a compressed body
    if (conf.broker_transport_options or {}).get("global_keyprefix"):
        return None  # kombu would prefix every key
    route = app.amqp.router.route({}, task.name, args, {})
    queue = route.get("queue")
    if queue is None or route.get("priority") or queue.max_priority or task.priority:
        return None  # a priority puts the message on another key
    if queue.exchange is not None and queue.exchange.type != "direct":
        return None  # Celery sends to the exchange, not to the queue
    return str(queue.name)


def _parts(
    task: Any, args: tuple[Any, ...], countdown: float | None = None
) -> tuple[dict[str, Any], ...]:
    """The message's headers, properties and body, by Celery's task protocol (``as_task_v2``),
    with what ``Task.apply_async`` gives it (``countdown``: seconds before it may start)."""
    app = task.app
    task_id = str(uuid.uuid4())
    built = app.amqp.as_task_v2(
        task_id,
        task.name,
        args,
        {},
        countdown=countdown,
        time_limit=task.time_limit,
        soft_time_limit=task.soft_time_limit,
        ignore_result=task.ignore_result,
        origin=anon_nodename(),
        reply_to=app.thread_oid,
        root_id=task_id,
    )
    return built.headers, built.properties, built.body


def _envelope(task: Any, headers: Any, properties: Any, body: Any, queue: str) -> str:
    """The JSON that kombu's Redis transport pushes for a message (its ``Channel._put``)."""
    content_type, encoding, data = dumps(body, serializer=task.serializer)
    raw = data.encode(encoding) if isinstance(data, str) else data
    return json.dumps(
        {
            "body": base64.b64encode(raw).decode("ascii"),
            "content-encoding": encoding,
            "content-type": content_type,
            "headers": headers,
            "properties": {
                **properties,
                "delivery_mode": 2,  # persistent, as Celery sends by default
                "delivery_info": {"exchange": "", "routing_key": queue},
                "priority": 0,
                "body_encoding": "base64",
                "delivery_tag": str(uuid.uuid4()),
            },
        }
    )


def send(
    client: redis.Redis,
    task: Any,
    args: tuple[Any, ...],
    queue: str,
    countdown: float | None = None,
) -> None:
    """Push ``task``'s message for ``args`` onto ``queue``, as
    ``task.apply_async(args, countdown=countdown)`` would.

    Celery's publish signals are sent as Celery sends them, so what listens to them (the
    request id's header: deploy/logs.py) sees this message too.
    """
    name = task.name
    headers, properties, body = _parts(task, args, countdown)
    signals.before_task_publish.send(
        sender=name, body=body, exchange="", routing_key=queue, declare=[], headers=headers,
        properties=properties, retry_policy={},
    )  # fmt: skip
    client.lpush(queue, _envelope(task, headers, properties, body, queue))
    signals.after_task_publish.send(
        sender=name, body=body, headers=headers, exchange="", routing_key=queue
    )
