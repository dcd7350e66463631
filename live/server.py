"""The push process's application: the live streams, under uvicorn (an ASGI server: one event
loop holds thousands of open connections).

deploy/push.py makes the one the deployment runs (``uvicorn deploy.push:application``,
deploy/Procfile's ``push``): the paths it serves, the URLs it resolves them against, and the
problem document the API's refusals are written as. Any other path is a plain 404 here; a
proxy in front routes the served paths here and the rest to gunicorn (docs/deploy.md).

Each request goes through Django as a WSGI request would: the whole middleware chain and the
view, synchronously, in one of the hub's few database threads (live.feeds, ``PUSH_DB_THREADS``;
the live parts are rendered in ``PUSH_RENDER_PROCESSES`` processes of its own). Django's own
ASGI handler would keep a thread (and its database connection) for every open stream instead.
A view that admits the caller answers a ``StreamResponse``; this module then writes its
events from the event loop, and nothing else runs for that connection until an event or its
heartbeat is due.

Open streams are counted, in all and per client address (``PUSH_MAX_STREAMS``,
``PUSH_MAX_STREAMS_PER_CLIENT``; the total also kept under the process's limit of open files,
which it raises to the hard limit first): one more is refused before Django sees it, 429
(that address has too many) or 503 (the process is full), each with ``Retry-After`` (a
problem document for the API's streams, plain text for the pages'), so that one client's
thousand idle streams never take ``/healthz`` or anyone else's streams down. A stream its view
admitted is counted once more against the quota its response names (``StreamResponse.quota``:
its club's, ``QUOTA_PUSH_STREAMS``), in this process: one more is refused, 429
``quota_exceeded`` with ``Retry-After``, before its first byte.

A client that stops reading is not buffered for: each write waits at most
``PUSH_SEND_TIMEOUT`` seconds for the socket (uvicorn waits while its buffer is full), then
the connection is closed and the log says why. A client that goes away ends its stream at
once (``http.disconnect``).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import ipaddress
import json
import logging
import os
import re
import resource
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.core.handlers.base import BaseHandler
from django.http import HttpResponse
from django.urls import set_script_prefix

from .feeds import TICK_SECONDS, Hub, hub
from .responses import FeedResponse, StreamResponse

log = logging.getLogger(__name__)

#: how long one write may wait for a client that does not read (seconds)
SEND_TIMEOUT = float(os.environ.get("PUSH_SEND_TIMEOUT", "") or 30)
#: the largest request body read (the streams are GETs)
MAX_BODY = 64 * 1024
#: open files kept back from the streams: the database connections, the render processes'
#: pipes, Redis, the logs, /healthz and a refusal's own socket
FILES_KEPT = 128
#: what a refused stream is told to wait before it asks again (seconds)
RETRY_AFTER = 10
#: a refusal as a problem document: (status, code, detail) -> the document
Problem = Callable[[int, str, str], dict[str, Any]]


def open_files() -> int:
    """Return how many files this process may open, after raising its soft limit to the hard
    one (a refusal needs a socket too: past the limit the server accepts no one at all)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


def client_address(scope: dict[str, Any]) -> str:
    """The address a client's streams are counted by: the connection's (uvicorn puts the
    forwarded one there when the proxy is trusted, ``FORWARDED_ALLOW_IPS``), an IPv6 address
    by its /64 (one machine is often given a whole one)."""
    client = scope.get("client") or ("", 0)
    try:
        address = ipaddress.ip_address(str(client[0]))
    except ValueError:
        return str(client[0])
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False).network_address)
    return str(address)


class Streams:
    """The streams open now, in all and per client address, under their caps. Only the event
    loop's task touches it (no lock)."""

    def __init__(self, total: int, per_client: int) -> None:
        self.total, self.per_client = total, per_client
        self.open = 0
        self.by_client: dict[str, int] = {}
        self.by_quota: dict[str, int] = {}

    def enter(self, address: str) -> tuple[int, str, str] | None:
        """Count one more stream of ``address``; or return why not (status, code, detail)."""
        if self.by_client.get(address, 0) >= self.per_client:
            return (
                429,
                "too_many_streams",
                f"This address holds {self.per_client} streams open already: close one, or "
                f"connect again in {RETRY_AFTER} s.",
            )
        if self.open >= self.total:
            return (
                503,
                "streams_busy",
                f"This push process holds as many streams as it may: connect again in "
                f"{RETRY_AFTER} s.",
            )
        self.open += 1
        self.by_client[address] = self.by_client.get(address, 0) + 1
        return None

    def enter_quota(self, whose: str, most: int) -> tuple[int, str, str] | None:
        """Count one more stream against ``whose`` quota of ``most``; or return why not."""
        held = self.by_quota.get(whose, 0)
        if held >= most:
            return (
                429,
                "quota_exceeded",
                f"The quota of live streams open at once is {most} for {whose}, and this "
                f"push process holds {held} of them: close one, or connect again in "
                f"{RETRY_AFTER} s.",
            )
        self.by_quota[whose] = held + 1
        return None

    def leave_quota(self, whose: str) -> None:
        left = self.by_quota[whose] - 1
        if left:
            self.by_quota[whose] = left
        else:
            del self.by_quota[whose]

    def leave(self, address: str) -> None:
        self.open -= 1
        left = self.by_client[address] - 1
        if left:
            self.by_client[address] = left
        else:
            del self.by_client[address]


