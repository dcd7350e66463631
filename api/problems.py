"""One error shape for the whole API: ``application/problem+json`` (RFC 9457).

Every error under ``/api/`` is a problem document: ``type``, ``title``, ``status``,
``detail`` and a stable ``code``; per-field ``errors`` for a validation error (and for the
settings a refusal with a code of its own names: 422 ``bad_tiebreaks``...), ``rule`` for an
illegal move, ``current_seq`` for a conflict. ``exception_handler`` starts from DRF's and knows
the project's own refusals (the store's, the competition's, the engine's), which answer the
status and title ``competition.refusals`` gives their kind, as the pages do.

A problem's ``title`` and ``detail`` are said in the request's language (``Accept-Language``,
through ``LocaleMiddleware``: docs/languages.md) where a catalog has them; its ``code``,
``type`` and the field names in ``errors`` stay English and stable, for programs.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import PermissionDenied, RequestDataTooBig, SuspiciousOperation
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

import seep_core as sc
from competition import errors as competition_errors
from competition import refusals
from competition.corrections import ConfirmationRequired
from tournaments import errors as store

log = logging.getLogger(__name__)

CONTENT_TYPE = "application/problem+json"
TYPE_BASE = "urn:seep:problem:"  # + the code; docs/api.md lists them

DRF_CODES = {
    status.HTTP_400_BAD_REQUEST: "bad_request",
    status.HTTP_401_UNAUTHORIZED: "not_authenticated",
    status.HTTP_403_FORBIDDEN: "forbidden",
    status.HTTP_404_NOT_FOUND: "not_found",
    status.HTTP_405_METHOD_NOT_ALLOWED: "method_not_allowed",
    status.HTTP_406_NOT_ACCEPTABLE: "not_acceptable",
    status.HTTP_413_REQUEST_ENTITY_TOO_LARGE: "too_large",
    status.HTTP_415_UNSUPPORTED_MEDIA_TYPE: "unsupported_media_type",
    status.HTTP_429_TOO_MANY_REQUESTS: "throttled",
}


class Problem(exceptions.APIException):
    """An API error of the project's own: raise it from a view with its code and status."""

    def __init__(self, detail: str, *, code: str, status_code: int = 400, **extra: Any) -> None:
        super().__init__(detail, code)
        self.status_code = status_code
        self.problem_code = code
        self.extra = extra


def problem(
    status_code: int, code: str, detail: str, *, title: str | None = None, **extra: Any
) -> dict[str, Any]:
    """Return a problem document."""
    return {
        "type": TYPE_BASE + code,
        "title": title or _title(status_code),
        "status": status_code,
        "detail": detail,
        "code": code,
        **{k: v for k, v in extra.items() if v is not None},
    }


#: the titles the API gives, marked for the catalogs (said in the request's language): the
#: statuses' own phrases (as this Python names them: both names where they were renamed), and
#: the titles of the refusals (``competition.refusals``; tests/api check that all are here)
TITLES = frozenset(
    (
        gettext_noop("Bad Request"),
        gettext_noop("Unauthorized"),
        gettext_noop("Forbidden"),
        gettext_noop("Not Found"),
        gettext_noop("Method Not Allowed"),
        gettext_noop("Not Acceptable"),
        gettext_noop("Conflict"),
        gettext_noop("Request Entity Too Large"),
        gettext_noop("Content Too Large"),
        gettext_noop("Unsupported Media Type"),
        gettext_noop("Unprocessable Entity"),
        gettext_noop("Unprocessable Content"),
        gettext_noop("Too Many Requests"),
        gettext_noop("Internal Server Error"),
        gettext_noop("Service Unavailable"),
        gettext_noop("Bad request"),
        gettext_noop("Club suspended"),
        gettext_noop("Confirmation required"),
        gettext_noop("Idempotency key reused"),
        gettext_noop("Illegal move"),
        gettext_noop("Invalid settings"),
        gettext_noop("Not found"),
        gettext_noop("Not now"),
        gettext_noop("Not permitted"),
        gettext_noop("Pairing constraint"),
        gettext_noop("Quota exceeded"),
        gettext_noop("Seat held"),
        gettext_noop("Stale expected_seq"),
        gettext_noop("Unavailable"),
    )
)


def said(title: str) -> str:
    """Return a title in the request's language when it is one of ``TITLES``."""
    return _(title) if title in TITLES else title


def _title(status_code: int) -> str:
    from http import HTTPStatus

    try:
        return said(HTTPStatus(status_code).phrase)
    except ValueError:
        return _("Error")


