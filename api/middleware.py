"""Guards for every request under /api/, before any view: the body's size."""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse

from .problems import CONTENT_TYPE, problem


class BodyLimit:
    """Refuse an API request whose body is over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (413).

    DRF reads the body as a stream, past Django's own limit; reading ``request.body`` here
    applies the limit to every request and keeps the body for DRF to parse.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith("/api/") and request.method in (
            "POST",
            "PUT",
            "PATCH",
            "DELETE",
        ):
            try:
                request.body  # noqa: B018 - read for its check
            except RequestDataTooBig:
                return JsonResponse(
                    problem(413, "too_large", "the request body is too large"),
                    status=413,
                    content_type=CONTENT_TYPE,
                )
        return self.get_response(request)
