"""Logs as streams of server-sent events, for integrators (docs/api.md, "The stream").

``GET /api/v1/matches/<id>/stream/`` (a match's log) and ``GET
/api/v1/tournaments/<id>/results/stream/`` (a tournament's results log, api/results.py: each
entry with its ``seq``, the same for everyone who may see the tournament), served by the push
process (deploy/push.py). A client
subscribes from a position: ``Last-Event-ID`` (what an EventSource sends when it connects
again) or ``?after=`` (default 0), and is sent every event after it, in order, each once:
first what the log already holds, then each event as it is appended. Each SSE event is
``event: <kind>``, ``id: <seq>`` and ``data:`` the event exactly as ``GET .../events/`` shows
it to the same caller (hidden fields null, listed in ``hidden``): the same authentication
(a token, ``Authorization: Bearer``, or the session), the same visibility, the same rate
limits, and the same problem documents when refused at the start.

No gap, no double: the stream subscribes to the match's changes before it reads anything,
then reads the log after the last seq it sent, so an append is either in a read or wakes the
next one. It reads a page at a time and only as fast as the client takes what it was sent,
so nothing is buffered for a client beyond one page. A client whose socket takes a write
more slowly than ``SLOW_SECONDS`` is sent ``event: end`` (``code`` "slow_consumer") and the
stream closes: it connects again from its last seq. The caller's access is checked again
every ``RECHECK_SECONDS``; a token revoked (or expired, or a tournament no longer visible)
ends the stream with ``event: end`` saying why, and no event after it.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.utils.encoders import JSONEncoder
from rest_framework.views import APIView

import live
from tournaments import quotas
from tournaments import selectors as store
from tournaments.models import Match, Tournament

from . import results
from .access import directs, get_visible, get_visible_row
from .problems import Problem

#: events read and sent at a time
PAGE = 100
#: how often the caller's access is checked again (seconds); a comment line is sent as often
#: when nothing happens
RECHECK_SECONDS = 10.0
#: a write the client's socket took longer than this to accept ends the stream (seconds)
SLOW_SECONDS = 5.0


class EventStreamAccepted(JSONRenderer):
    """What makes ``Accept: text/event-stream`` (every EventSource's) acceptable to DRF's
    content negotiation. The stream's events are not rendered by DRF; a refusal at the start
    is: as JSON, under its own ``application/problem+json``, whatever the Accept."""

    media_type = "text/event-stream"
    format = "event-stream"


class _Gate(APIView):
    """DRF's way in (authentication, throttles, problem documents), for a view DRF does not
    serve: the stream is an async view of the push process. It accepts ``text/event-stream``,
    ``application/json``, ``*/*`` and no Accept at all (406 for anything else)."""

    renderer_classes = [JSONRenderer, EventStreamAccepted]


@dataclass
class Caller:
    request: Request
    match: Match | None  # the match streamed (None: a tournament's results)
    director: bool


def _refusal(view: _Gate, request: Request, exc: Exception) -> HttpResponse:
    response = view.finalize_response(request, view.handle_exception(exc))
    response.render()
    return response


def admit(
    request: HttpRequest, pk: int, after: int | None, *, again: bool = False
) -> Caller | HttpResponse:
    """Authenticate the caller and find the match they may see (in a database thread).

    ``again``: the stream's periodic check of a caller already admitted, which is not a
    request of theirs, so it spends nothing of their rate limit (no throttles)."""

    def find(drf: Request) -> Caller:
        match = get_visible_row(drf, Match, pk, fields=("last_seq",))
        return Caller(drf, match, directs(drf, match.tournament_id))

    return _admit(request, pk, after, find, again=again)


def admit_to_results(
    request: HttpRequest, pk: int, after: int | None, *, again: bool = False
) -> Caller | HttpResponse:
    """Authenticate the caller and find the tournament they may see (in a database thread)."""

    def find(drf: Request) -> Caller:
        get_visible(drf, Tournament.objects.all(), pk, "")
        return Caller(drf, None, False)

    return _admit(request, pk, after, find, again=again)


def _admit(
    request: HttpRequest,
    pk: int,
    after: int | None,
    find: Callable[[Request], Caller],
    *,
    again: bool,
) -> Caller | HttpResponse:
    view = _Gate()
    if again:
        view.throttle_classes = []
    view.args, view.kwargs = (), {"pk": pk}
    drf = view.initialize_request(request)
    view.request, view.headers = drf, dict(view.default_response_headers)
    try:
        view.initial(drf)
        if after is None:
            raise Problem(
                "Last-Event-ID and ?after= take the seq of an event: a whole number, 0 or more.",
                code="bad_position",
                status_code=400,
            )
        return find(drf)
    except Exception as exc:
        return _refusal(view, drf, exc)


def _events_after(caller: Caller, after: int) -> list[dict[str, Any]]:
    assert caller.match is not None
    rows = list(store.match_events(caller.match, after_seq=after)[:PAGE])
    return store.render_events(caller.match, rows, caller.request.user, director=caller.director)


def _head_loader(read: Callable[[], int | None]) -> live.Loader:
    def load() -> tuple[str, int] | None:
        head = read()
        return None if head is None else (str(head), head)

    return lambda: live.hub().db(load)


def position(request: HttpRequest) -> int | None:
    """The seq the client holds: Last-Event-ID, else ?after=, else 0 (None: not a seq)."""
    text = request.headers.get("Last-Event-ID") or request.GET.get("after") or "0"
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 10:
        return None
    return int(text)


def _frame(event: dict[str, Any]) -> bytes:
    data = json.dumps(event, cls=JSONEncoder, separators=(",", ":"))
    return f"event: {event['kind']}\nid: {event['seq']}\ndata: {data}\n\n".encode()


def _end(code: str, detail: str) -> bytes:
    data = json.dumps({"code": code, "detail": detail})
    return f"event: end\ndata: {data}\n\n".encode()


Admit = Callable[..., "Caller | HttpResponse"]


def _stream(
    request: HttpRequest,
    pk: int,
    admit: Admit,
    topic: str,
    head: Callable[[], int | None],
    read: Callable[[Caller, int], list[dict[str, Any]]],
    gone: str,
    heartbeat: float,
) -> HttpResponse:
    """The stream of a log that grows: its entries after the client's seq, then each new one.

    ``admit`` decides who may read it (and again every ``RECHECK_SECONDS``), ``topic`` is the
    live message of its growth, ``head`` reads its last seq (None: it is gone), ``read`` a page
    of it as the caller sees it; ``gone`` what the client is told when the thing is deleted;
    ``heartbeat`` how long it waits for the next entry before it sends a comment line."""
    if request.method != "GET":
        return HttpResponse(status=405, headers={"Allow": "GET"})
    after = position(request)
    admitted = admit(request, pk, after)
    if isinstance(admitted, HttpResponse):
        return admitted

    async def events(hub: live.Hub) -> AsyncIterator[bytes]:
        caller, sent = admitted, after or 0
        # subscribed before the first read: an entry after it wakes the loop below
        feed, sub = await hub.subscribe(f"api:{topic}", [topic], _head_loader(head))
        checked = time.monotonic()
        try:
            yield live.retry_field()
            while True:
                if time.monotonic() - checked > RECHECK_SECONDS:
                    again = await hub.db(functools.partial(admit, again=True), request, pk, sent)
                    if isinstance(again, HttpResponse):
                        problem = json.loads(again.content or b"{}")
                        yield _end(
                            str(problem.get("code", "refused")),
                            str(problem.get("detail", "")),
                        )
                        return
                    caller, checked = again, time.monotonic()
                shown = await hub.db(read, caller, sent)
                for event in shown:
                    began = time.monotonic()
                    yield _frame(event)  # resumes once the socket took it
                    sent = event["seq"]
                    if time.monotonic() - began > SLOW_SECONDS:
                        yield _end(
                            "slow_consumer",
                            f"The client read too slowly: connect again after seq {sent}.",
                        )
                        return
                if len(shown) == PAGE:
                    continue
                got = await sub.next(heartbeat)
                if sub.closed is not None:
                    yield _end("gone", gone)
                    return
                if got is None:
                    yield b": ping\n\n"
        finally:
            hub.unsubscribe(feed, sub)

    response = live.StreamResponse(events)
    live.allow_own_origins(request, response)
    # counted against its club's quota of streams open at once in a push process
    tournament_id = admitted.match.tournament_id if admitted.match is not None else pk
    response.quota = quotas.streams_quota(tournament_id)
    return response


def match_stream(request: HttpRequest, pk: int, heartbeat: float | None = None) -> HttpResponse:
    """The match's events after a seq, then each new one as it is appended (a comment line
    after ``heartbeat`` seconds without one, default ``RECHECK_SECONDS``)."""

    def head() -> int | None:
        return Match.objects.filter(pk=pk).values_list("last_seq", flat=True).first()

    gone = "The match is gone."
    beat = heartbeat or RECHECK_SECONDS
    return _stream(
        request, pk, admit, live.key(live.Topic.LOG, pk), head, _events_after, gone, beat
    )


def results_stream(request: HttpRequest, pk: int, heartbeat: float | None = None) -> HttpResponse:
    """The tournament's results log after a seq, then each new entry as it is written."""

    def head() -> int | None:
        if not Tournament.objects.filter(pk=pk).exists():
            return None
        return results.head(pk)

    def read(caller: Caller, after: int) -> list[dict[str, Any]]:
        return results.entries(pk, after, PAGE)

    gone = "The tournament is gone."
    beat = heartbeat or RECHECK_SECONDS
    return _stream(
        request, pk, admit_to_results, live.key(live.Topic.HAPPENINGS, pk), head, read, gone, beat
    )
