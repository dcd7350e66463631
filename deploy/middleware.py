"""The project's middleware: every request gets an id, in its log lines and its response; the
messages of the pages stay out of the API; an answer to a signed-in caller is never stored;
every answer carries the Content-Security-Policy."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from django.conf import settings
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


class PrivateAnswers:
    """``Cache-Control: private, no-store`` on every answer to a signed-in caller (a browser
    session, or an API token: DRF puts its user on the request).

    What a signed-in person is shown may be theirs alone (their matches to keep, a
    director's desk, their tokens, the decks a director may see), so neither a shared cache
    nor the browser's own keeps any of it, even of a public page: one rule, no list of
    pages to keep up to date. ETags still answer 304 to a caller that sends
    ``If-None-Match`` itself, as the pages' live parts (web/static/web/live.js) and
    integrations do. Answers to anonymous callers keep their own headers (the public pages'
    and reads' ``private, no-cache`` with their ETags).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)  # no session cookie: no query to find out
        if user is not None and user.is_authenticated:
            response["Cache-Control"] = "private, no-store"
        return response


class ContentSecurityPolicy:
    """The ``Content-Security-Policy`` header on every answer (settings: scripts and styles
    from the site's own files only), unless a view set its own. The API's interactive docs
    take ``CONTENT_SECURITY_POLICY_DOCS`` (Swagger UI's page carries an inline style)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            docs = request.path_info.startswith("/api/docs/")
            response["Content-Security-Policy"] = (
                settings.CONTENT_SECURITY_POLICY_DOCS if docs else settings.CONTENT_SECURITY_POLICY
            )
        return response