def problem_response(
    status_code: int, code: str, detail: str, headers: dict[str, str] | None = None, **extra: Any
) -> Response:
    """Return a DRF response carrying a problem document."""
    return Response(
        problem(status_code, code, detail, **extra),
        status=status_code,
        content_type=CONTENT_TYPE,
        headers=headers,
    )


def _field_errors(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """Flatten DRF's nested validation errors into {"field.sub": [messages]} (Django's
    "__all__", errors of no field in particular, under "non_field_errors", as DRF's)."""
    out: dict[str, list[str]] = {}
    if isinstance(detail, dict):
        for key, value in detail.items():
            named = "non_field_errors" if key == "__all__" and not prefix else key
            name = f"{prefix}.{named}" if prefix else str(named)
            for k, v in _field_errors(value, name).items():
                out.setdefault(k, []).extend(v)
    elif isinstance(detail, list):
        if all(not isinstance(item, (dict, list)) for item in detail):
            out[prefix or "non_field_errors"] = [str(item) for item in detail]
        else:
            for i, item in enumerate(detail):
                for k, v in _field_errors(item, f"{prefix}.{i}" if prefix else str(i)).items():
                    out.setdefault(k, []).extend(v)
    else:
        out[prefix or "non_field_errors"] = [str(detail)]
    return out


def _refusal_extra(exc: Exception) -> dict[str, Any]:
    """What a refusal's problem document says besides its code: the rule of a move the engine
    refused, the head of a stale append, a correction's consequences, what a draft edit
    breaks, the settings refused, the ties at a cut, the quota passed and its limit (None:
    not said)."""
    return {
        "rule": exc.rule if isinstance(exc, store.AppendRefused | sc.SeepError) else None,
        "current_seq": exc.current_seq if isinstance(exc, store.StaleSequence) else None,
        "consequences": (exc.preview.as_dict() if isinstance(exc, ConfirmationRequired) else None),
        "problems": exc.problems if isinstance(exc, competition_errors.DraftEditRefused) else None,
        "errors": (
            _field_errors(exc.fields)
            if isinstance(exc, competition_errors.InvalidSettings) and exc.fields
            else None
        ),  # per setting, as a 400 "invalid" names its fields
        "ties": getattr(exc, "ties", None),
        "quota": getattr(exc, "quota", None) if isinstance(exc, store.QuotaExceeded) else None,
        "limit": getattr(exc, "limit", None) if isinstance(exc, store.QuotaExceeded) else None,
    }


def _refusal_detail(refused: Any) -> str:
    """A refusal's detail in the request's language. The store's refusals are made in pure
    Python (``tournaments.errors``: no Django there, so no translation), so the three a client
    meets in the course of play are said again here; every other refusal carries its words."""
    said = {name: getattr(refused, name, None) for name in ("expected_seq", "match_id")}
    if isinstance(refused, store.StaleSequence) and said["expected_seq"] is not None:
        return _("expected_seq %(expected)s is stale: the match is at seq %(current)s") % {
            "expected": said["expected_seq"],
            "current": refused.current_seq,
        }
    if isinstance(refused, store.IdempotencyKeyReused):
        return _("this Idempotency-Key was used for a different request on this match")
    if isinstance(refused, store.MatchNotFound) and said["match_id"] is not None:
        return _("there is no match %(match)s") % {"match": repr(said["match_id"])}
    return str(refused.message)


def _retry_after(exc: Exception, status_code: int) -> dict[str, str] | None:
    """The ``Retry-After`` of a refusal to send again: a store that could not take it now
    (1 s), a club over its rate (the rest of the minute)."""
    if isinstance(exc, store.RateQuotaExceeded):
        return {"Retry-After": str(max(int(getattr(exc, "retry_after", 1)), 1))}
    return {"Retry-After": "1"} if status_code == 503 else None


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Turn any error a view raises into a problem response (RFC 9457)."""
    if isinstance(exc, Problem):
        return problem_response(exc.status_code, exc.problem_code, str(exc.detail), **exc.extra)
    refusal = refusals.refusal_of(exc)
    if refusal is not None:  # the project's own: its status and title from the one map
        refused: Any = exc  # every refusal carries its code and its message
        return problem_response(
            refusal.status,
            refused.code,
            _refusal_detail(refused),
            headers=_retry_after(exc, refusal.status),
            title=said(refusal.words),
            **_refusal_extra(exc),
        )
    if isinstance(exc, RequestDataTooBig):
        return problem_response(413, "too_large", _("the request body is too large"))
    if isinstance(exc, SuspiciousOperation):
        return problem_response(400, "bad_request", _("the request cannot be read"))
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # an unexpected error: Django's 500 handler answers (problem+json)
    code = DRF_CODES.get(response.status_code, "error")
    detail = getattr(exc, "detail", None)
    extra: dict[str, Any] = {}
    if isinstance(exc, exceptions.ValidationError):
        code = "invalid"
        extra["errors"] = _field_errors(exc.detail)
        message = _("the request is not valid: see errors")
    elif isinstance(exc, (Http404, exceptions.NotFound)):
        message = _("no such resource (or not one you may see)")
    elif isinstance(exc, (PermissionDenied, exceptions.PermissionDenied)):
        message = str(detail) if detail else _("you may not do this")
    elif isinstance(exc, exceptions.Throttled):
        # Throttled sets .wait in __init__; the stubs do not declare it
        wait = f"{exc.wait or 1:.0f}"  # type: ignore[attr-defined]
        message = _("too many requests: try again in %(seconds)s s") % {"seconds": wait}
    elif isinstance(exc, exceptions.ParseError):
        code, message = "malformed", _("the request body is not valid JSON")
    else:
        message = str(detail) if detail else _title(response.status_code)
    headers = {
        k: v
        for k, v in response.headers.items()
        if k in ("Retry-After", "Allow", "WWW-Authenticate")
    }
    return problem_response(response.status_code, code, message, headers=headers, **extra)


# --- errors Django answers itself, under /api/ ----------------------------------------------


def _json_or_none(
    request: HttpRequest, status_code: int, code: str, detail: str
) -> HttpResponse | None:
    if request.path.startswith("/api/"):
        return JsonResponse(
            problem(status_code, code, detail), status=status_code, content_type=CONTENT_TYPE
        )
    return None


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404 for any unknown path: a problem document under /api/, Django's page elsewhere."""
    answer = _json_or_none(request, 404, "not_found", _("no such resource"))
    if answer is not None:
        return answer
    from django.views.defaults import page_not_found

    return page_not_found(request, exception or Http404())


#: the name of the route that takes every path under /api/ no other route takes (deploy/urls.py)
UNKNOWN_PATH = "api-unknown"


@csrf_exempt  # it changes nothing: a 404 says more than a CSRF refusal
def unknown_path(request: HttpRequest) -> HttpResponse:
    """Any path under /api/ that names nothing: a 404 problem, with DEBUG on too (Django
    would answer its HTML page then, ``handler404`` only with DEBUG off). A GET or HEAD that
    lacks only its final slash is redirected to it, as Django's ``APPEND_SLASH`` does
    elsewhere; another method is told the path it meant (a redirect would lose its body)."""
    from django.http import HttpResponsePermanentRedirect
    from django.urls import Resolver404, resolve

    path = request.path_info
    meant = None
    if not path.endswith("/"):
        try:
            found = resolve(path + "/")
        except Resolver404:
            found = None
        if found is not None and found.url_name != UNKNOWN_PATH:
            meant = request.path + "/"
    if meant is not None and request.method in ("GET", "HEAD"):
        query = request.META.get("QUERY_STRING", "")
        return HttpResponsePermanentRedirect(meant + (f"?{query}" if query else ""))
    detail = (
        _("no such resource: did you mean %(path)s?") % {"path": meant}
        if meant
        else _("no such resource")
    )
    return JsonResponse(problem(404, "not_found", detail), status=404, content_type=CONTENT_TYPE)


def server_error(request: HttpRequest) -> HttpResponse:
    """500: a problem document under /api/ (nothing about the error leaks), else Django's."""
    answer = _json_or_none(request, 500, "server_error", _("something went wrong on our side"))
    if answer is not None:
        return answer
    from django.views.defaults import server_error as page

    return page(request)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    answer = _json_or_none(request, 400, "bad_request", _("the request cannot be read"))
    if answer is not None:
        return answer
    from django.views.defaults import bad_request as page

    return page(request, exception or SuspiciousOperation())


def forbidden(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    answer = _json_or_none(request, 403, "forbidden", _("you may not do this"))
    if answer is not None:
        return answer
    from django.views.defaults import permission_denied

    return permission_denied(request, exception or PermissionDenied())


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A session request without its CSRF token: 403 problem under /api/."""
    answer = _json_or_none(request, 403, "csrf_failed", _("CSRF check failed: send the CSRF token"))
    if answer is not None:
        return answer
    from django.views.csrf import csrf_failure as page

    return page(request, reason)
