"""Rate limits: per address for anonymous callers, per token for integrations, per user;
per club for all its tokens together (its quota, ``refuse_over_club_rate``); and the tokens
made, per account and per club (``TokensMadeThrottle``).

Each caller is counted in one scope: ``anon`` (by address) when signed out, ``token`` (by
token) with an integration token, ``user`` (by user) for a signed-in browser session; the
rates are ``DEFAULT_THROTTLE_RATES`` (settings: ``API_THROTTLE_*``). The team tokens an
account made are counted together, as one token of that account (``token_bucket``).

Counted in fixed windows: one counter per caller and window (a minute for "N/min") in the
cache, created with the window's length as its expiry and increased by each request, in one
round trip to Redis (``deploy.cache.FailOpenRedisCache.count``). DRF's own throttles keep
the time of every request of the window in a list they read and write back whole, two round
trips and a list as long as the rate allows: at a rate of thousands a minute that was most of
a cheap read's cost, and it grew with the load. The price of windows: a caller may get up to
twice the rate across a window's edge. ``Retry-After`` is the time left in the window.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.cache import cache
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

#: the request's attribute holding (counter key, count) when api.auth has counted it
COUNTED = "_seep_counted"


def token_of(request: Request) -> Any:
    """The request's integration token, if any (imported late: DRF loads throttles early)."""
    from .models import ApiToken

    auth = getattr(request, "auth", None)
    return auth if isinstance(auth, ApiToken) else None


def token_bucket(token: Any) -> Any:
    """Who a token's requests are counted as, in the ``token`` scope: the token itself; a
    team's token, every team token its maker made, together.

    An account holds at most ``API_TOKENS_PER_ACCOUNT`` tokens of its own, each with its own
    counter; its team tokens are not in that cap (an evening needs one a team, more than any
    cap would leave), so they share one counter instead: however many teams an account makes
    tokens for, they read together as fast as one token, and the account's tokens together
    at most (cap + 1) times the token rate.
    """
    if getattr(token, "team_link_id", None) is not None:
        return f"teams-of-{token.user_id}"
    return token.pk


