"""The hub a push process hears the live messages with, and the feeds it keeps.

A push process (live.server, and the web process's own streams under ``make run``) holds one
:class:`Hub` per event loop: one subscription to the channel (live.publish), and one
:class:`Feed` per thing watched (a tournament's live part, a match's), which reads and renders
once per change and offers the result to every subscriber of it. A message pokes the feeds that
follow its topics (live.messages: a stage's or a result's message names its tournament too, so
no read is needed to find whose page it changes). A subscription keeps only the latest item (a
page needs only where things stand now), so a slow viewer costs one item, never a growing
queue. The feeds' loaders and renderers come from the apps above (the pages' web.push, the
API's api.stream): this package imports none of them.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import gc
import heapq
import itertools
import logging
import math
import os
import random
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connection, connections
from django.utils import timezone

from .messages import Message
from .publish import channel, listen

log = logging.getLogger(__name__)

# A push process reads the database in ``PUSH_DB_THREADS`` threads (4; each holds one
# connection): each stream's admission, a match's head, an integrator's page, whatever the
# number of streams. It renders the live parts in ``PUSH_RENDER_PROCESSES`` processes of its
# own (2; each holds one connection). A render is Python: in a thread it would hold the
# interpreter's lock against the event loop that writes every change to every viewer (and a
# tournament of 512 teams takes 70 ms); in a process of its own it runs on another core. 0
# renders in the database threads (always so on SQLite, whose test database a process of
# its own cannot see).

#: render processes that died this many times within BREAKS_SECONDS are given up for
#: RENDER_PAUSE_SECONDS (the parts are rendered in the database threads meanwhile): a render
#: that kills its process must not respawn interpreters for every change
BREAKS, BREAKS_SECONDS, RENDER_PAUSE_SECONDS = 3, 60.0, 300.0

#: how often a hub looks again at every feed it holds, whatever it heard (a lost message,
#: a change made around the publishers: a row changed in a database shell); spread over
#: RECHECK_STEPS steps, each feed in one (a push process holds hundreds of match sheets: all
#: looked at in one moment, their reads queued before a change's)
RECHECK_SECONDS, RECHECK_STEPS = 15.0, 15
#: a push process out of touch with Redis tries again after this long, then twice as long each
#: time, up to the most (seconds)
SUBSCRIBE_FIRST_SECONDS, SUBSCRIBE_MOST_SECONDS = 0.2, 1.0
#: the least time from the start of a feed's load to the start of its next one (seconds)
SPACING_SECONDS = 0.5
#: the resolution of the hub's timers (a stream's heartbeat, an API stream's recheck, a
#: stuck write's limit): one wake-up a tick for the whole process, instead of an event-loop
#: timer set and cancelled for every message to every connection
TICK_SECONDS = 0.25


class Timer:
    """One of a :class:`Timers`' callbacks, until it is cancelled or called."""

    __slots__ = ("callback", "slot", "slots")

    def __init__(
        self, slots: dict[int, set[Timer]], slot: int, callback: Callable[[], None]
    ) -> None:
        self.slots, self.slot, self.callback = slots, slot, callback

    def cancel(self) -> None:
        due = self.slots.get(self.slot)
        if due is not None:
            due.discard(self)


