"""Integration tokens: knox stores them hashed; each carries its tournament scope and write bit.

``Authorization: Bearer <token>``. A token that is unknown, expired or malformed is refused
(401) rather than treated as anonymous, so an integration notices at once.

One query a request: knox finds the candidates by the token's key (its first characters) and
compares digests in constant time, as here; but before that it loads every token of the
token's user to delete the expired ones, on every request. Here only the presented token's
expiry is checked (an expired one is deleted and refused, as knox does); the user's other
expired tokens are swept when they manage their tokens (``api.views.Tokens``).
"""

from __future__ import annotations

import binascii
from hmac import compare_digest
from typing import Any

from django.utils import timezone
from knox.auth import TokenAuthentication
from knox.crypto import hash_token
from knox.settings import CONSTANTS, knox_settings
from knox.signals import token_expired
from rest_framework import exceptions
from rest_framework.request import Request


class ScopedTokenAuthentication(TokenAuthentication):
    """knox's token authentication, safe on any input (a header that is not even UTF-8)."""

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        try:
            return super().authenticate(request)  # type: ignore[no-any-return]
        except UnicodeError as exc:
            raise exceptions.AuthenticationFailed("Invalid token.") from exc

    def authenticate_credentials(self, token: bytes) -> tuple[Any, Any]:
        from .models import ApiToken

        if len(token) > 200:
            raise exceptions.AuthenticationFailed("Invalid token.")
        text = token.decode("utf-8")
        try:
            digest = hash_token(text)
        except (TypeError, binascii.Error) as exc:
            raise exceptions.AuthenticationFailed("Invalid token.") from exc
        candidates = ApiToken.objects.filter(
            token_key=text[: CONSTANTS.TOKEN_KEY_LENGTH]
        ).select_related("user")
        for auth_token in candidates:
            if not compare_digest(digest, auth_token.digest):
                continue
            if auth_token.expiry is not None and auth_token.expiry < timezone.now():
                username = auth_token.user.get_username()
                auth_token.delete()
                token_expired.send(sender=type(self), username=username, source="auth_token")
                break
            if knox_settings.AUTO_REFRESH and auth_token.expiry:
                self.renew_token(auth_token)
            return self.validate_user(auth_token)  # type: ignore[no-any-return]
        raise exceptions.AuthenticationFailed("Invalid token.")


try:  # the schema names the token scheme (drf-spectacular reads this extension)
    from drf_spectacular.extensions import OpenApiAuthenticationExtension

    class ScopedTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[misc]
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