class _Handler(BaseHandler):
    """Django's request handling (the middleware chain, the URLs, the view), synchronous."""

    def __init__(self, urlconf: str) -> None:
        super().__init__()
        self.urlconf = urlconf
        self.load_middleware(is_async=False)

    def respond(self, scope: dict[str, Any], body: bytes) -> HttpResponse:
        set_script_prefix(scope.get("root_path", "") or "/")
        request = ASGIRequest(scope, io.BytesIO(body))
        request.urlconf = self.urlconf
        response = self.get_response(request)
        assert isinstance(response, HttpResponse)  # no view of the push process streams
        return response


class PushApplication:
    """The ASGI callable: the paths ``served`` matches (``/healthz`` among them, never
    counted as a stream), resolved against ``urlconf``; a refused stream of a path ``api``
    matches is told so as ``problem`` writes it (``problem_type`` its content type), the
    others' in plain text."""

    def __init__(
        self,
        *,
        urlconf: str,
        served: re.Pattern[str],
        api: re.Pattern[str],
        problem: Problem,
        problem_type: str,
        timeout: float = SEND_TIMEOUT,
    ) -> None:
        self.handler = _Handler(urlconf)
        self.served, self.api = served, api
        self.problem, self.problem_type = problem, problem_type
        self.timeout = timeout
        files = open_files() - FILES_KEPT
        total = settings.PUSH_MAX_STREAMS
        if files < total:
            log.warning(
                "push: PUSH_MAX_STREAMS is %d, but this process may open only %d files: "
                "at most %d streams",
                total,
                files + FILES_KEPT,
                max(files, 1),
            )
        self.streams = Streams(max(min(total, files), 1), settings.PUSH_MAX_STREAMS_PER_CLIENT)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] != "http":
            return
        path = scope.get("path", "")
        if not self.served.match(path):
            await _plain(send, 404, b"Not found: this process serves the live streams only.\n")
            return
        if path == "/healthz":
            await self._serve(scope, receive, send)
            return
        address = client_address(scope)
        refused = self.streams.enter(address)
        if refused is not None:
            await self._refuse(send, path, *refused)
            return
        try:
            await self._serve(scope, receive, send)
        finally:
            self.streams.leave(address)

    async def _serve(self, scope: Any, receive: Any, send: Any) -> None:
        body = b""
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > MAX_BODY:
                await _plain(send, 413, b"Too large.\n")
                return
            if not message.get("more_body"):
                break
        hub_ = hub()
        response = await hub_.db(self.handler.respond, scope, body)
        quota = response.quota if isinstance(response, StreamResponse) else None
        if quota is not None:
            refused = self.streams.enter_quota(*quota)
            if refused is not None:
                await hub_.db(response.close)
                await self._refuse(send, scope.get("path", ""), *refused)
                return
        try:
            await send(
                {
                    "type": "http.response.start",
                    "status": response.status_code,
                    "headers": _headers(response),
                }
            )
            if isinstance(response, FeedResponse):
                await self._feed(response, hub_, receive, send, scope)
            elif isinstance(response, StreamResponse):
                await self._stream(response, hub_, receive, send, scope)
            else:
                await send({"type": "http.response.body", "body": response.content})
        finally:
            if quota is not None:
                self.streams.leave_quota(quota[0])
            await hub_.db(response.close)  # request_finished: the thread's connection kept tidy

    async def _refuse(self, send: Any, path: str, status: int, code: str, detail: str) -> None:
        """A stream refused before it began: a problem document for the API's streams (the
        API's one error shape), plain text for the pages' (their EventSource polls instead)."""
        retry = [(b"retry-after", str(RETRY_AFTER).encode())]
        if self.api.match(path):
            body = json.dumps(self.problem(status, code, detail)).encode()
            await _plain(send, status, body, retry, self.problem_type.encode())
        else:
            await _plain(send, status, detail.encode() + b"\n", retry)

    def _dropped(self, scope: Any) -> None:
        log.info(
            "push: dropped a client that read nothing for %.0f s: %s",
            self.timeout,
            scope.get("path"),
        )

    async def _feed(
        self, response: FeedResponse, hub: Hub, receive: Any, send: Any, scope: Any
    ) -> None:
        """A feed's viewer: written to from the feed's offers (:class:`Writer`); this task
        only waits for the client to go or the stream to end."""
        writer = Writer(send, response, hub, self.timeout)
        writer.write(response.first)
        feed = None
        gone = asyncio.ensure_future(_disconnect(receive))
        try:
            feed = await hub.attach(response.key, response.topics, response.load, writer)
            waits: list[asyncio.Future[Any]] = [gone, writer.ended]
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            client_gone = gone.done()
            if feed is not None:
                hub.unsubscribe(feed, writer)
            gone.cancel()
            await writer.stop()
        if writer.ended.done() and writer.ended.result() == "stuck":
            self._dropped(scope)
        elif not client_gone:  # the stream ended (the thing is gone): the response too
            with contextlib.suppress(Exception):
                async with asyncio.timeout(self.timeout):
                    await send({"type": "http.response.body", "body": b""})

    async def _stream(
        self, response: StreamResponse, hub: Hub, receive: Any, send: Any, scope: Any
    ) -> None:
        stuck = False

        async def pump() -> None:
            task = asyncio.current_task()
            assert task is not None

            def drop() -> None:  # a write still waiting for the client after the limit
                nonlocal stuck
                stuck = True
                task.cancel()

            assert response.events is not None
            async with contextlib.aclosing(response.events(hub)) as events:  # type: ignore[type-var]
                async for chunk in events:
                    message = {"type": "http.response.body", "body": chunk, "more_body": True}
                    # a hub timer, not asyncio.timeout: that sets and cancels an event loop
                    # timer for every message to every viewer
                    limit = hub.timers.call_later(self.timeout, drop)
                    try:
                        await send(message)
                    finally:
                        limit.cancel()
            await send({"type": "http.response.body", "body": b""})

        tasks = [asyncio.ensure_future(pump()), asyncio.ensure_future(_disconnect(receive))]
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        if stuck:
            self._dropped(scope)
            return
        for task in done:
            if task is tasks[0] and not task.cancelled() and task.exception() is not None:
                log.error("push: a stream failed", exc_info=task.exception())


