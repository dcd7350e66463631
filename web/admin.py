"""Other apps' admin pages that hold every account's traces, for superusers only.

django-axes lists every user name and address a sign-in was tried with, and django-rest-knox
every account's tokens; neither belongs to one tournament or club, so a staff director's
model permissions (which grant nothing by themselves here: tournaments/admin_base.py) do not
show them. Registered after those apps' own admin modules (``web`` comes after them in
``INSTALLED_APPS``), whose classes are kept and narrowed.
"""

from __future__ import annotations

from typing import Any

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib import admin
from django.http import HttpRequest
from knox.models import AuthToken

from tournaments.admin_base import StrictAdmin, SuperusersChange


class SuperusersOnly(SuperusersChange):
    """An admin whose every page and action is a superuser's (and nothing is added: the
    apps write these rows themselves)."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False


def narrow(model: type[Any]) -> None:
    """Keep ``model``'s registered admin for superusers only, applying only the filters its
    list offers (``StrictAdmin``: no lookup into a JSON field from the query string)."""
    registered = admin.site._registry.get(model)
    if registered is None or isinstance(registered, SuperusersOnly):
        return
    narrowed = type(
        f"SuperusersOnly{type(registered).__name__}",
        (SuperusersOnly, StrictAdmin, type(registered)),
        {"__module__": __name__},
    )
    admin.site.unregister(model)
    admin.site.register(model, narrowed)


for model in (AccessAttempt, AccessLog, AccessFailureLog, AuthToken):
    narrow(model)

#: the apps after ``web`` in ``INSTALLED_APPS`` whose admins hold accounts' traces: the
#: addresses, passkeys and sessions of django-allauth (narrowed from ``WebConfig.ready``, once
#: every admin module is read)
LATER_APPS = ("account", "mfa", "usersessions")


def narrow_later_apps() -> None:
    """Narrow the admins of ``LATER_APPS`` as those above."""
    for model in list(admin.site._registry):
        if model._meta.app_label in LATER_APPS:
            narrow(model)