class Timers:
    """Coarse timers for thousands of connections: each waits in a slot of ``TICK_SECONDS``,
    and one task a process calls the slots that came due. Setting or cancelling one is a set's
    add or discard (an event loop's own timer is a heap entry made and removed each time)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.slots: dict[int, set[Timer]] = {}
        self.done = math.floor(loop.time() / TICK_SECONDS)  # every slot up to it was called

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        """Call ``callback()`` ``delay`` seconds from now (up to a tick later)."""
        slot = max(math.ceil((self.loop.time() + delay) / TICK_SECONDS), self.done + 1)
        timer = Timer(self.slots, slot, callback)
        self.slots.setdefault(slot, set()).add(timer)
        return timer

    def fire(self) -> None:
        """Call every timer that came due."""
        now = math.floor(self.loop.time() / TICK_SECONDS)
        for slot in range(self.done + 1, now + 1):
            self.done = slot  # first: a timer set by a callback goes to a slot still to come
            for timer in self.slots.pop(slot, ()):
                try:
                    timer.callback()
                except Exception:
                    log.exception("live: a timer's callback failed")

    async def run(self) -> None:
        while True:
            await asyncio.sleep(TICK_SECONDS)
            self.fire()


class Gate:
    """At most ``slots`` jobs at once (a pool's threads or processes); the others wait, the
    job of the feed with the most viewers first, then in the order they came. A room's page
    (thousands of viewers) is never queued behind the match sheets that changed with it."""

    def __init__(self, slots: int) -> None:
        self.free = slots
        self.waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    async def run(self, weight: int, job: Callable[[], Awaitable[Any]]) -> Any:
        """Run ``job()`` once a slot is free (the heaviest waiting first) and return what it
        returns."""
        if self.free > 0 and not self.waiting:
            self.free -= 1
        else:
            turn = asyncio.get_running_loop().create_future()
            heapq.heappush(self.waiting, (-weight, next(self._order), turn))
            try:
                await turn
            except asyncio.CancelledError:
                if turn.done() and not turn.cancelled():  # handed the slot, then cancelled
                    self._release()
                raise
        try:
            return await job()
        finally:
            self._release()

    def _release(self) -> None:
        while self.waiting:
            _, _, turn = heapq.heappop(self.waiting)
            if not turn.done():  # (a waiter cancelled meanwhile is passed over)
                turn.set_result(None)
                return
        self.free += 1


class Subscription:
    """What one connection is waiting for: the latest item a feed offered it, or the word
    that it was dropped. Holds at most one item (the newest replaces an unsent one)."""

    __slots__ = ("_timers", "_waiter", "closed", "has_item", "item")

    def __init__(self, timers: Timers) -> None:
        self.item: Any = None
        self.has_item = False
        self.closed: str | None = None
        self._timers = timers
        self._waiter: asyncio.Future[None] | None = None

    def offer(self, item: Any) -> None:
        self.item, self.has_item = item, True
        self._wake()

    def close(self, reason: str) -> None:
        self.closed = reason
        self._wake()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def next(self, timeout: float) -> Any:
        """Return the item offered since the last call (None after ``timeout`` without one,
        or once closed: then ``closed`` says why)."""
        if not self.has_item and self.closed is None:
            waiter = self._waiter = self._timers.loop.create_future()
            timer = self._timers.call_later(timeout, self._wake)
            try:
                await waiter
            finally:
                timer.cancel()
                self._waiter = None
        if not self.has_item:
            return None
        item, self.item, self.has_item = self.item, None, False
        return item


#: whether the running task is a feed's load (its reads go to the feeds' threads)
_loading: contextvars.ContextVar[bool] = contextvars.ContextVar("live_loading", default=False)
#: the viewers of the feed the running task loads for (its place in the gates' queues)
_weight: contextvars.ContextVar[int] = contextvars.ContextVar("live_weight", default=0)

#: a feed's loader: reads (in a worker thread) and returns (version, item), or None when the
#: thing is gone
Loader = Callable[[], Awaitable[tuple[str, Any] | None]]


class Feed:
    """One watched thing: loaded once per change whatever the number of subscribers, and
    each change offered to every one of them."""

    def __init__(self, hub: Hub, key: str, topics: Iterable[str], load: Loader) -> None:
        self.hub, self.key, self.topics, self.load = hub, key, set(topics), load
        self.subscribers: set[Any] = set()  # Subscriptions, or the push process's writers
        self.version: str | None = None
        self.item: Any = None
        self.loaded = asyncio.Event()
        self.phase = random.randrange(RECHECK_STEPS)  # the recheck's step it is looked at in
        self._running = False
        self._again = False

    def poke(self) -> None:
        """Something this feed shows may have changed: load it again (once, whatever the
        number of pokes while a load runs)."""
        if self._running:
            self._again = True
            return
        self._running = True
        self.hub.spawn(self._run())

    async def _run(self) -> None:
        _loading.set(True)  # this task's (hub.spawn gives each a context of its own)
        try:
            while True:
                self._again = False
                started = self.hub.loop.time()
                _weight.set(len(self.subscribers) + 1)  # (a new feed's first viewer waits)
                try:
                    got = await self.load()
                except Exception:
                    log.exception("live: loading %s failed", self.key)
                    got = None if self.version is None else (self.version, self.item)
                if got is None:
                    for sub in list(self.subscribers):
                        sub.close("gone")
                elif got[0] != self.version:
                    self.version, self.item = got
                    for sub in list(self.subscribers):
                        sub.offer(got)
                self.loaded.set()
                if not self._again:
                    return
                # changed again meanwhile: loaded again, once, at most every SPACING_SECONDS
                # (a room's page changing at every deal of 256 tables is not rendered and sent
                # to its thousands of viewers back to back, with the other feeds waiting)
                await asyncio.sleep(max(0.0, started + SPACING_SECONDS - self.hub.loop.time()))
        finally:
            self._running = False


class Relay:
    """A feed's subscriber that passes each change of it on as a topic of its own (the feed's
    key, :meth:`Hub.relay`): the feeds following that topic are poked. A tournament's
    visibility is read once per change of the tournament for all its match sheets, instead of
    once by each sheet."""

    def __init__(self, hub: Hub, topic: str) -> None:
        self.hub, self.topic = hub, topic
        self.feed: Feed | None = None
        self._first = True

    def offer(self, item: Any) -> None:
        if self._first:  # the item it was attached with: nothing changed yet
            self._first = False
            return
        self.hub._poke(self.topic)

    def close(self, reason: str) -> None:
        self.hub._poke(self.topic)


class Hub:
    """This process's one subscription to the channel, and the feeds it keeps."""

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        # SQLite takes one writer at a time, and its shared in-memory test database locks
        # whole tables: one thread there
        threads = 1 if connection.vendor == "sqlite" else settings.PUSH_DB_THREADS
        # the feeds' reads in threads of their own (half of them), so that a room's
        # admissions (a push process gone: thousands of its viewers back at once) never queue
        # the next change's read behind them
        feeding = threads // 2
        self.pool = ThreadPoolExecutor(threads - feeding, thread_name_prefix="live-db")
        self.feed_pool = (
            ThreadPoolExecutor(feeding, thread_name_prefix="live-feed") if feeding else self.pool
        )
        # the feeds' reads and renders queue here, the most watched first
        self.feed_gate = Gate(feeding or threads)
        self.render_gate = Gate(max(settings.PUSH_RENDER_PROCESSES, 1))
        self.renderer: ProcessPoolExecutor | None = None
        self._warming: list[Future[None]] = []
        self._new_renderer()
        self._breaks: list[float] = []  # when render pools broke, lately
        self.feeds: dict[str, Feed] = {}
        self.by_topic: dict[str, set[Feed]] = {}
        self.relays: dict[str, Relay] = {}  # by the topic each pokes (its feed's key)
        self._tasks: set[asyncio.Task[Any]] = set()
        self.timers = Timers(self.loop)
        self._undo = listen(self._heard_threadsafe)
        self.spawn(self.timers.run())
        self.spawn(self._recheck())
        url = getattr(settings, "REDIS_URL", "") or ""
        if url:
            self.spawn(self._subscribe(url))

    async def db(self, work: Callable[..., Any], *args: Any) -> Any:
        """Run ``work(*args)`` in one of the hub's database threads (a bounded number of
        connections, kept between calls; a feed's load in one of the feeds'), and return what
        it returns."""
        job = functools.partial(_job, work, *args)
        if not _loading.get():
            return await self.loop.run_in_executor(self.pool, job)
        return await self.feed_gate.run(
            _weight.get(), lambda: self.loop.run_in_executor(self.feed_pool, job)
        )

    def _new_renderer(self) -> None:
        """New render processes, started at once (an interpreter and Django each take a second
        or more to start: a push process just started again would keep its first viewers
        waiting that long)."""
        self.renderer = _renderer(connection.vendor)
        self._warming = (
            []
            if self.renderer is None
            else [self.renderer.submit(_warm) for _ in range(settings.PUSH_RENDER_PROCESSES)]
        )

    def _renderer_ready(self) -> bool:
        """Whether a render process has started (answered its first job)."""
        if not self._warming:
            return True
        if any(f.done() for f in self._warming):
            self._warming = []
            return True
        return False

    async def render(self, work: Callable[..., Any], *args: Any) -> Any:
        """Run ``work(*args)`` in one of the hub's render processes (``work`` and its
        arguments are sent there by name: a function of a module's top level, plain values),
        or in a database thread when it has none, or none has started yet; return what it
        returns."""
        renderer = self.renderer
        if renderer is None or not self._renderer_ready():
            return await self.db(work, *args)
        job = functools.partial(_job, work, *args)
        try:
            return await self.render_gate.run(
                _weight.get(), lambda: self.loop.run_in_executor(renderer, job)
            )
        except BrokenProcessPool:  # one died (killed, out of memory): a new pool, this time here
            if self.renderer is renderer:
                renderer.shutdown(wait=False, cancel_futures=True)
                now = self.loop.time()
                self._breaks = [t for t in self._breaks if now - t < BREAKS_SECONDS] + [now]
                if len(self._breaks) >= BREAKS:  # they keep dying: render here for a while
                    log.error(
                        "live: render processes died %d times in %.0f s; rendering in the "
                        "database threads for %.0f s",
                        len(self._breaks),
                        BREAKS_SECONDS,
                        RENDER_PAUSE_SECONDS,
                    )
                    self.renderer = None
                    self._breaks = []
                    self.spawn(self._render_again_later())
                else:
                    log.warning("live: a render process died; starting new ones")
                    self._new_renderer()
            return await self.db(work, *args)

    async def _render_again_later(self) -> None:
        await asyncio.sleep(RENDER_PAUSE_SECONDS)
        if self.renderer is None:
            self._new_renderer()

    async def release(self) -> None:
        """Stop hearing changes and close the database connection of every one of the hub's
        threads (at the end): its tasks are cancelled and awaited first, so that no feed's
        reload opens a connection again after its thread's was closed."""
        self._undo()
        tasks = [t for t in self._tasks if t is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for pool in {self.pool, self.feed_pool}:
            count = pool._max_workers
            barrier = threading.Barrier(count)

            def close(barrier: threading.Barrier = barrier) -> None:
                connections.close_all()
                barrier.wait(10)  # each job in a thread of its own

            await asyncio.gather(*(self.loop.run_in_executor(pool, close) for _ in range(count)))
            pool.shutdown(wait=False)  # its threads end: nothing is sent to them again
        renderer, self.renderer = self.renderer, None
        if renderer is not None:  # its processes end (and their connections with them)
            stop = functools.partial(renderer.shutdown, wait=True, cancel_futures=True)
            await self.loop.run_in_executor(None, stop)

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> None:
        """Run ``coroutine`` on the hub's loop, outside the context of whichever request
        caused it (its thread for database work ends with that request)."""
        task = self.loop.create_task(coroutine, context=contextvars.Context())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def subscribe(
        self, key: str, topics: Iterable[str], load: Loader
    ) -> tuple[Feed, Subscription]:
        """Return the feed ``key`` (made and loaded first if new) and a new subscription to it,
        offered the feed's current item."""
        sub = Subscription(self.timers)
        return await self.attach(key, topics, load, sub), sub

    async def attach(self, key: str, topics: Iterable[str], load: Loader, subscriber: Any) -> Feed:
        """Add ``subscriber`` (anything with ``offer(item)`` and ``close(reason)``) to the feed
        ``key`` (made and loaded first if new), and offer it the feed's current item."""
        feed = self.feeds.get(key)
        if feed is None:
            feed = self.feeds[key] = Feed(self, key, topics, load)
            for topic in feed.topics:
                self.by_topic.setdefault(topic, set()).add(feed)
            feed.poke()
        await feed.loaded.wait()
        feed.subscribers.add(subscriber)
        if feed.version is not None:
            subscriber.offer((feed.version, feed.item))
        return feed

    async def relay(self, key: str, topics: Iterable[str], load: Loader) -> str:
        """Keep the feed ``key`` (made and loaded first if new) while any feed follows it,
        and return the topic each of its changes pokes (its key)."""
        if key not in self.relays:
            relay = self.relays[key] = Relay(self, key)
            relay.feed = await self.attach(key, topics, load, relay)
            if self.relays.get(key) is not relay:  # let go while it was made
                self.unsubscribe(relay.feed, relay)
        return key

    def unsubscribe(self, feed: Feed, sub: Any) -> None:
        feed.subscribers.discard(sub)
        if not feed.subscribers and self.feeds.get(feed.key) is feed:
            del self.feeds[feed.key]
            for topic in feed.topics:
                watchers = self.by_topic.get(topic)
                if watchers is not None:
                    watchers.discard(feed)
                    if not watchers:
                        del self.by_topic[topic]
                        self._unrelay(topic)

    def _unrelay(self, topic: str) -> None:
        """No feed follows ``topic`` any more: its relay's feed is let go."""
        relay = self.relays.pop(topic, None)
        if relay is not None and relay.feed is not None:
            self.unsubscribe(relay.feed, relay)

    def _heard_threadsafe(self, message: str) -> None:
        if self.loop.is_closed():
            return
        self.loop.call_soon_threadsafe(self.heard_message, message)

    def heard_message(self, raw: str | bytes) -> None:
        message = Message.decode(raw)
        if message is None:
            return
        for topic in message.feeds():
            self._poke(topic)

    def _poke(self, topic: str) -> None:
        for feed in list(self.by_topic.get(topic, ())):
            feed.poke()

    def poke_all(self) -> None:
        for feed in list(self.feeds.values()):
            feed.poke()

    async def _recheck(self) -> None:
        """Look again at every feed each ``RECHECK_SECONDS``: at a step of its own."""
        for step in itertools.cycle(range(RECHECK_STEPS)):
            await asyncio.sleep(RECHECK_SECONDS / RECHECK_STEPS)
            for feed in list(self.feeds.values()):
                if feed.phase == step:
                    feed.poke()

    async def _subscribe(self, url: str) -> None:
        """Hear the channel; while Redis is out of reach, try again after 0.2 s, then twice as
        long each time up to 1 s (drawn between half and all of it, so the push processes do
        not all knock at once): back within about a second of Redis, every feed looked at
        again (what changed while no one listened)."""
        import redis.asyncio as aioredis

        step = SUBSCRIBE_FIRST_SECONDS
        while True:
            client = aioredis.Redis.from_url(url)
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.subscribe(channel(url))
                    step = SUBSCRIBE_FIRST_SECONDS
                    self.poke_all()  # what changed while no one listened
                    async for message in pubsub.listen():
                        if message.get("type") == "message":
                            self.heard_message(message["data"])
            except asyncio.CancelledError:
                raise
            except Exception:
                pause = step * (0.5 + random.random() / 2)
                log.warning("live: the channel is out of reach; again in %.1f s", pause)
                await asyncio.sleep(pause)
                step = min(step * 2, SUBSCRIBE_MOST_SECONDS)
            finally:
                await client.aclose()


def _renderer(vendor: str) -> ProcessPoolExecutor | None:
    if settings.PUSH_RENDER_PROCESSES <= 0 or vendor == "sqlite":
        return None
    import multiprocessing

    # spawned, not forked: the push process has threads (and a forked child keeps their locks)
    return ProcessPoolExecutor(
        settings.PUSH_RENDER_PROCESSES,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_renderer,
        initargs=(connections["default"].settings_dict["NAME"], os.getpid()),
    )


def _warm() -> None:
    """A render process's first job: it has started (its initializer ran)."""


def _start_renderer(database: str, parent: int) -> None:
    """A render process's start: its parent's settings (DJANGO_SETTINGS_MODULE), on the
    database its parent uses (the test suite's own, under pytest). ``parent``: the push
    process's id, as it said it (one that died while this process started, before it could
    ask, would have been taken for the process that adopted it: it stayed for ever)."""
    import django

    django.setup(set_prefix=False)
    gc.collect()  # what it loaded, set aside from the collector's full passes (a render
    gc.freeze()  # stopped by one is a viewer kept waiting): as a push process's own
    connections["default"].settings_dict["NAME"] = database  # before it first connects

    def orphaned() -> None:  # a parent killed outright never tells its pool to stop
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=orphaned, name="render-parent", daemon=True).start()


