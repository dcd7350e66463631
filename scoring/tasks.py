"""The scoring tasks: bring a match's projection up to its log, and catch up on lost messages.

Every task takes ids and is safe to run twice, concurrently, late or out of order (the work
is claimed and checkpointed in the database: ``services.update_match_projection``). Messages
are acknowledged late and re-queued if the worker dies, and ``catch_up`` (run by Celery beat
every ``SCORING_CATCH_UP_SECONDS``) re-sends whatever a lost message left behind.

Appends send their match's message through ``schedule_projection``, which sends none while
one sent earlier for the same match still waits in the queue (see there).
"""

from __future__ import annotations

import contextvars
import functools
import logging
from datetime import timedelta

import redis
from celery import shared_task
from django.conf import settings
from django.utils import timezone

from . import broker, resend, selectors, services
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
    With tasks eager (no broker), it runs now.

    A send the broker refuses is kept in this process and tried again until it goes out
    (``resend.held``: within about a second of the broker coming back, one message a match
    however many appends it had meanwhile), rather than left to the catch-up. While sends
    are held the broker is known to be away, so this one is kept without a try: the append's
    request does not wait on it.
    """
    app = project_match.app
    if app.conf.task_always_eager:
        project_match.delay(match_id)
        return
    if not resend.held.try_send(functools.partial(_send_projection, match_id, first=True)):
        _keep(match_id)


def _send_projection(match_id: int, *, first: bool) -> None:
    """Send the match's ``project_match``: its pending flag and the message. ``first``: the
    append's own send, which sends nothing if the flag is up; a kept send puts the flag up
    and sends whatever it finds (the flag may be its own first try's, whose push failed)."""
    client, args = _flags(), (match_id,)
    countdown = settings.SCORING_COALESCE_MS / 1000 or None
    if first:
        if not client.set(_pending_key(match_id), 1, nx=True, ex=PENDING_SECONDS):
            return  # the match's message still waits
    else:
        client.set(_pending_key(match_id), 1, ex=PENDING_SECONDS)
    queue = broker.queue_of(project_match, args)
    if queue is None:  # what the envelope does not cover: Celery's send
        project_match.apply_async(args, countdown=countdown)
    else:
        broker.send(client, project_match, args, queue, countdown)


def _keep(match_id: int) -> None:
    """Keep the match's send for ``resend.held``, in this context: its message carries the
    request id of the append that kept it last (deploy/logs.py)."""
    send = functools.partial(_send_projection, match_id, first=False)
    resend.held.keep(("project", match_id), functools.partial(contextvars.copy_context().run, send))


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
