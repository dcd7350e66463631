"""Sends the broker refused, kept in the process and tried again until it answers.

After an append commits, ``tasks.schedule_projection`` sends the match's ``project_match``.
With Redis down the send fails; the append has committed, so the request answers as ever,
and the beat's catch-up would send the task again, but only after up to
``SCORING_CATCH_UP_SECONDS`` (15 s) more, once the beat itself reaches Redis again. Here the
failed send is kept instead, and a thread of the process tries it again: first after
``FIRST_SECONDS`` (0.2 s), then after twice as long each time the broker still refuses, up
to ``MOST_SECONDS`` (1 s), each wait drawn between half and all of that (so the web processes
of a deployment do not all knock at the same moment). So what was kept goes out within about
a second of the broker coming back.

A send is kept under a key (``("project", match_id)``): a second failed send of the same key
replaces the first, since one task does the work of both (a projection folds the whole log),
so what is held is bounded by the matches in play, and never more than ``LIMIT`` keys (past
that the oldest is let go, with a warning: the catch-up finds it). While anything is held
the broker is known to be away, and ``holding()`` tells the senders to keep what they send
at once rather than wait on a broker that is not there.

What is held lives only in this process: a process killed meanwhile loses it, and then the
catch-up, which finds every match whose projection lags its log, sends it (the delay of one
catch-up period, as before). A process that exits on its own tries once more as it goes.
"""

from __future__ import annotations

import atexit
import logging
import os
import random
import threading
import time
from collections.abc import Callable, Hashable

import redis
from kombu.exceptions import OperationalError

log = logging.getLogger(__name__)

#: what a send raises when the broker is out of reach (kombu's for Celery's send)
BROKER_ERRORS = (redis.RedisError, OperationalError, OSError)

FIRST_SECONDS = 0.2
MOST_SECONDS = 1.0
LIMIT = 10_000

Send = Callable[[], None]


class Resender:
    """Failed sends, kept by key, tried again with a growing, jittered wait.

    ``clock`` and ``draw`` (a number in [0, 1)) are the tests' to replace; ``run`` is False
    to drive it by hand (``attempt``, ``due``) without a thread.
    """

    def __init__(
        self,
        *,
        first: float = FIRST_SECONDS,
        most: float = MOST_SECONDS,
        limit: int = LIMIT,
        clock: Callable[[], float] = time.monotonic,
        draw: Callable[[], float] = random.random,
        run: bool = True,
    ) -> None:
        self.first, self.most, self.limit = first, most, limit
        self.clock, self.draw, self.run = clock, draw, run
        self._reset()

    def _reset(self) -> None:
        self._pid = os.getpid()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._held: dict[Hashable, Send] = {}  # oldest first
        self._delay = self.first
        self._next: float | None = None  # when to try again (None: nothing held)
        self._since: float | None = None  # when the broker first refused, this outage
        self._thread: threading.Thread | None = None
        #: how many sends went out only on a later try, and how many were let go (the limit)
        self.resent = self.dropped = 0

    def _own(self) -> None:
        """A forked child starts with nothing held: what its parent held is the parent's to
        send, and the parent's thread is not in the child."""
        if os.getpid() != self._pid:
            self._reset()

    # --- what the senders call ------------------------------------------------------

    def holding(self) -> bool:
        """Whether sends are held (the broker refused the last try)."""
        self._own()
        return bool(self._held)

    def try_send(self, send: Send) -> bool:
        """Send now and return True; False when it was not sent, for the caller to ``keep``:
        sends are held (the broker is known to be away, so no request waits on it), or the
        broker refused this one."""
        if self.holding():
            return False
        try:
            send()
        except BROKER_ERRORS:
            return False
        return True

    def keep(self, key: Hashable, send: Send) -> None:
        """Keep ``send``, which failed or was not tried, to try again; the same ``key`` again
        replaces what was kept under it."""
        self._own()
        with self._lock:
            if key in self._held:
                self._held[key] = send
                return
            if len(self._held) >= self.limit:
                oldest = next(iter(self._held))
                del self._held[oldest]
                self.dropped += 1
                log.warning(
                    "broker: %d sends held, %r let go (the catch-up sends it)", self.limit, oldest
                )
            self._held[key] = send
            if self._next is None:  # the first of an outage
                self._since = self.clock()
                self._delay = self.first
                self._next = self._since + self._wait(self._delay)
                log.warning("broker: a send failed; kept, and tried again until it goes out")
        if self.run:
            self._start()
        self._wake.set()

    def held(self) -> list[Hashable]:
        """The keys held, oldest first."""
        self._own()
        with self._lock:
            return list(self._held)

    # --- the retries ----------------------------------------------------------------

    def due(self) -> float | None:
        """Seconds until the next try (0 or less: now), or None with nothing held."""
        with self._lock:
            return None if self._next is None else self._next - self.clock()

    def attempt(self) -> int:
        """Try what is held, oldest first, and stop at the first send that fails (the broker
        is still away: the next try waits twice as long, up to ``most``). Return how many
        went out."""
        self._own()
        with self._lock:
            items = list(self._held.items())
        sent = 0
        for key, send in items:
            try:
                send()
            except Exception as exc:
                with self._lock:
                    self._delay = min(self._delay * 2, self.most)
                    self._next = self.clock() + self._wait(self._delay)
                log.debug("broker: still refused (%s); %d sends held", exc, len(items) - sent)
                return sent
            sent += 1
            with self._lock:
                if self._held.get(key) is send:
                    del self._held[key]
        with self._lock:
            self.resent += sent
            if self._held:  # kept while these went out: the broker is back, so at once
                self._next = self.clock()
                return sent
            outage = 0.0 if self._since is None else self.clock() - self._since
            self._next = self._since = None
            self._delay = self.first
        log.warning(
            "broker: back; %d held sends went out %.1f s after the first failed", sent, outage
        )
        return sent

    def _wait(self, delay: float) -> float:
        return delay * (0.5 + 0.5 * self.draw())

    # --- the thread -----------------------------------------------------------------

    def _start(self) -> None:
        with self._lock:
            if self._thread is not None and self._thread.is_alive():
                return
            if self._thread is None:  # once a process
                atexit.register(self._last_try)
            self._thread = threading.Thread(target=self._loop, name="seep-resend", daemon=True)
            self._thread.start()

    def _loop(self) -> None:
        while True:
            self._wake.clear()
            wait = self.due()
            if wait is None or wait > 0:
                self._wake.wait(wait)
                continue
            try:
                self.attempt()
            except Exception:  # never let the thread die with sends held
                log.exception("broker: the held sends' try failed")
                time.sleep(self.most)

    def _last_try(self) -> None:
        if os.getpid() == self._pid and self._held:
            self.attempt()


#: this process's held sends (``tasks.schedule_projection``)
held = Resender()
