"""Rate limits: per address for anonymous callers, per token for integrations, per user."""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle


def token_of(request: Request) -> Any:
    """The request's integration token, if any (imported late: DRF loads throttles early)."""
    from .models import ApiToken

    auth = getattr(request, "auth", None)
    return auth if isinstance(auth, ApiToken) else None


class TokenRateThrottle(SimpleRateThrottle):
    """Requests made with an integration token, counted per token."""

    scope = "token"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        token = token_of(request)
        if token is None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": token.pk}


class SessionRateThrottle(UserRateThrottle):
    """Requests of a signed-in browser session, counted per user (tokens counted apart)."""

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if token_of(request) is not None:
            return None
        return super().get_cache_key(request, view)


__all__ = ["AnonRateThrottle", "SessionRateThrottle", "TokenRateThrottle"]
