"""A push process for the tests: uvicorn serving deploy.push's application in a thread of the
test process (the same database; without REDIS_URL it hears this process's changes directly), and a
reader of its server-sent events."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
import unittest.mock
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import uvicorn
from django.db import connection, connections

import live
from deploy.push import make_application
from live import feeds as live_feeds
from web import push as push_pages


@dataclass
class PushServer:
    url: str
    server: uvicorn.Server
    thread: threading.Thread
    loop: asyncio.AbstractEventLoop | None = None

    def stop(self) -> None:
        # the database connections its worker thread opened, closed there (the test database
        # is dropped at the end of the run)
        loop = self.loop
        if loop is not None and loop.is_running():
            done = asyncio.run_coroutine_threadsafe(_release(), loop)
            with contextlib.suppress(Exception):
                done.result(5)
        self.server.should_exit = True
        self.server.force_exit = True
        self.thread.join(10)


async def _release() -> None:
    await live.hub().release()


#: on SQLite, held by the push server's database work and by a test while it writes: the
#: shared in-memory test database locks whole tables against a second connection
SQLITE = threading.Lock()


def database(lock: Any = SQLITE) -> Any:
    """What a test holds while it writes with a push server running (SQLite only)."""
    return lock if connection.vendor == "sqlite" else contextlib.nullcontext()


@contextlib.contextmanager
def push_server(send_timeout: float = 30.0, lock: Any = SQLITE) -> Iterator[PushServer]:
    """A push server in a thread; on SQLite its database work takes ``lock``."""
    if connection.vendor == "sqlite":
        job = live_feeds._job

        def locked(work: Any, *args: Any) -> Any:
            with lock:
                return job(work, *args)

        with (
            unittest.mock.patch.object(live_feeds, "_job", locked),
            _serving(send_timeout) as server,
        ):
            yield server
    else:
        with _serving(send_timeout) as server:
            yield server


@contextlib.contextmanager
def _serving(send_timeout: float) -> Iterator[PushServer]:
    # a new server keeps no address a server before it found (another test's, rolled back)
    push_pages._published.clear()
    config = uvicorn.Config(
        make_application(timeout=send_timeout),
        host="127.0.0.1",
        port=0,
        loop="asyncio",
        lifespan="off",
        log_level="warning",
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    loops: list[asyncio.AbstractEventLoop] = []

    def run() -> None:
        loop = asyncio.new_event_loop()
        loops.append(loop)
        loop.run_until_complete(server.serve())

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "the push server did not start"
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    running = PushServer(f"http://127.0.0.1:{port}", server, thread)
    running.loop = loops[0]
    try:
        yield running
    finally:
        running.stop()


@dataclass
class Event:
    kind: str
    id: str | None
    data: str


@dataclass
class Reader:
    """The events of one stream, read as they come (a thread of its own)."""

    response: httpx.Response
    events: list[Event] = field(default_factory=list)
    ended: bool = False
    _lock: threading.Condition = field(default_factory=threading.Condition)

    def run(self) -> None:
        kind, ident, data = "message", None, list[str]()
        try:
            for line in self.response.iter_lines():
                if line == "":
                    if data or kind != "message":
                        with self._lock:
                            self.events.append(Event(kind, ident, "\n".join(data)))
                            self._lock.notify_all()
                    kind, ident, data = "message", None, list[str]()
                elif line.startswith(":"):
                    continue
                else:
                    name, _, value = line.partition(":")
                    value = value.removeprefix(" ")
                    if name == "event":
                        kind = value
                    elif name == "id":
                        ident = value
                    elif name == "data":
                        data.append(value)
        except (httpx.HTTPError, RuntimeError):
            pass
        finally:
            with self._lock:
                self.ended = True
                self._lock.notify_all()

    def wait(self, test: Any, timeout: float = 10.0) -> Event | None:
        """Return the first event ``test`` accepts, waiting up to ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                for event in self.events:
                    if test(event):
                        return event
                left = deadline - time.monotonic()
                if left <= 0 or self.ended:
                    return None
                self._lock.wait(left)

    def wait_ended(self, timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        with self._lock:
            while not self.ended and time.monotonic() < deadline:
                self._lock.wait(deadline - time.monotonic())
            return self.ended


@contextlib.contextmanager
def reading(url: str, headers: dict[str, str] | None = None) -> Iterator[Reader]:
    """Open the stream at ``url`` and read it in a thread; close it at the end."""
    with (
        httpx.Client(timeout=httpx.Timeout(30.0, connect=5.0)) as client,
        client.stream("GET", url, headers=headers or {}) as response,
    ):
        reader = Reader(response)
        thread = threading.Thread(target=reader.run, daemon=True)
        thread.start()
        try:
            yield reader
        finally:
            # a socket closed from this thread does not wake the reader's blocking read; a
            # shut-down one does, at once
            stream = response.extensions.get("network_stream")
            sock = stream.get_extra_info("socket") if stream is not None else None
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
            response.close()
            thread.join(5)


class ClosingConnections:
    """A WSGI answer that, once the server closes it, closes the database connections of the
    thread that served it. Each request has a thread of its own here, which ends with it; with
    ``CONN_MAX_AGE`` a connection outlives its request, and a thread's would stay open on the
    test database, where a later test counts the sessions (tests/scoring/test_worker.py)."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.answer)

    def close(self) -> None:
        try:
            close = getattr(self.answer, "close", None)
            if close is not None:
                close()
        finally:
            connections.close_all()


def streams_ended(timeout: float) -> bool:
    """Wait until the web process's streams have all ended (each ends at its next heartbeat
    after its client went, and hands its slot back); return whether they did in time."""
    from api import stream_web

    slots = stream_web._slots
    deadline = time.monotonic() + timeout
    while slots._value < slots._initial_value:  # type: ignore[attr-defined]
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@contextlib.contextmanager
def web_server(lock: Any = SQLITE) -> Iterator[str]:
    """The web process as ``make run`` serves it (Django's threaded WSGI server, a thread for
    each request) in a thread of the test process; yield its URL. On SQLite each request's
    view runs under ``lock``, and so does the hub's database work (as in push_server)."""
    from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
    from django.core.wsgi import get_wsgi_application

    from api import stream_web

    django_app = get_wsgi_application()

    def application(environ: Any, start_response: Any) -> Any:
        with database(lock):
            return ClosingConnections(django_app(environ, start_response))

    class Quiet(WSGIRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadedWSGIServer(("127.0.0.1", 0), Quiet, allow_reuse_address=False)
    server.set_app(application)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    job = live_feeds._job

    def locked(work: Any, *args: Any) -> Any:
        with database(lock):
            return job(work, *args)

    with unittest.mock.patch.object(live_feeds, "_job", locked):
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}"
        finally:
            streams_ended(10.0)  # their threads closed their connections (ClosingConnections)
            server.shutdown()
            server.server_close()
            thread.join(10)
            stream_web.stop()
