"""What an account is called where others see it: never its user name.

A user name is half of what signs in; shown to others it tells an attacker which account to
guess for (docs/deploy.md, "Signing in"). So wherever someone other than the account itself
sees it (the API's ``organizer`` and ``directors``, a keeper's page, a club made for a new
director) the account is named by ``display_name``: the full name its owner gave (first and
last name, the admin's "Personal info"), or, with none, ``Account <id>``: neutral, and
nothing the id beside it does not say already. A full name that is only the user name again
counts as none.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model


def full_name(user: Any) -> str | None:
    """Return the full name the account's owner gave, or None (none, or the user name)."""
    name = " ".join(str(user.get_full_name() or "").split())
    if not name or name.casefold() == str(user.get_username()).casefold():
        return None
    return name


def display_name(user: Any) -> str:
    """Return what others see an account called: its full name, else ``Account <id>``."""
    return full_name(user) or f"Account {user.pk}"


def full_names(ids: Iterable[int]) -> dict[int, str]:
    """Return the full names of the accounts ``ids`` that have one (one query)."""
    users = get_user_model().objects.filter(pk__in=set(ids))
    named = {user.pk: full_name(user) for user in users}
    return {pk: name for pk, name in named.items() if name is not None}


__all__ = ["display_name", "full_name", "full_names"]