#: a database thread that did a job this recently skips the connection's health check (a
#: ``SELECT 1`` round trip, otherwise paid by every feed's reload): its last job just used it
FRESH_SECONDS = 1.0
_last_job = threading.local()


def _fresh() -> bool:
    """Whether this thread's connections need no look before the next job: its last job
    ended within ``FRESH_SECONDS``, and none had an error, is past its age, or was left out
    of autocommit (what ``close_old_connections`` looks at, but its health check)."""
    now = time.monotonic()
    if now - getattr(_last_job, "ended", -FRESH_SECONDS) >= FRESH_SECONDS:
        return False
    for conn in connections.all(initialized_only=True):
        if conn.errors_occurred or (conn.close_at is not None and now >= conn.close_at):
            return False
        if conn.connection is not None and (
            conn.get_autocommit() != conn.settings_dict["AUTOCOMMIT"]
        ):
            return False
    return True


def _job(work: Callable[..., Any], *args: Any) -> Any:
    if not _fresh():
        close_old_connections()  # one gone or past its age is replaced
    else:
        # its last job just used it: no SELECT 1 before this one's first query either (a
        # stream's admission ends with request_finished, which asks for that check again:
        # a round trip more for every viewer admitted)
        for conn in connections.all(initialized_only=True):
            if conn.connection is not None:
                conn.health_check_done = True  # type: ignore[attr-defined]  # not in the stubs
    timezone.deactivate()  # a thread serves every tournament: none's zone is kept
    try:
        result = work(*args)
    except BaseException:
        _last_job.ended = -FRESH_SECONDS  # checked again before the next job
        raise
    _last_job.ended = time.monotonic()
    return result


_hubs: dict[int, Hub] = {}


def hub() -> Hub:
    """Return this event loop's hub (made at the first call)."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(id(loop))
    if found is None or found.loop is not loop or loop.is_closed():
        found = _hubs[id(loop)] = Hub()
    return found