async def _disconnect(receive: Any) -> None:
    """Return once the client has gone."""
    while (await receive())["type"] != "http.disconnect":
        pass


class Writer:
    """One viewer of a feed (a page's live part), written to straight from the feed's offer to
    all its viewers: a change costs each viewer the choice of its bytes and one write to its
    socket, and wakes no task of its own. ASGI's ``send`` is a coroutine; it is stepped here
    once, which writes and returns unless the client's socket is full (the server waits for it
    to drain): then a task finishes that write, within ``timeout`` seconds or the viewer is
    dropped, and the newest item offered meanwhile is written after it (a slow viewer is sent
    where things stand, never a queue)."""

    def __init__(self, send: Any, response: FeedResponse, hub: Hub, timeout: float) -> None:
        self.send, self.response, self.hub, self.timeout = send, response, hub, timeout
        self.ended: asyncio.Future[str] = hub.loop.create_future()
        self.pending: Any = None
        self.has_pending = False
        self.finishing: asyncio.Task[None] | None = None
        self.closing: str | None = None  # the feed ended while a write was under way
        self.end_sent = False
        self.written = hub.loop.time()
        self.beat = hub.timers.call_later(response.heartbeat, self._heartbeat)

    def offer(self, item: Any) -> None:
        if self.ended.done():
            return
        if self.finishing is not None:  # a write is waiting for the socket: this one after it
            self.pending, self.has_pending = item, True
            return
        if self.response.may_see is not None and not self._open(item):
            # not for everyone: this viewer's access asked again first (a task, as a write
            # waiting for the socket: what is offered meanwhile waits after it)
            self.finishing = self.hub.loop.create_task(self._check(item))
            return
        self._send(item)

    def _open(self, item: Any) -> bool:
        try:
            return self.response.open_to_all(item)
        except Exception:
            log.exception("push: asking whether an item is for everyone failed")
            return False

    async def _check(self, item: Any) -> None:
        """Send ``item`` if the viewer may still see it; else end the stream."""
        assert self.response.may_see is not None
        try:
            allowed = bool(await self.hub.db(self.response.may_see))
        except asyncio.CancelledError:
            return
        except Exception:
            log.exception("push: asking again whether a viewer may see a stream failed")
            allowed = False
        self.finishing = None
        if not allowed:
            log.info(
                "push: a viewer no longer allowed to see %s: its stream ends", self.response.key
            )
            self.closing = None
            self.close("refused")
            return
        self._send(item)
        if self.finishing is None:
            self._next()

    def _send(self, item: Any) -> None:
        try:
            chunk = self.response.pick(item)
        except Exception:
            log.exception("push: choosing what to send failed")
            self._end("failed")
            return
        if chunk:
            self.write(chunk)

    def close(self, reason: str) -> None:
        """The feed's thing is gone: say so, then end (after the write under way, if any)."""
        if self.finishing is not None:
            self.closing = reason
            return
        if not self.end_sent:
            self.end_sent = True
            self.write(self.response.end)
            if self.finishing is not None:  # ends once the socket took it
                self.closing = reason
                return
        self._end(reason)

    def write(self, chunk: bytes) -> None:
        if self.ended.done():
            return
        self.written = self.hub.loop.time()
        message = {"type": "http.response.body", "body": chunk, "more_body": True}
        step = self.send(message).__await__()  # a coroutine's, or any awaitable's
        try:
            waiting = step.send(None)
        except StopIteration:
            return  # written
        except Exception:  # the connection failed
            log.info("push: a write failed", exc_info=True)
            self._end("failed")
            return
        self.finishing = self.hub.loop.create_task(self._finish(step, waiting))

    async def _finish(self, step: Any, waiting: Any) -> None:
        task = asyncio.current_task()
        assert task is not None

        def stuck() -> None:
            self._end("stuck")
            task.cancel()

        limit = self.hub.timers.call_later(self.timeout, stuck)
        try:
            await _Rest(step, waiting)
        except asyncio.CancelledError:
            return
        except Exception:
            log.info("push: a write failed", exc_info=True)
            self._end("failed")
            return
        finally:
            limit.cancel()
        self.finishing = None
        self._next()

    def _next(self) -> None:
        """What waited for the write (or the check) under way: the end, or the newest item."""
        if self.closing is not None:
            reason, self.closing = self.closing, None
            self.close(reason)
        elif self.has_pending:
            item, self.pending, self.has_pending = self.pending, None, False
            self.offer(item)

    def _heartbeat(self) -> None:
        if self.ended.done():
            return
        quiet = self.hub.loop.time() - self.written
        if quiet >= self.response.heartbeat and self.finishing is None:
            self.write(b": ping\n\n")
            quiet = 0.0
        self.beat = self.hub.timers.call_later(
            max(self.response.heartbeat - quiet, TICK_SECONDS), self._heartbeat
        )

    def _end(self, reason: str) -> None:
        if not self.ended.done():
            self.ended.set_result(reason)

    async def stop(self) -> None:
        """The connection is over: no write after this one."""
        self._end("stopped")
        self.beat.cancel()
        if self.finishing is not None:
            self.finishing.cancel()
            await asyncio.gather(self.finishing, return_exceptions=True)


