"""The scoring tasks: bring a match's projection up to its log, and catch up on lost messages.

Every task takes ids and is safe to run twice, concurrently, late or out of order (the work
is claimed and checkpointed in the database: ``services.update_match_projection``). Messages
are acknowledged late and re-queued if the worker dies, and ``catch_up`` (run by Celery beat
every ``SCORING_CATCH_UP_SECONDS``) re-sends whatever a lost message left behind.

Appends send their match's message through ``schedule_projection``, which sends none while
one sent earlier for the same match still waits in the queue (see there).
"""

from __future__ import annotations

import functools
import logging
from datetime import timedelta

import redis
from celery import shared_task
from django.conf import settings
from django.utils import timezone

from . import broker, selectors, services
from .models import MatchResult
from .signals import match_completed
from .task_options import RELIABLE, RETRIED

log = logging.getLogger(__name__)

#: a match appended to within this many seconds has its own task on the way
CATCH_UP_GRACE_SECONDS = 5.0
#: how long a sent ``project_match`` stands in for the appends after it (``schedule_projection``)
PENDING_SECONDS = 10


# time_limit well under the broker's visibility timeout (deploy/settings.py)
@shared_task(**RELIABLE, **RETRIED, soft_time_limit=30, time_limit=60)
def project_match(match_id: int) -> str:
    """Bring match ``match_id``'s scoring projection up to the head of its log.

    Sent after an append's commit (``schedule_projection``) and by ``catch_up``. Returns what
    it did (``services.CURRENT``, ``ADVANCED``, ...). It takes down the match's pending flag
    before it reads the log: an append committed from then on sends a message of its own.
    """
    if not project_match.app.conf.task_always_eager:
        _clear_pending(match_id)
    return services.update_match_projection(match_id=match_id).outcome


def schedule_projection(match_id: int) -> None:
    """Send ``project_match`` for the match, unless one sent before is still waiting to start.

    Called after an append commits. A waiting task will fold every event committed before it
    starts, so the appends while it waits need no message of their own: the first sets a
    flag for the match next to the message, in the broker (SET NX, living
    ``PENDING_SECONDS``), and sends; the next ones find the flag and send nothing; the task
    takes the flag down before it reads the log (``project_match``). An append committed
    before the flag came down is in the log the task reads; one committed after finds no flag
    and sends. The message may start only ``SCORING_COALESCE_MS`` after it is sent (50 ms;
    0: at once), so even with the worker keeping up, the appends to a match in that window
    share one message and one run; with the queue backed up, a match gets a message per task
    run instead of one per append (a send is more Python than the append's own SQL:
    bench/versus.py, ``celery_send``).

    A lost message leaves its flag to expire: for ``PENDING_SECONDS`` appends send nothing,
    and ``catch_up`` sends for a match that lags its log. On a Redis broker the message is
    pushed without Celery's send, which costs more Python than the push (scoring.broker).
    With Redis failing, the message is sent through Celery as ever (its failure is the
    append's robust callback's to log). With tasks eager (no broker), it runs now.
    """
    app = project_match.app
    if app.conf.task_always_eager:
        project_match.delay(match_id)
        return
    client, args = _flags(), (match_id,)
    countdown = settings.SCORING_COALESCE_MS / 1000 or None
    try:
        if not client.set(_pending_key(match_id), 1, nx=True, ex=PENDING_SECONDS):
            return  # the match's message still waits
        queue = broker.queue_of(project_match, args)
        if queue is not None:
            broker.send(client, project_match, args, queue, countdown)
            return
    except redis.RedisError:
        pass  # on the flag or the push: sent through Celery, whose send says what is wrong
    project_match.apply_async(args, countdown=countdown)


#: the pending flags' keys begin so; then the queue and the match (``_pending_key``)
PENDING_PREFIX = "seep-projection-pending"


def _pending_key(match_id: int) -> str:
    # per queue: test runs, and deployments, that share a Redis each have one of their own
    return f"{PENDING_PREFIX}:{project_match.app.conf.task_default_queue}:{match_id}"


def _flags() -> redis.Redis:
    """The broker's Redis, for the pending flags: a client of its own with short timeouts.

    Not kombu's channel: reaching that retries for seconds while Redis is down, and an
    append's callback would wait that long before its send failed.
    """
    return _client(project_match.app.conf.broker_url)


@functools.cache
def _client(url: str) -> redis.Redis:
    """One client per broker URL; its pool starts afresh in a forked child (redis-py checks
    the pid)."""
    return redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)


def _clear_pending(match_id: int) -> None:
    try:
        _flags().delete(_pending_key(match_id))
    except redis.RedisError as exc:  # the flag expires by itself: appends send again then
        log.warning("could not clear match %s's pending projection flag: %s", match_id, exc)


@shared_task(**RELIABLE, soft_time_limit=50, time_limit=60)
def catch_up(grace_seconds: float = CATCH_UP_GRACE_SECONDS) -> int:
    """Send ``project_match`` for every match whose projection lags its log; return how many.

    A message lost with a Redis restart, or held by a killed worker until the broker's
    visibility timeout, costs a delay of one catch-up period, never a wrong result. The
    messages it sends expire after a few periods, so a backed-up queue does not fill with
    copies: a later catch-up sends a fresh one if the match still lags.
    """
    cutoff = timezone.now() - timedelta(seconds=grace_seconds)
    match_ids = list(selectors.lagging_matches(recorded_before=cutoff).values_list("pk", flat=True))
    expires = 4 * settings.SCORING_CATCH_UP_SECONDS
    if match_ids:  # said before the sends: a sent task may finish before a later line is written
        log.info("catch-up: %d match projection(s) behind their log: %s", len(match_ids), match_ids)
    for match_id in match_ids:
        project_match.apply_async((match_id,), expires=expires)
    return len(match_ids)


@shared_task(**RELIABLE, soft_time_limit=30, time_limit=60)
def on_match_completed(match_id: int) -> None:
    """Tell the apps above that a match completed (``signals.match_completed``).

    Sent after the commit that records the completion (``completed_at``), and again after one
    that changes a finished match's result or reopens it (a director's correction). The
    receivers (the competition: fixture results, brackets, standings) keep their own
    checkpoints and catch-up, since a message can be lost and can arrive twice.
    """
    match_completed.send(sender=MatchResult, match_id=match_id)
