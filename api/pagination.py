"""Pagination: numbered pages with a maximum size on lists; a seq cursor on an event feed."""

from __future__ import annotations

from typing import Any

from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response


class Pages(PageNumberPagination):
    """``?page=N&page_size=M`` (at most 200 a page)."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_page_size(self, request: Request) -> int:
        """Return the page size asked for, or refuse a malformed one (400), never ignore it."""
        asked = int_param(request, "page_size", self.page_size, low=1, high=1_000_000)
        return min(asked, self.max_page_size)  # fmt: skip

    def get_page_number(self, request: Request, paginator: Any) -> Any:
        """DRF's, but a ``page`` sent empty is refused (400), as any other empty parameter."""
        if request.query_params.get(self.page_query_param) == "":
            from .problems import Problem

            raise Problem(
                "page is a page number (or leave it out for the first)",
                code="bad_parameter",
                parameter=self.page_query_param,
            )
        return super().get_page_number(request, paginator)

    def get_paginated_response(self, data: Any) -> Response:
        assert self.page is not None
        return Response(
            {
                "count": self.page.paginator.count,
                "next": self.get_next_link(),
                "previous": self.get_previous_link(),
                "results": data,
            }
        )


def int_param(request: Request, name: str, default: int, *, low: int, high: int) -> int:
    """Return a whole-number query parameter within [low, high], or refuse it (400); sent
    empty, it is refused too (leave it out for the default)."""
    from .problems import Problem

    raw = request.query_params.get(name)
    if raw is None:
        return default
    # ASCII digits (str.isdigit() is true of "²", which int() refuses), and not so many that
    # int() refuses them either (Python's limit on a number's digits)
    whole = raw.isascii() and raw.isdigit() and len(raw) <= 30
    if not whole or not low <= int(raw) <= high:
        raise Problem(
            f"{name} is a whole number from {low} to {high}", code="bad_parameter", parameter=name
        )
    return int(raw)


def bool_param(request: Request, name: str) -> bool:
    """Return a true/false query parameter (absent: false), or refuse it (400), empty too."""
    from .problems import Problem

    raw = request.query_params.get(name)
    if raw is None:
        return False
    if raw.lower() not in ("true", "false", "1", "0"):
        raise Problem(f"{name} is true or false", code="bad_parameter", parameter=name)
    return raw.lower() in ("true", "1")