class _Rest:
    """The rest of a coroutine that was stepped by hand and suspended, on ``waiting``: awaited
    (in a task), it goes on from there, exactly as if the task had stepped it from the start."""

    __slots__ = ("step", "waiting")

    def __init__(self, step: Any, waiting: Any) -> None:
        self.step, self.waiting = step, waiting

    def __await__(self) -> Any:
        waiting = self.waiting
        while True:
            try:
                sent = yield waiting
            except BaseException as exc:
                try:
                    waiting = self.step.throw(exc)
                except StopIteration as done:
                    return done.value
            else:
                try:
                    waiting = self.step.send(sent)
                except StopIteration as done:
                    return done.value


def _headers(response: HttpResponse) -> list[tuple[bytes, bytes]]:
    stream = isinstance(response, StreamResponse)
    headers = [
        (str(name).encode("ascii"), str(value).encode("latin1"))
        for name, value in response.items()
        if not (stream and name.lower() == "content-length")  # middleware measured no body
    ]
    for cookie in response.cookies.values():
        headers.append((b"set-cookie", cookie.output(header="").encode("ascii").strip()))
    return headers


async def _plain(
    send: Any,
    status: int,
    body: bytes,
    more: list[tuple[bytes, bytes]] | None = None,
    content_type: bytes = b"text/plain; charset=utf-8",
) -> None:
    headers = [(b"content-type", content_type), (b"content-length", b"%d" % len(body))]
    headers += more or []
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
