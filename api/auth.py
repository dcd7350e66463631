"""Integration tokens: knox stores them hashed; each carries its tournament scope and write bit.

``Authorization: Bearer <token>``. A token that is unknown, expired or malformed is refused
(401) rather than treated as anonymous, so an integration notices at once.
"""

from __future__ import annotations

from typing import Any

from knox.auth import TokenAuthentication
from rest_framework import exceptions
from rest_framework.request import Request


class ScopedTokenAuthentication(TokenAuthentication):
    """knox's token authentication, safe on any input (a header that is not even UTF-8)."""

    # knox is unannotated (no stubs): its methods are untyped calls returning Any.

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        try:
            return super().authenticate(request)  # type: ignore[no-untyped-call,no-any-return]
        except UnicodeError as exc:
            raise exceptions.AuthenticationFailed("Invalid token.") from exc

    def authenticate_credentials(self, token: bytes) -> tuple[Any, Any]:
        if len(token) > 200:
            raise exceptions.AuthenticationFailed("Invalid token.")
        return super().authenticate_credentials(token)  # type: ignore[no-untyped-call,no-any-return]


try:  # the schema names the token scheme (drf-spectacular reads this extension)
    from drf_spectacular.extensions import OpenApiAuthenticationExtension

    # drf-spectacular's extension __init_subclass__ is unannotated
    class ScopedTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
        target_class = "api.auth.ScopedTokenAuthentication"
        name = "tokenAuth"

        def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
            return {
                "type": "http",
                "scheme": "bearer",
                "description": "An integration token (POST /api/v1/tokens/), scoped to one "
                "tournament, to read or to read and write.",
            }

except ImportError:  # pragma: no cover - drf-spectacular is a dependency
    pass
