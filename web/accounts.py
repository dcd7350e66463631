"""Accounts people make themselves, on django-allauth: who may sign up, where they land, and
the sign-in steps an account made without an address skips.

The operator opens the sign-up with ``SIGNUP_OPEN`` (docs/deploy.md, "Running a hosted
site"); a club's own server keeps it closed, its people invited by its directors as before.
An organizer who signed up verifies their address, then names their club (``web:club-new``).
"""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.models import EmailAddress
from allauth.account.stages import EmailVerificationStage
from django.conf import settings
from django.http import HttpRequest
from django.shortcuts import resolve_url

from tournaments.access import directed_clubs
from tournaments.display_names import display_name


def signed_up(user: Any) -> bool:
    """Return whether ``user`` has an e-mail address on the site (made on the sign-up, or
    added since): such an account signs in once one of its addresses is verified."""
    return bool(user.pk) and EmailAddress.objects.filter(user=user).exists()


def user_display(user: Any) -> str:
    """Return the name the account pages call ``user`` by: their name, else their user name."""
    return display_name(user)


class AccountAdapter(DefaultAccountAdapter):
    """django-allauth, as this site runs it."""

    def is_open_for_signup(self, request: HttpRequest) -> bool:
        """Return whether the operator opened the sign-up (``SIGNUP_OPEN``)."""
        return bool(settings.SIGNUP_OPEN)

    def get_login_redirect_url(self, request: HttpRequest) -> str:
        """Where a sign-in lands without a ``next``: an organizer who signed up and has no
        club yet names it first; everyone else, the score-keeper's page, as before."""
        user = request.user
        if signed_up(user) and not directed_clubs(user).exists():
            return resolve_url("web:club-new")
        return super().get_login_redirect_url(request)

    def get_login_stages(self) -> list[str]:
        """allauth's sign-in steps, with the address check of ``VerifiedAddressStage``."""
        stages = super().get_login_stages()
        ours = f"{VerifiedAddressStage.__module__}.{VerifiedAddressStage.__qualname__}"
        return [ours if s.endswith(".EmailVerificationStage") else s for s in stages]


class VerifiedAddressStage(EmailVerificationStage):
    """A verified address before signing in, for accounts that have an address: an account a
    director made for a member, or ``first_run`` made, has none to verify and signs in as it
    always did."""

    def handle(self) -> tuple[Any, bool]:
        user = self.login.user
        if user is not None and not signed_up(user):
            return None, True
        answer: tuple[Any, bool] = super().handle()  # type: ignore[no-untyped-call]
        return answer