class RateThrottle(SimpleRateThrottle):
    """The caller's requests this window, in the scope that applies to them (the module's doc)."""

    cache_format = "throttle_%(scope)s_%(ident)s_%(window)s"

    def __init__(self) -> None:  # the rate depends on the caller: see allow_request
        self._left = 0.0

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        return None  # unused: allow_request counts (SimpleRateThrottle's abstract method)

    def scope_of(self, request: Request) -> tuple[str, Any]:
        """Return the scope the request is counted in, and who is counted."""
        token = token_of(request)
        if token is not None:
            return "token", token_bucket(token)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            return "user", user.pk
        return "anon", self.get_ident(request)

    def window(self, scope: str, ident: Any) -> tuple[str, int, int, float] | None:
        """The counter this caller is counted at now: its key, the rate (requests and
        seconds), and when the window ends; None when the scope has no rate."""
        rate = self.THROTTLE_RATES.get(scope)
        if rate is None:
            return None
        allowed, seconds = self.parse_rate(rate)
        if allowed is None or seconds is None:
            return None
        now = time.time()
        window = int(now // seconds)
        key = self.cache_format % {"scope": scope, "ident": ident, "window": window}
        return key, allowed, seconds, (window + 1) * seconds - now

    def allow_request(self, request: Request, view: Any) -> bool:
        found = self.window(*self.scope_of(request))
        if found is None:
            return True
        key, allowed, seconds, left = found
        # A token remembered by api.auth was counted as it was authenticated, in the same
        # round trip to Redis as its check: that count, if it was at this counter.
        early = request.__dict__.get(COUNTED)
        counted = early[1] if early is not None and early[0] == key else _count(key, seconds)
        if counted is not None and counted > allowed:  # None: no cache to count in (fail open)
            self._left = left
            return False
        token = token_of(request)
        if token is not None:
            refuse_over_club_rate(token)
        return True

    def wait(self) -> float | None:
        return max(self._left, 1.0)


def club_of(token: Any) -> int | None:
    """The club a token's requests count for: its own, or its tournament's (read with the
    token by ``api.auth``, in the same query; else remembered for a while:
    ``quotas.club_lately``); None for a tournament of none."""
    if token.club_id is not None:
        return int(token.club_id)
    if hasattr(token, "club_of_tournament"):
        return token.club_of_tournament  # type: ignore[no-any-return]
    found: int | None = _quotas().club_lately(token.tournament_id)
    return found


def refuse_over_club_rate(token: Any) -> None:
    """Count a request of ``token`` for its club, every token of the club together (teams'
    too), against the club's quota of API requests a minute (``api_rate``); over it, raise
    ``RateQuotaExceeded`` (429 ``quota_exceeded``, with ``Retry-After``). A window a minute
    long in the cache, as the other counters here (fail open while the cache is down)."""
    quotas = _quotas()
    club_id = club_of(token)
    if club_id is None:
        return
    most = quotas.limit_lately(club_id, "api_rate")
    now = time.time()
    window = int(now // 60)
    counted = _count(f"throttle_club_{club_id}_{window}", 60)
    if counted is not None and counted > most:
        from django.utils.translation import gettext

        from tournaments.errors import RateQuotaExceeded

        left = max(int((window + 1) * 60 - now + 0.999), 1)
        raise RateQuotaExceeded(
            gettext(
                "this club's quota of API requests a minute is %(limit)s, for all its tokens "
                "together, and this minute's are spent: try again in %(seconds)s s"
            )
            % {"limit": most, "seconds": left},
            limit=most,
            retry_after=left,
        )


def _quotas() -> Any:
    from tournaments import quotas  # imported late: DRF loads throttles early

    return quotas


class TokensMadeThrottle(RateThrottle):
    """Tokens made or renewed (``POST /api/v1/tokens/``, ``POST /api/v1/tokens/{id}/renew/``),
    counted by the account and by the club the token is for, apart, each against the
    ``tokens_made`` rate (settings: ``API_THROTTLE_TOKENS_MADE``, 60 an hour): a session or a
    token, stolen or not, cannot mint tokens as fast as it likes, nor can a club's directors
    together. Not by address: two clubs behind one address (a venue's NAT, a phone carrier's)
    would share a count, and an evening's setting up is one club's, not one network's.

    The club is known only once the body is read, so the view calls ``allow_made`` after
    validating it (DRF's throttles run before the body is parsed), on top of the caller's own
    rate (``RateThrottle``)."""

    scope = "tokens_made"

    def allow_made(self, request: Request, club_id: int | None) -> bool:
        """Count a token made (or renewed) for ``club_id`` (None: a tournament of no club) by
        the request's account; False when the account's or the club's count is over the rate."""
        counted = [f"account-{request.user.pk}"]
        if club_id is not None:
            counted.append(f"club-{club_id}")
        for ident in counted:
            found = self.window(self.scope, ident)
            if found is None:
                return True
            key, allowed, seconds, left = found
            count = _count(key, seconds)
            if count is not None and count > allowed:
                self._left = left
                return False
        return True

    def refuse_over_rate(self, request: Request, club_id: int | None) -> None:
        """Raise 429 (``throttled``, with ``Retry-After``) when ``allow_made`` says no."""
        if not self.allow_made(request, club_id):
            raise exceptions.Throttled(wait=self.wait())


def _count(key: str, seconds: int) -> int | None:
    """Count one request at ``key`` (a counter living ``seconds``); return the count so far."""
    count = getattr(cache, "count", None)
    if count is not None:  # Redis: one round trip (None while Redis is down)
        answer: int | None = count(key, seconds)
        return answer
    cache.add(key, 0, seconds)  # a cache without counters of its own (tests, the embedded demo)
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between the two
        cache.add(key, 1, seconds)
        return 1


__all__ = [
    "COUNTED",
    "RateThrottle",
    "TokensMadeThrottle",
    "club_of",
    "refuse_over_club_rate",
    "token_bucket",
    "token_of",
]
