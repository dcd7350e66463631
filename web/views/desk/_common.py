"""What the desk's views share: the tournament a director may see, refusals in words, the
confirmation step of a destructive button."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from tournaments.models import Tournament

from ...access import director_or_404
from ...clubtime import use_club_time


def tournament_or_404(request: HttpRequest, slug: str) -> Tournament:
    """Return the tournament at ``slug`` if the signed-in user directs it; anyone else: 404."""
    t = director_or_404(
        request.user, get_object_or_404(Tournament.objects.select_related("club"), slug=slug)
    )
    use_club_time(t)
    return t


def back(slug: str, anchor: str = "") -> HttpResponse:
    return redirect(reverse("web:desk", args=[slug]) + (f"#{anchor}" if anchor else ""))


def refusal(request: HttpRequest, exc: Exception) -> None:
    """Show a service's refusal as a sentence."""
    text = getattr(exc, "message", str(exc))
    messages.error(request, text[:1].upper() + text[1:] + ("" if text.endswith(".") else "."))


def ascii_id(value: str | None) -> int | None:
    """Return ``value`` as an id if it is one (ASCII digits, as many as an id has), else None."""
    # str.isdigit() is true of "²", which int() refuses
    if value and value.isascii() and value.isdigit() and len(value) <= 18:
        return int(value)
    return None


def confirm_first(
    request: HttpRequest,
    *,
    tournament: Tournament,
    title: str,
    consequences: list[str],
    action: str,
    fields: dict[str, Any],
    button: str,
    cancel: str,
) -> HttpResponse | None:
    """Return the page that asks before a destructive change, or None once it was confirmed.

    The change's form posts again with ``confirmed=yes`` from that page; without it nothing
    is changed, so a stray click (or a crawler) costs nothing.
    """
    if request.POST.get("confirmed") == "yes":
        return None
    return render(
        request,
        "web/desk_confirm.html",
        {
            "tournament": tournament,
            "title": title,
            "consequences": consequences,
            "action": action,
            "fields": fields,
            "button": button,
            "cancel": cancel,
        },
    )


def refusal_on_fields(
    request: HttpRequest, form: Any, exc: Exception, fields: dict[str, str] | None = None
) -> None:
    """Show a service's refusal as a message and, setting by setting, on the form's fields
    (``fields`` maps a setting's name to the field that sets it, where the names differ)."""
    refusal(request, exc)
    for setting, messages_ in (getattr(exc, "fields", None) or {}).items():
        name = (fields or {}).get(setting, setting)
        if name in form.fields:
            for message in messages_:
                form.add_error(name, message[:1].upper() + message[1:])
