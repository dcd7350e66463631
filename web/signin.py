"""Signing in that resists guessing, and that no one can turn against an account's owner.

Every form that checks a password through ``authenticate(request, ...)`` (``/login/``,
``/admin/login/``) is watched by django-axes (settings, "Signing in"), which records the
failures; ``web.lockouts`` decides from them when a sign-in is refused: one account from
one address after ``SIGNIN_FAILURE_LIMIT`` failures, one address across accounts after
``SIGNIN_ADDRESS_FAILURE_LIMIT``, for a time that grows with each failure after the lock,
and never a browser that signed in to that account before (``web.known_browsers``). A
refused sign-in is refused before any password is hashed (``SignInBackend`` comes first).
This module gives axes that check and the page that says, in words, how long to wait, and
``/login/`` itself (``SignInView``): a password checked as before, then django-allauth's
steps, so an account with a passkey gives it as a second factor and one made on the sign-up
has a verified address (``web.accounts``), wherever its owner signs in.
"""

from __future__ import annotations

import math
from typing import Any

from allauth.account import app_settings as account_settings
from allauth.account.internal.flows.login import perform_password_login
from allauth.account.models import Login
from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.contrib.auth import views as auth
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.html import format_html

from .lockouts import client_address, clock, lock_ends


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


def seconds_left(request: HttpRequest, credentials: dict[str, Any] | None) -> int:
    """Return how many seconds are left of the lock on this sign-in (at least 1)."""
    end = lock_ends(request, credentials)
    if end is None:  # ended between the check and now: try again at once
        return 1
    return max(1, math.ceil((end - clock(request)).total_seconds()))


def in_words(seconds: int) -> str:
    """Return a wait in words: "40 seconds", "1 minute", "15 minutes", "4 hours".

    >>> in_words(40), in_words(60), in_words(61), in_words(7200), in_words(7201)
    ('40 seconds', '1 minute', '2 minutes', '2 hours', '3 hours')
    """
    if seconds < 60:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    if minutes < 120:
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    return f"{math.ceil(minutes / 60)} hours"


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
            "Too many failed sign-ins for this account from this address, or for many "
            f"accounts from it. Wait {in_words(wait)}, then try again. In a browser you "
            "have signed in with before, you can sign in now."
        ),
    }
    response = render(request, "web/login.html", context, status=429)
    response["Retry-After"] = str(wait)
    return response


class SignInView(auth.LoginView):
    """``/login/``: a user name and password checked as before (lock-outs included), then
    the account's own sign-in steps (django-allauth): a verified address for an account made
    on the sign-up, a passkey or code for one that set a second factor."""

    template_name = "web/login.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["signup_open"] = settings.SIGNUP_OPEN
        # where the passkey's sign-in goes on to (allauth's form: its "next", as ours)
        next_url = context.get(self.redirect_field_name) or ""
        context["redirect_field"] = format_html(
            '<input type="hidden" name="{}" value="{}">', self.redirect_field_name, next_url
        )
        return context

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        user = form.get_user()
        login = Login(
            user=user,
            redirect_url=self.get_success_url(),
            email_verification=account_settings.EMAIL_VERIFICATION,
        )
        response: HttpResponse = perform_password_login(
            self.request, {"username": user.get_username()}, login
        )
        return response


__all__ = [
    "SignInBackend",
    "SignInView",
    "client_address",
    "in_words",
    "locked_out",
    "seconds_left",
]
