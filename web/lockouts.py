"""When a sign-in is refused for failures: the policy, on django-axes' records.

django-axes records every failed sign-in (a row per user name, address and browser, with
its count and its latest time); this handler decides from those rows whether the next
attempt is refused, so that nobody can lock an account's owner out by guessing its
password (docs/deploy.md, "Signing in"):

- *One account from one address* is refused after ``SIGNIN_FAILURE_LIMIT`` failures; an
  account guessed from elsewhere is no lock on its owner's address.
- *One address, whatever the accounts*, is refused after ``SIGNIN_ADDRESS_FAILURE_LIMIT``.
- A lock lasts ``SIGNIN_LOCKOUT_SECONDS`` from the failure that set it; each failure counted
  after it ends doubles it, up to ``SIGNIN_LOCKOUT_MAX_SECONDS``: growing delays, not one
  long lock. Failures while locked are not counted. Failures are forgotten once twice the
  longest lock has passed with none (axes' cool-off, ``memory``).
- A browser that signed in to the account before (``web.known_browsers``) is refused by
  neither lock for that account, until its own failures reach ``SIGNIN_FAILURE_LIMIT``; its
  password is checked as anyone's.
"""

from __future__ import annotations

import ipaddress
from datetime import datetime, timedelta
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from axes.signals import user_locked_out
from django.conf import settings
from django.db.models import Max, Q, Sum
from django.http import HttpRequest
from django.utils import timezone
from rest_framework.throttling import BaseThrottle

from . import known_browsers


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


def memory(request: HttpRequest | None = None) -> timedelta:
    """Return how long failures are remembered with none after them (axes' cool-off): twice
    the longest lock, so a lock at its longest is followed by one guess, not a fresh run."""
    return timedelta(seconds=2 * settings.SIGNIN_LOCKOUT_MAX_SECONDS)


def lock_length(failures: int, limit: int) -> timedelta | None:
    """Return how long ``failures`` lock for, from the last of them (None: not locked):
    ``SIGNIN_LOCKOUT_SECONDS`` at ``limit``, twice that at one more, and so on up to
    ``SIGNIN_LOCKOUT_MAX_SECONDS``."""
    if failures < limit:
        return None
    base = settings.SIGNIN_LOCKOUT_SECONDS
    longest = settings.SIGNIN_LOCKOUT_MAX_SECONDS
    doublings = min(failures - limit, longest.bit_length())  # past the cap: no huge powers
    return timedelta(seconds=min(longest, base * 2**doublings))


def clock(request: HttpRequest) -> datetime:
    """Return the time of this attempt, as axes stamps its records."""
    stamped = getattr(request, "axes_attempt_time", None)
    return stamped if isinstance(stamped, datetime) else timezone.now()


def lock_ends(request: HttpRequest, credentials: dict[str, Any] | None) -> datetime | None:
    """Return when the lock on this attempt ends (its account from its address, or its
    address), whichever ends last; None if neither is locked now. One query."""
    now = clock(request)
    username = get_client_username(request, credentials)
    address = getattr(request, "axes_ip_address", None) or client_address(request)
    pair = Q(username=username) if username is not None else Q(username__isnull=True)
    counted = AccessAttempt.objects.filter(
        ip_address=address, attempt_time__gte=now - memory(request)
    ).aggregate(
        address_failures=Sum("failures_since_start"),
        address_last=Max("attempt_time"),
        pair_failures=Sum("failures_since_start", filter=pair),
        pair_last=Max("attempt_time", filter=pair),
    )
    ends = []
    for which, limit in (
        ("pair", settings.AXES_FAILURE_LIMIT),
        ("address", settings.SIGNIN_ADDRESS_FAILURE_LIMIT),
    ):
        length = lock_length(counted[f"{which}_failures"] or 0, limit)
        if length is not None and counted[f"{which}_last"] is not None:
            ends.append(counted[f"{which}_last"] + length)
    end = max(ends, default=None)
    return end if end is not None and end > now else None


def is_refused(request: HttpRequest, credentials: dict[str, Any] | None) -> bool:
    """Whether this attempt is refused for failures (a known browser's own sign-ins are not,
    until its own failures reach the limit)."""
    username = get_client_username(request, credentials)
    if known_browsers.may_pass(request, username):
        return False
    return lock_ends(request, credentials) is not None


class SignInHandler(AxesDatabaseHandler):
    """axes' database handler, deciding by ``is_refused`` instead of one failure count for
    everything axes watches (``AXES_LOCK_OUT_AT_FAILURE`` is off: axes only records)."""

    def is_locked(self, request: Any, credentials: dict[str, Any] | None = None) -> bool:
        return is_refused(request, credentials)

    def user_login_failed(
        self, sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any
    ) -> None:
        already_refused = bool(getattr(request, "axes_locked_out", False))
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is None or already_refused:
            return  # refused before the password was checked: axes counted nothing
        known_browsers.count_failure(
            request, get_client_username(request, credentials), memory(request)
        )
        if is_refused(request, credentials):  # this failure set a lock: say so at once
            request.axes_locked_out = True
            request.axes_credentials = credentials
            user_locked_out.send(
                "axes",
                request=request,
                username=get_client_username(request, credentials),
                ip_address=request.axes_ip_address,
            )


__all__ = ["SignInHandler", "client_address", "is_refused", "lock_ends", "lock_length", "memory"]
