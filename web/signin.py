"""Signing in that resists guessing: django-axes' lock-outs, told in words.

Every form that checks a password through ``authenticate(request, ...)`` (``/login/``,
``/admin/login/``) is watched by django-axes (settings, "Signing in"): a failure is counted
for its account and for its client's address, apart; once either holds
``SIGNIN_FAILURE_LIMIT`` failures within ``SIGNIN_LOCKOUT_SECONDS``, a sign-in there is
refused before any password is hashed (``SignInBackend`` comes first) until that long after
the last counted failure, when the lock ends by itself. Someone else's failures from another
address lock nothing of yours but the account they were guessing. This module gives axes the
client's address as the API's rate limits count it, the length of a lock, and the page that
says how long to wait.
"""

from __future__ import annotations

import ipaddress
import math
from datetime import timedelta
from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.db.models import Max, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from rest_framework.throttling import BaseThrottle


class SignInBackend(AxesStandaloneBackend):
    """django-axes' check, before any password is hashed: a locked account or address is
    refused at once. A call without a request (a management command, the shell, a test's
    ``authenticate()``) comes from no sign-in form: nothing to count, it passes on."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> None:
        if request is None:
            return None
        super().authenticate(request, username, password, **kwargs)
        return None


def lockout_time(request: HttpRequest | None = None) -> timedelta:
    """Return how long a lock lasts after the failure that set it (read at each check)."""
    return timedelta(seconds=settings.SIGNIN_LOCKOUT_SECONDS)


def client_address(request: HttpRequest) -> str:
    """Return the address a sign-in is counted by: the one the API's rate limits count
    (``API_NUM_PROXIES``: the connection's, or the one the nearest proxy saw), an IPv6
    address by its /64 (one machine is often given a whole one). A forwarded value that is
    not an address counts as the connection's."""
    ident = BaseThrottle().get_ident(request)  # type: ignore[arg-type]  # reads only META
    try:
        address = ipaddress.ip_address(str(ident).strip())
    except ValueError:
        address = ipaddress.ip_address(request.META.get("REMOTE_ADDR") or "0.0.0.0")
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False).network_address)
    return str(address)


def seconds_left(request: HttpRequest, credentials: dict[str, Any] | None) -> int:
    """Return how many seconds are left of the lock on this sign-in (its account's or its
    address's, whichever ends last)."""
    lock = lockout_time(request)
    now = getattr(request, "axes_attempt_time", None) or timezone.now()  # axes' clock
    username = get_client_username(request, credentials)
    address = getattr(request, "axes_ip_address", None) or client_address(request)
    ends = []
    for which in ({"username": username}, {"ip_address": address}):
        if None in which.values():
            continue
        counted = AccessAttempt.objects.filter(attempt_time__gte=now - lock, **which).aggregate(
            failures=Sum("failures_since_start"), last=Max("attempt_time")
        )
        if (counted["failures"] or 0) >= settings.AXES_FAILURE_LIMIT and counted["last"]:
            ends.append(counted["last"] + lock)
    if not ends:
        return math.ceil(lock.total_seconds())
    left: timedelta = max(ends) - now
    return max(1, math.ceil(left.total_seconds()))


def in_words(seconds: int) -> str:
    """Return a wait in words: "40 seconds", "1 minute", "15 minutes".

    >>> in_words(40), in_words(60), in_words(61)
    ('40 seconds', '1 minute', '2 minutes')
    """
    if seconds < 60:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def locked_out(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """The sign-in page again, saying how long to wait (429, with ``Retry-After``): for
    ``/login/`` and ``/admin/login/`` alike (the admin's page has nowhere to say it)."""
    wait = seconds_left(request, credentials)
    default_next = "/admin/" if request.path.startswith("/admin/") else ""
    context = {
        "form": AuthenticationForm(request),
        "next": request.POST.get("next") or request.GET.get("next") or default_next,
        "locked_out": (
            "Too many failed sign-ins for this account or from this address. "
            f"Wait {in_words(wait)}, then try again."
        ),
    }
    response = render(request, "web/login.html", context, status=429)
    response["Retry-After"] = str(wait)
    return response


__all__ = ["SignInBackend", "client_address", "in_words", "locked_out", "lockout_time"]
