"""What a stream's view answers: the push process (live.server) writes its events.

A view of the pages (web.push) or of the API (api.stream) checks who asks and what for, as
any view, and answers a :class:`StreamResponse` (events made by the view's own iterator) or a
:class:`FeedResponse` (one feed's items, written by the push process straight from the
feed's offers).
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse

if TYPE_CHECKING:
    from .feeds import Hub, Loader


#: how long a browser waits before it connects again after its stream ended (milliseconds):
#: drawn for each stream between these, so that the viewers of a push process that went away
#: come back spread over a second and more, not all in the same instant (the half of a room
#: of 5,000 that one of two processes held: about 2,000 a second, what the other admits),
#: and all of them within 1.5 s, so the room shows the next deal within 3 s of a kill
#: (tests/stack/test_push_restart.py; it was 0.5 to 3 s: a tenth of the room was dark for 3)
RETRY_MS = (250, 1500)


def retry_field() -> bytes:
    """A stream's first field: its ``retry:``, drawn from ``RETRY_MS``."""
    return f"retry: {random.randint(*RETRY_MS)}\n\n".encode()


def allow_own_origins(request: HttpRequest, response: HttpResponse) -> None:
    """Let the pages of the origins ``PUSH_CORS_ORIGINS`` lists read a stream with their
    cookies (the push process on a port of its own: ``LIVE_PUSH_ORIGIN``, ``make stack``'s
    pages on ``PORT``); no other origin, not even another scheme or port of the same host.
    The pages' streams (web.push) and the API's (api.stream) answer alike."""
    origin = request.headers.get("Origin", "")
    if origin and origin in getattr(settings, "PUSH_CORS_ORIGINS", ()):
        response["Access-Control-Allow-Origin"] = origin
        response["Access-Control-Allow-Credentials"] = "true"
        response["Vary"] = "Origin"


class StreamResponse(HttpResponse):
    """What a stream's view answers once it admitted the caller (in a database thread, through
    the middleware like any view): the push process then writes ``events(hub)``, an
    asynchronous iterator of bytes, until it ends or the client goes."""

    streaming = False
    #: the quota the stream counts against, set by its view: (whose, how many streams at
    #: most), such as its club's; None: only the push process's own caps (live.server)
    quota: tuple[str, int] | None = None

    def __init__(self, events: Callable[[Hub], AsyncIterator[bytes]] | None, **kwargs: Any) -> None:
        super().__init__(content_type="text/event-stream", **kwargs)
        self.events = events
        self["Cache-Control"] = "no-cache, no-transform"
        self["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once


class FeedResponse(StreamResponse):
    """A stream that sends one feed's items and nothing else (a page's live part): the push
    process writes each item, as ``pick(item)`` makes it bytes for this viewer (None: nothing
    to send), straight from the feed's offer to every viewer, without waking a task of the
    connection's own; ``first`` is written at the start, ``heartbeat`` seconds without a write
    send a comment line, and ``end`` is the last thing sent when the feed's thing is gone.

    ``may_see``: the viewer's access asked again (in a database thread; False ends the stream
    with ``end``) before any item that ``open_to_all(item)`` says is not for everyone: a
    public thing costs its viewers no query, one that turned private each its own check."""

    def __init__(
        self,
        key: str,
        topics: list[str],
        load: Loader,
        pick: Callable[[Any], bytes | None],
        *,
        first: bytes,
        end: bytes,
        heartbeat: float,
        may_see: Callable[[], bool] | None = None,
        open_to_all: Callable[[Any], bool] = lambda item: True,
        **kwargs: Any,
    ) -> None:
        super().__init__(None, **kwargs)
        self.key, self.topics, self.load, self.pick = key, topics, load, pick
        self.first, self.end, self.heartbeat = first, end, heartbeat
        self.may_see, self.open_to_all = may_see, open_to_all
