"""A club's invitation opened by its member: they choose a user name and a password, and the
account is theirs in the club (docs/clubs.md, "Accounts")."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from tournaments import invites
from tournaments.errors import ClubRefused

from ..access import kept_by_nobody


class AccountForm(forms.Form):
    username = forms.CharField(max_length=150, label="User name")
    password = forms.CharField(
        label="Password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    again = forms.CharField(
        label="The password again", strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )  # fmt: skip

    def clean(self) -> dict[str, str]:
        data = super().clean() or {}
        if data.get("password") and data.get("password") != data.get("again"):
            self.add_error("again", "The two passwords differ.")
        return data


@require_http_methods(["GET", "POST"])
def accept(request: HttpRequest, key: str) -> HttpResponse:
    """The invitation's page: the form, then the account made and signed in."""
    invite = invites.open_invite(key)
    if invite is None:
        page = render(request, "web/invite_closed.html", status=410)
        return kept_by_nobody(page)
    form = AccountForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            user = invites.invite_accept(
                key=key, username=data["username"], password=data["password"]
            )
        except ClubRefused as exc:
            form.add_error(None, exc.message)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(
                request,
                f"Welcome, {invite.member.name}: you sign in as {user.get_username()} "
                f"in {invite.member.club.name if invite.member.club else 'the club'}.",
            )
            return kept_by_nobody(redirect(reverse("web:keep")))
    status = 422 if request.method == "POST" else 200
    page = render(request, "web/invite.html", {"invite": invite, "form": form}, status=status)
    return kept_by_nobody(page)
