"""The Celery app: configured from Django settings (the CELERY_ names), tasks autodiscovered.

Also wired here: the request id travels from the code that sends a task into the worker's
log lines (``deploy.logs``), and each worker writes a heartbeat that /readyz reads
(``deploy.heartbeat``). The beat scheduler (``deploy.beat``) is named by the settings, and so
is the workers' consumer (``Consumer``: back within a second of the broker).
"""

import functools
import os
from typing import Any

from celery import Celery, signals, states
from celery.worker.consumer import Consumer as CeleryConsumer
from django.db import close_old_connections, connections

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deploy.settings")

app = Celery("deploy")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def _eager(task: Any) -> bool:
    """Whether ``task`` runs in-process, inside its caller's connection and transaction."""
    return bool(getattr(getattr(task, "request", None), "is_eager", False))


def _before_task(task: Any = None, **kwargs: Any) -> None:
    """Before a task, as before a request: drop a connection past its age or left broken."""
    if not _eager(task):
        close_old_connections()


def _after_task(task: Any = None, state: str | None = None, **kwargs: Any) -> None:
    """After a task: keep its connections for the next one if it succeeded (as after a
    request: CONN_MAX_AGE, and the health check before the next first query), close them
    if it did not (a task stopped by its time limit in the middle of a query can leave a
    connection that looks usable and is not). Not for a task run in-process (eager)."""
    if _eager(task):
        return
    if state == states.SUCCESS:
        close_old_connections()
    else:
        connections.close_all()


#: the longest a worker that lost the broker waits between two tries to reach it again
RECONNECT_SECONDS = 1.0


class Consumer(CeleryConsumer):
    """Celery's consumer, trying to reach a lost broker every second rather than kombu's
    2 s, 4 s, 6 s... (up to 30 s): after a Redis restart the web processes send what they
    held within about a second (scoring.resend), and the worker must be there to take it.
    A refused connection costs next to nothing, so the shorter wait costs nothing either."""

    def ensure_connected(self, conn: Any) -> Any:
        ensure = conn.ensure_connection
        conn.ensure_connection = functools.partial(
            ensure, interval_start=RECONNECT_SECONDS / 2, interval_step=RECONNECT_SECONDS / 2,
            interval_max=RECONNECT_SECONDS,
        )  # fmt: skip
        try:
            return super().ensure_connected(conn)
        finally:
            del conn.ensure_connection  # kombu's own again


def _wire() -> None:
    from . import heartbeat, logs

    signals.before_task_publish.connect(logs.add_request_id_header, weak=False)
    signals.task_prerun.connect(logs.enter_task, weak=False)
    signals.task_postrun.connect(logs.leave_task, weak=False)
    # With CELERY_DB_REUSE_MAX (deploy/settings.py) Celery does not close the database
    # connections after every task: these decide instead.
    signals.task_prerun.connect(_before_task, weak=False)
    signals.task_postrun.connect(_after_task, weak=False)
    app.steps["consumer"].add(heartbeat.Heartbeat)


_wire()
