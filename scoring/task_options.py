"""How the apps declare their Celery tasks: delivered for sure, and tried again on a lost database.

Scoring's, the competition's, the seasons' and the webhooks' tasks share these options, so
a change to how a task is acknowledged or retried is made once.
"""

from __future__ import annotations

from typing import Any

from django.db import InterfaceError, OperationalError

#: acknowledged when done (a worker that dies re-queues the message); results live in the
#: database and nobody waits on a task
RELIABLE: dict[str, Any] = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "ignore_result": True,
}
#: a lost connection, a deadlock or a serialization failure: the transaction rolled back,
#: so trying again later is safe
RETRIED: dict[str, Any] = {
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": 1,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": 8,
}
