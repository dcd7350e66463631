"""The push process: the live streams, under uvicorn (an ASGI server: one event loop holds
thousands of open connections).

``uvicorn deploy.push:application`` (deploy/Procfile's ``push``). It serves the pages' streams
under ``/push/``, the API's streams (``/api/v1/matches/<id>/stream/``,
``/api/v1/tournaments/<id>/results/stream/``) and ``/healthz``, resolved against
``deploy.push_urls`` (the same settings serve both processes); any other path is a plain 404
here. A proxy in front routes those paths here and the rest to gunicorn (docs/deploy.md).

Each request goes through Django as a WSGI request would: the whole middleware chain and the
view, synchronously, in one of the hub's few database threads (``tournaments.live``,
``PUSH_DB_THREADS``; the live parts are rendered in ``PUSH_RENDER_PROCESSES`` processes of
its own). Django's own ASGI handler would keep a thread (and its database
connection) for every open stream instead. A view that admits the caller answers a
``tournaments.live.StreamResponse``; this module then writes its events from the event loop,
and nothing else runs for that connection until an event or its heartbeat is due.

A client that stops reading is not buffered for: each write waits at most
``PUSH_SEND_TIMEOUT`` seconds for the socket (uvicorn waits while its buffer is full), then
the connection is closed and the log says why. A client that goes away ends its stream at
once (``http.disconnect``).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import os
import re
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deploy.settings")
django.setup(set_prefix=False)

from django.core.handlers.asgi import ASGIRequest  # noqa: E402  (after the setup)
from django.core.handlers.base import BaseHandler  # noqa: E402
from django.http import HttpResponse  # noqa: E402
from django.urls import set_script_prefix  # noqa: E402

from tournaments import live  # noqa: E402

log = logging.getLogger(__name__)

URLCONF = "deploy.push_urls"
SERVED = re.compile(
    r"^/push/|^/healthz$|^/api/v1/matches/\d+/stream/$|^/api/v1/tournaments/\d+/results/stream/$"
)
#: how long one write may wait for a client that does not read (seconds)
SEND_TIMEOUT = float(os.environ.get("PUSH_SEND_TIMEOUT", "") or 30)
#: the largest request body read (the streams are GETs)
MAX_BODY = 64 * 1024


class _Handler(BaseHandler):
    """Django's request handling (the middleware chain, the URLs, the view), synchronous."""

    def __init__(self) -> None:
        super().__init__()
        self.load_middleware(is_async=False)

    def respond(self, scope: dict[str, Any], body: bytes) -> HttpResponse:
        set_script_prefix(scope.get("root_path", "") or "/")
        request = ASGIRequest(scope, io.BytesIO(body))
        request.urlconf = URLCONF
        response = self.get_response(request)
        assert isinstance(response, HttpResponse)  # no view of the push process streams
        return response


class PushApplication:
    """The ASGI callable (``application``)."""

    def __init__(self, timeout: float = SEND_TIMEOUT) -> None:
        self.handler = _Handler()
        self.timeout = timeout

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
        if not SERVED.match(scope.get("path", "")):
            await _plain(send, 404, b"Not found: this process serves the live streams only.\n")
            return
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
        hub = live.hub()
        response = await hub.db(self.handler.respond, scope, body)
        try:
            await send(
                {
                    "type": "http.response.start",
                    "status": response.status_code,
                    "headers": _headers(response),
                }
            )
            if isinstance(response, live.StreamResponse):
                await self._stream(response, hub, receive, send, scope)
            else:
                await send({"type": "http.response.body", "body": response.content})
        finally:
            await hub.db(response.close)  # request_finished: the thread's connection kept tidy

    async def _stream(
        self, response: live.StreamResponse, hub: live.Hub, receive: Any, send: Any, scope: Any
    ) -> None:
        stuck = False

        async def pump() -> None:
            task = asyncio.current_task()
            assert task is not None

            def drop() -> None:  # a write still waiting for the client after the limit
                nonlocal stuck
                stuck = True
                task.cancel()

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

        async def gone() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass

        tasks = [asyncio.ensure_future(pump()), asyncio.ensure_future(gone())]
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        if stuck:
            log.info(
                "push: dropped a client that read nothing for %.0f s: %s",
                self.timeout,
                scope.get("path"),
            )
            return
        for task in done:
            if task is tasks[0] and not task.cancelled() and task.exception() is not None:
                log.error("push: a stream failed", exc_info=task.exception())


def _headers(response: HttpResponse) -> list[tuple[bytes, bytes]]:
    stream = isinstance(response, live.StreamResponse)
    headers = [
        (str(name).encode("ascii"), str(value).encode("latin1"))
        for name, value in response.items()
        if not (stream and name.lower() == "content-length")  # middleware measured no body
    ]
    for cookie in response.cookies.values():
        headers.append((b"set-cookie", cookie.output(header="").encode("ascii").strip()))
    return headers


async def _plain(send: Any, status: int, body: bytes) -> None:
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", b"%d" % len(body)),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


application = PushApplication()
