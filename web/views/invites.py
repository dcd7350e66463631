"""A club's invitation opened by its member: they choose a user name and a password, and the
account is theirs in the club (docs/clubs.md, "Accounts").

The invitation's address (``/invite/<key>/``) keeps the key in the browser's session (under
a new session id) and sends the browser on to ``/invite/``, which serves the form and takes
it: the key stays in the address for one request, in no page's address afterwards (its
history, a referrer, a log line).
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from tournaments import invites
from tournaments.errors import ClubRefused

from ..access import kept_by_nobody, key_in_address

#: the session's entry for the invitation opened in this browser (its key)
SESSION_KEY = "member_invite"


class AccountForm(forms.Form):
    username = forms.CharField(max_length=150, label=gettext_lazy("User name"))
    password = forms.CharField(
        label=gettext_lazy("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    again = forms.CharField(
        label=gettext_lazy("The password again"), strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )  # fmt: skip

    def clean(self) -> dict[str, str]:
        data = super().clean() or {}
        if data.get("password") and data.get("password") != data.get("again"):
            self.add_error("again", _("The two passwords differ."))
        return data


def _closed(request: HttpRequest) -> HttpResponse:
    return render(request, "web/invite_closed.html", status=410)


@key_in_address
@require_GET
def open_invitation(request: HttpRequest, key: str) -> HttpResponse:
    """The invitation's address: its key kept in the session, and on to the form."""
    if invites.open_invite(key) is None:
        return _closed(request)
    request.session.cycle_key()  # an id planted before (session fixation) holds no key
    request.session[SESSION_KEY] = key
    return redirect(reverse("web:member-invite-form"))


@require_http_methods(["GET", "POST"])
def accept(request: HttpRequest) -> HttpResponse:
    """The invitation's page, for the invitation opened in this browser: the form, then the
    account made and signed in."""
    held = request.session.get(SESSION_KEY)
    key = held if isinstance(held, str) else ""  # no key opens no invitation
    invite = invites.open_invite(key)
    if invite is None:
        return kept_by_nobody(_closed(request))
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
            request.session.pop(SESSION_KEY, None)
            club = invite.member.club
            said = {"member": invite.member.name, "username": user.get_username()}
            messages.success(
                request,
                _("Welcome, %(member)s: you sign in as %(username)s in %(club)s.")
                % {**said, "club": club.name}
                if club
                else _("Welcome, %(member)s: you sign in as %(username)s in the club.") % said,
            )
            return kept_by_nobody(redirect(reverse("web:keep")))
    status = 422 if request.method == "POST" else 200
    page = render(request, "web/invite.html", {"invite": invite, "form": form}, status=status)
    return kept_by_nobody(page)
