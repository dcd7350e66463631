"""What several views share: the schema's error responses and pages, paginating, ETags."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from django.http import HttpResponse
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ..access import directs, signed_in
from ..pagination import Pages

F = TypeVar("F", bound=Callable[..., Any])


def refuse_unknown(request: Request, fields: frozenset[str] = frozenset()) -> None:
    """Refuse a body with a field other than ``fields`` (none: a write that takes no body),
    as the serializers refuse one (400 ``invalid``, each named "not a field you may send").
    A body in a format the API does not read (an empty form a client sends by default) holds no
    field it reads: left alone, as before."""
    try:
        body = request.data
    except exceptions.UnsupportedMediaType:
        return
    if isinstance(body, dict):
        unknown = sorted(str(name) for name in body if name not in fields)
        if unknown:
            raise serializers.ValidationError(
                {name: ["not a field you may send"] for name in unknown}
            )
    elif body or isinstance(body, list):  # anything but no body (None, "") or an object
        raise serializers.ValidationError({"non_field_errors": ["the body is a JSON object"]})


PROBLEM = OpenApiResponse(
    response=inline_serializer(
        "Problem",
        {
            "type": serializers.CharField(),
            "title": serializers.CharField(),
            "status": serializers.IntegerField(),
            "detail": serializers.CharField(),
            "code": serializers.CharField(),
            "rule": serializers.CharField(required=False),
            "current_seq": serializers.IntegerField(required=False),
            "errors": serializers.DictField(required=False),
        },
    ),
    description="application/problem+json (RFC 9457)",
)
PAGE_PARAMS = [
    OpenApiParameter("page", int, description="Which page (from 1)"),
    OpenApiParameter("page_size", int, description="Items a page (at most 200; default 50)"),
]
ERRORS = {
    (code, "application/problem+json"): PROBLEM
    for code in (400, 401, 403, 404, 405, 406, 409, 413, 415, 422, 429, 503)
}


def paged(name: str, item: Any) -> Any:
    """Return the schema of a page of ``item``s (what ``paginate`` answers)."""
    return inline_serializer(
        f"Paginated{name}List",
        {
            "count": serializers.IntegerField(),
            "next": serializers.URLField(allow_null=True),
            "previous": serializers.URLField(allow_null=True),
            "results": item(many=True),
        },
    )


def listed(
    item: Any, operation_id: str, parameters: Sequence[OpenApiParameter] = ()
) -> Callable[[F], F]:
    """Return the schema of a list answered a page at a time (``paginate``), to decorate its
    ``get`` with: a page of ``item``s (named like its component), the errors, and ``parameters``
    then the page's."""
    return extend_schema(
        responses={200: paged(item.__name__.removesuffix("Serializer"), item), **ERRORS},
        parameters=[*parameters, *PAGE_PARAMS],
        operation_id=operation_id,
    )


def paginate(
    view: APIView, request: Request, queryset: Any, serialize: Callable[[Any], Any]
) -> Response:
    pages = Pages()
    page: list[Any] | None = pages.paginate_queryset(queryset, request, view=view)
    assert page is not None
    return pages.get_paginated_response([serialize(item) for item in page])


def conditional(request: Request, tag: str, build: Callable[[], HttpResponse]) -> HttpResponse:
    """Answer 304 when the client holds this version (``If-None-Match``), else build it."""
    etag = f'"{hashlib.sha256(tag.encode()).hexdigest()[:32]}"'
    held = request.headers.get("If-None-Match", "")
    response: HttpResponse
    if etag in [t.strip() for t in held.split(",")] or held.strip() == "*":
        response = Response(status=status.HTTP_304_NOT_MODIFIED)
    else:
        response = build()
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    response["Vary"] = "Authorization, Cookie"
    return response


def viewer_key(request: Request, tournament_id: int) -> str:
    """What a response may depend on about its caller (for ETags): who, and whether a director."""
    user_id = request.user.pk if signed_in(request) else 0
    return f"{user_id}:{int(directs(request, tournament_id)) if user_id else 0}"
