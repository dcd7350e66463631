"""A match's log as a stream of server-sent events, for integrators (docs/api.md, "The stream").

``GET /api/v1/matches/<id>/stream/``, served by the push process (deploy/push.py). A client
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
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from rest_framework.request import Request
from rest_framework.utils.encoders import JSONEncoder
from rest_framework.views import APIView

from tournaments import live
from tournaments import selectors as store
from tournaments.models import Match

from .access import directs, get_visible_row
from .problems import Problem

#: events read and sent at a time
PAGE = 100
#: how often the caller's access is checked again (seconds); a comment line is sent as often
#: when nothing happens
RECHECK_SECONDS = 10.0
#: a write the client's socket took longer than this to accept ends the stream (seconds)
SLOW_SECONDS = 5.0


class _Gate(APIView):
    """DRF's way in (authentication, throttles, problem documents), for a view DRF does not
    serve: the stream is an async view of the push process."""


@dataclass
class Caller:
    request: Request
    match: Match
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
        match = get_visible_row(drf, Match, pk, fields=("last_seq",))
        director = directs(drf, match.tournament_id)
    except Exception as exc:
        return _refusal(view, drf, exc)
    return Caller(drf, match, director)


def _page(caller: Caller, after: int) -> list[dict[str, Any]]:
    rows = list(store.match_events(caller.match, after_seq=after)[:PAGE])
    return store.render_events(caller.match, rows, caller.request.user, director=caller.director)


def _head_loader(pk: int) -> live.Loader:
    def read() -> tuple[str, int] | None:
        head = Match.objects.filter(pk=pk).values_list("last_seq", flat=True).first()
        return None if head is None else (str(head), head)

    return lambda: live.hub().db(read)


def position(request: HttpRequest) -> int | None:
    """The seq the client holds: Last-Event-ID, else ?after=, else 0 (None: not a seq)."""
    text = request.headers.get("Last-Event-ID") or request.GET.get("after") or "0"
    text = text.strip()
    if not text.isdigit() or len(text) > 10:
        return None
    return int(text)


def _frame(event: dict[str, Any]) -> bytes:
    data = json.dumps(event, cls=JSONEncoder, separators=(",", ":"))
    return f"event: {event['kind']}\nid: {event['seq']}\ndata: {data}\n\n".encode()


def _end(code: str, detail: str) -> bytes:
    data = json.dumps({"code": code, "detail": detail})
    return f"event: end\ndata: {data}\n\n".encode()


def match_stream(request: HttpRequest, pk: int) -> HttpResponse:
    """The match's events after a seq, then each new one as it is appended."""
    if request.method != "GET":
        return HttpResponse(status=405, headers={"Allow": "GET"})
    after = position(request)
    admitted = admit(request, pk, after)
    if isinstance(admitted, HttpResponse):
        return admitted

    async def events(hub: live.Hub) -> AsyncIterator[bytes]:
        caller, sent = admitted, after or 0
        # subscribed before the first read: an append after it wakes the loop below
        feed, sub = await hub.subscribe(f"api:m:{pk}", [f"m{pk}"], _head_loader(pk))
        checked = time.monotonic()
        try:
            yield b"retry: 2000\n\n"
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
                shown = await hub.db(_page, caller, sent)
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
                got = await sub.next(RECHECK_SECONDS)
                if sub.closed is not None:
                    yield _end("gone", "The match is gone.")
                    return
                if got is None:
                    yield b": ping\n\n"
        finally:
            hub.unsubscribe(feed, sub)

    return live.StreamResponse(events)
