"""Webhook deliveries without a broker (the embedded default, ``make run``): a thread of the
process sends them after the response and tries a failed one again when it is due.

With a broker, Celery's webhook workers do this (``api.tasks.deliver``) and nothing here runs.
Without one, Celery runs a task in the caller: a delivery's attempt would run inside the API
request that made it (on commit), so a slow receiver would slow the append, and a failed
attempt would wait for a catch-up no beat sends. So the request only hands the delivery's id
to this thread (``sender.submit``, from ``tasks.dispatch``), and the thread makes the attempt
as a worker does (``tasks.attempt``: claimed, counted before it is sent, recorded), keeps a
delivery to be tried again until its ``next_attempt_at`` (the stack's backoff), and every
``SCORING_CATCH_UP_SECONDS`` takes what the stack's catch-up would
(``tasks.due_deliveries``: deliveries an earlier run of the process left pending, or that a
command made). One thread a process, started by the first delivery; it dies with the process,
and what it held is found again by the next run's catch-up: a delivery is late, never lost.
"""

from __future__ import annotations

import heapq
import logging
import threading
import time

from django.conf import settings
from django.db import connections
from django.utils import timezone

log = logging.getLogger(__name__)


class _Stop(Exception):
    """The sender is told to stop (``Sender.stop``)."""


class Sender:
    """The deliveries this process holds, by when each is due, and the thread that sends them."""

    def __init__(self) -> None:
        self._due: list[tuple[float, int]] = []  # (time.monotonic() it is due, delivery id)
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None
        self._last_catch_up = 0.0
        self._stopping = False

    def submit(self, delivery_id: int, *, delay: float = 0.0) -> None:
        """Have delivery ``delivery_id`` tried ``delay`` seconds from now (by the thread)."""
        with self._changed:
            heapq.heappush(self._due, (time.monotonic() + delay, delivery_id))
            self._start()
            self._changed.notify()

    def ensure_running(self) -> None:
        """Start the thread if it is not running (its catch-ups then run every
        ``SCORING_CATCH_UP_SECONDS``, the first one at once)."""
        with self._changed:
            if self._start():
                self._last_catch_up = 0.0  # a process that just started: catch up now
                self._changed.notify()

    def _start(self) -> bool:
        """Start the thread unless it runs (the condition held); return whether it started."""
        if self._thread is not None and self._thread.is_alive():
            return False
        self._stopping = False
        self._last_catch_up = time.monotonic()
        self._thread = threading.Thread(target=self._run, name="seep-webhooks", daemon=True)
        self._thread.start()
        return True

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the thread once its attempt in hand is done; what it held is dropped (a
        catch-up finds it again). For tests, which must not leave it running."""
        with self._changed:
            self._stopping = True
            self._due.clear()
            self._changed.notify()
            thread = self._thread
        if thread is not None:
            thread.join(timeout)

    def held(self) -> list[int]:
        """Return the ids of the deliveries waiting in this process, soonest first."""
        with self._changed:
            return [delivery_id for _, delivery_id in sorted(self._due)]

    def _next(self) -> int | None:
        """Wait for the next due delivery and return its id (None: a catch-up is due)."""
        with self._changed:
            while True:
                if self._stopping:
                    raise _Stop
                now = time.monotonic()
                catch_up = self._last_catch_up + settings.SCORING_CATCH_UP_SECONDS
                if now >= catch_up:
                    self._last_catch_up = now
                    return None
                if self._due and self._due[0][0] <= now:
                    return heapq.heappop(self._due)[1]
                wake = min(self._due[0][0], catch_up) if self._due else catch_up
                self._changed.wait(timeout=wake - now)

    def _run(self) -> None:
        while True:
            try:
                delivery_id = self._next()
            except _Stop:
                return
            try:
                if delivery_id is None:
                    self._catch_up()
                else:
                    self._attempt(delivery_id)
            except Exception:
                log.exception("webhook delivery %s: the attempt failed to run", delivery_id)
            finally:
                connections.close_all()  # this thread's own: none is kept while it waits

    def _attempt(self, delivery_id: int) -> None:
        from .models import WebhookDelivery
        from .tasks import attempt

        if attempt(delivery_id) is not False:
            return  # delivered, given up, or not due (then its holder, or a catch-up, has it)
        due = (
            WebhookDelivery.objects.filter(pk=delivery_id)
            .values_list("next_attempt_at", flat=True)
            .first()
        )
        wait = 0.0 if due is None else (due - timezone.now()).total_seconds()
        self.submit(delivery_id, delay=max(wait, 0.0))

    def _catch_up(self) -> None:
        from .tasks import due_deliveries
        from .webhooks import consume, lagging

        for tournament_id in lagging():  # happenings a killed process made no delivery of
            consume(tournament_id)
        held = set(self.held())
        for delivery_id in due_deliveries().order_by("pk").values_list("pk", flat=True)[:500]:
            if delivery_id not in held:
                self.submit(delivery_id)


#: the process's one sender
sender = Sender()
