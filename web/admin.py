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

from tournaments.admin_base import SuperusersChange


class SuperusersOnly(SuperusersChange):
    """An admin whose every page and action is a superuser's (and nothing is added: the
    apps write these rows themselves)."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False


for model in (AccessAttempt, AccessLog, AccessFailureLog, AuthToken):
    registered = admin.site._registry.get(model)
    if registered is not None:
        narrowed = type(
            f"SuperusersOnly{type(registered).__name__}",
            (SuperusersOnly, type(registered)),
            {"__module__": __name__},
        )
        admin.site.unregister(model)
        admin.site.register(model, narrowed)
