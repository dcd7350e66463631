"""A browser that signed in to an account before: it gets past the lock-outs for that account.

An attacker can make an account's sign-ins fail from their own addresses, or from the club's
shared Wi-Fi; the account's owner, at a browser they signed in from before, should still get
in. So every successful sign-in (the sign-in form, the admin's, an invitation accepted) gives
the browser a cookie naming the account: signed with the site's key (it cannot be forged or
edited), HttpOnly (no script reads it), ``Secure`` as the session's cookie is, SameSite=Lax,
kept ``SIGNIN_KNOWN_BROWSER_DAYS`` (and refused once older, whatever the browser keeps). It
names up to ``ACCOUNTS`` accounts, the latest first (a desk computer several directors use),
each by a keyed digest of its user name, not the name: a signed cookie is only encoded, and
whoever sits at the browser could read the names in it (``account_mark``).

It skips no password: it only lifts the lock-outs (``web.lockouts``) for the accounts it
names. Nor does it lift them for ever: its own failures are counted (by the cookie's random
id, in the cache) and at ``SIGNIN_FAILURE_LIMIT`` of them, within the time failures are
remembered, it is refused like any other browser; so a cookie taken from a browser that once
signed in buys a handful of guesses, no more. If the cache forgets (a restart of the
in-process cache; Redis unreachable) the count starts again.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.core import signing
from django.core.cache import cache
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils.crypto import salted_hmac

COOKIE = "seep_known_browser"
SALT = "web.known_browsers"
#: how many accounts one browser is remembered for
ACCOUNTS = 5


def lifetime() -> int:
    """Return how long, in seconds, a browser stays known after its latest sign-in."""
    return int(settings.SIGNIN_KNOWN_BROWSER_DAYS) * 24 * 3600


def read(request: HttpRequest) -> dict[str, Any] | None:
    """Return the browser's cookie, checked (``{"id": str, "accounts": [marks]}``), or None
    if it has none, or one that is forged, edited, too old or not of this shape."""
    raw = request.COOKIES.get(COOKIE)
    if not raw:
        return None
    try:
        value = signing.loads(raw, salt=SALT, max_age=lifetime())
    except signing.BadSignature:  # SignatureExpired is one
        return None
    if not (
        isinstance(value, dict)
        and isinstance(value.get("id"), str)
        and isinstance(value.get("accounts"), list)
        and all(isinstance(name, str) for name in value["accounts"])
    ):
        return None
    return value


def account_mark(username: str) -> str:
    """Return how the cookie names an account: a digest of its user name keyed with the
    site's secret (the same name, the same mark; the mark tells no one the name)."""
    return salted_hmac(SALT, username, algorithm="sha256").hexdigest()[:32]


def failures_key(browser: dict[str, Any]) -> str:
    return f"signin:known-browser-failures:{browser['id']}"


def may_pass(request: HttpRequest, username: str | None) -> bool:
    """Whether this browser is known for ``username`` and its own failures are under the
    limit: then no lock-out refuses it."""
    browser = read(request)
    if browser is None or username is None or account_mark(username) not in browser["accounts"]:
        return False
    failures = cache.get(failures_key(browser), 0)
    return isinstance(failures, int) and failures < settings.AXES_FAILURE_LIMIT


def count_failure(request: HttpRequest, username: str | None, remembered: timedelta) -> None:
    """Count a failed sign-in by a browser known for ``username``, against its own limit,
    for as long as ``remembered`` (as failures are, ``web.lockouts.memory``)."""
    browser = read(request)
    if browser is None or username is None or account_mark(username) not in browser["accounts"]:
        return
    key = failures_key(browser)
    timeout = int(remembered.total_seconds())
    cache.add(key, 0, timeout)
    try:
        cache.incr(key)
    except ValueError:  # gone between add and incr (expired, evicted): this is the first
        cache.set(key, 1, timeout)


@receiver(user_logged_in, dispatch_uid="web.known_browsers.remember")
def remember(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """Mark the request: its answer makes the browser known for this account (the
    middleware sets the cookie, the signal has no answer to set it on)."""
    if request is not None:
        request.known_browser_account = user.get_username()  # type: ignore[attr-defined]


def cookie_value(request: HttpRequest, username: str) -> str:
    """Return the browser's new cookie: its id kept, ``username`` first among its accounts."""
    browser = read(request) or {"id": secrets.token_urlsafe(16), "accounts": []}
    mark = account_mark(username)
    accounts = [mark] + [other for other in browser["accounts"] if other != mark]
    return signing.dumps({"id": browser["id"], "accounts": accounts[:ACCOUNTS]}, salt=SALT)


class KnownBrowserMiddleware:
    """Sets the known-browser cookie on the answer to a successful sign-in."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        username = getattr(request, "known_browser_account", None)
        if isinstance(username, str):
            response.set_cookie(
                COOKIE,
                cookie_value(request, username),
                max_age=lifetime(),
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response


__all__ = [
    "COOKIE",
    "KnownBrowserMiddleware",
    "account_mark",
    "count_failure",
    "may_pass",
    "read",
    "remember",
]
