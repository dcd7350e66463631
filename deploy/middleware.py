"""The project's middleware: every request gets an id, in its log lines and its response; the
messages of the pages stay out of the API."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from django.contrib.messages.middleware import MessageMiddleware
from django.http import HttpRequest, HttpResponse

from . import logs

log = logging.getLogger("deploy.request")

#: the header a caller (or a proxy) may send its own id in, and the response carries back
HEADER = "X-Request-ID"
#: polled every few seconds by load balancers: their lines only at DEBUG
PROBES = frozenset({"/healthz", "/readyz"})


class RequestIdMiddleware:
    """Take a valid incoming ``X-Request-ID`` or make one; bind it for the request; log it.

    The id is in every log line written while the request runs, in every Celery task the
    request sends (``deploy.logs``), and in the response's ``X-Request-ID``. One line per
    request is logged at the end (method, path, status, milliseconds), so a web process needs
    no separate access log. ``request.request_id`` holds the id for views.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        incoming = logs.valid_request_id(request.headers.get(HEADER))
        began = time.perf_counter()
        with logs.bound(incoming) as rid:
            request.request_id = rid  # type: ignore[attr-defined]  # our own attribute
            response = self.get_response(request)
            response[HEADER] = rid
            log.log(
                logging.DEBUG if request.path in PROBES else logging.INFO,
                "%s %s %s",
                request.method,
                request.path,
                response.status_code,
                extra={
                    "method": request.method,
                    "path": request.path,
                    "status": response.status_code,
                    "duration_ms": round((time.perf_counter() - began) * 1000, 1),
                },
            )
        return response


class PageMessages(MessageMiddleware):
    """Django's messages, for the pages: under /api/ nothing sends or shows a message, so a
    request there is spared making the message store (and reading it back at the end)."""

    def process_request(self, request: HttpRequest) -> None:
        if not request.path_info.startswith("/api/"):
            super().process_request(request)
