"""The API's streams on the web process's own port (deploy/urls.py), by how the site runs.

Without a push process (``LIVE_PUSH`` off: ``make run``, ``make club``, the tests), the web
process serves the two streams itself: the same views as the push process (api/stream.py,
the same events, positions, refusals and ends), their events made on one event loop of this
process's own (a thread) while the request's thread waits for each. Each open stream holds
one of the web server's threads, so at most ``EMBEDDED_STREAMS`` are open at once in a
process (``API_STREAMS_EMBEDDED``, default 4); one more is answered 503 ``streams_busy``
(``Retry-After``). An idle stream sends a comment line every ``HEARTBEAT_SECONDS``: the
server learns that a client went only when a write fails, and only then frees its thread.
Changes made in this process reach the streams at once; changes made by another process (a
second gunicorn worker) within the hub's recheck (``live.RECHECK_SECONDS``).

With a push process (``LIVE_PUSH`` on: ``make stack``, production), the streams are its
(deploy/push.py): on the web port their paths answer a 404 problem document that says where
they are (``stream_url``: ``LIVE_PUSH_ORIGIN`` and the path, when the push process has a port
of its own; else the proxy routes the path there, and this answer means it did not).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase

import live

from . import stream
from .problems import CONTENT_TYPE, problem

#: the streams one web process holds open at once (each holds one of its threads)
EMBEDDED_STREAMS: int = settings.API_STREAMS_EMBEDDED
#: how often an idle stream sends a comment line here (seconds)
HEARTBEAT_SECONDS = 1.0

#: the headers that let the site's own pages on another origin read a stream (api/stream.py)
_CORS = ("Access-Control-Allow-Origin", "Access-Control-Allow-Credentials", "Vary")

_slots = threading.BoundedSemaphore(EMBEDDED_STREAMS)
_loop_lock = threading.Lock()
#: the event loop the streams' events are made on ("loop"), while one runs
_running: dict[str, asyncio.AbstractEventLoop] = {}


def _event_loop() -> asyncio.AbstractEventLoop:
    """This process's event loop for the streams (a daemon thread, started at the first)."""
    with _loop_lock:
        loop = _running.get("loop")
        if loop is None or loop.is_closed():
            loop = _running["loop"] = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="api-streams", daemon=True).start()
        return loop


def stop() -> None:
    """Close the streams' hub (its database connections) and stop its event loop, if started:
    the next stream starts both again."""
    with _loop_lock:
        loop = _running.pop("loop", None)
    if loop is None or loop.is_closed():
        return

    async def release() -> None:
        await live.hub().release()

    _run(loop, release())
    loop.call_soon_threadsafe(loop.stop)


def _run(loop: asyncio.AbstractEventLoop, coroutine: Any) -> Any:
    return asyncio.run_coroutine_threadsafe(coroutine, loop).result()


class _Written:
    """The stream's bytes, each made on the event loop once the last was written (as the push
    process writes them: the stream's slow-consumer check holds here too). The server closes
    it when the client goes or the stream ended; that frees its slot."""

    def __init__(self, response: live.StreamResponse) -> None:
        assert response.events is not None
        self.events = response.events
        self.loop = _event_loop()
        self.chunks: AsyncIterator[bytes] | None = None
        self.closed = False

    def __iter__(self) -> Iterator[bytes]:
        events = self.events

        async def start() -> AsyncIterator[bytes]:
            return events(live.hub()).__aiter__()

        self.chunks = _run(self.loop, start())
        while not self.closed:
            try:
                yield _run(self.loop, self.chunks.__anext__())
            except StopAsyncIteration:
                return

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        try:
            close = getattr(self.chunks, "aclose", None)
            if close is not None:
                _run(self.loop, close())
        finally:
            _slots.release()


def _elsewhere(request: HttpRequest) -> HttpResponse:
    origin = getattr(settings, "LIVE_PUSH_ORIGIN", "") or ""
    if origin:
        url = origin + request.get_full_path()
        detail = f"The streams are served by the push process: {url}"
    else:
        url = None
        detail = (
            "The streams are served by the push process, which the proxy in front routes this "
            "path to (docs/deploy.md): this answer came from the web process instead."
        )
    document = problem(404, "not_found", detail, stream_url=url)
    return JsonResponse(document, status=404, content_type=CONTENT_TYPE)


def _serving(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponseBase]:
    def serve(request: HttpRequest, pk: int) -> HttpResponseBase:
        if getattr(settings, "LIVE_PUSH", False):
            return _elsewhere(request)
        if not _slots.acquire(blocking=False):
            document = problem(
                503,
                "streams_busy",
                f"This process holds {EMBEDDED_STREAMS} streams already: try again shortly.",
            )
            return JsonResponse(
                document, status=503, content_type=CONTENT_TYPE, headers={"Retry-After": "5"}
            )
        try:
            answer = view(request, pk, heartbeat=HEARTBEAT_SECONDS)
        except BaseException:
            _slots.release()
            raise
        if not isinstance(answer, live.StreamResponse):  # refused at the start
            _slots.release()
            return answer
        streamed = StreamingHttpResponse(_Written(answer), content_type="text/event-stream")
        for header in ("Cache-Control", "X-Accel-Buffering", *_CORS):
            if header in answer:
                streamed[header] = answer[header]
        return streamed

    serve.__name__ = view.__name__
    return serve


match_stream = _serving(stream.match_stream)
results_stream = _serving(stream.results_stream)
