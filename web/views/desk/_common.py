"""What the desk's views share: the objects a director may see (found, or a 404), a form's
change and a service's refusal in words, the confirmation step of a destructive button."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from competition import refusals
from competition.errors import CompetitionRefused
from competition.models import Round, Stage
from competition.selectors import tournament_at
from tournaments.access import is_club_director
from tournaments.models import Club, Team, Tournament

from ...clubtime import use_club_time, use_club_zone
from ...commands import FORM_REFUSED
from ..common import refusal

T = TypeVar("T")

#: what a service refuses with (one kind, or a tuple of them)
Refusals = type[Exception] | tuple[type[Exception], ...]


def tournament_or_404(request: HttpRequest, slug: str) -> Tournament:
    """Return the tournament at ``slug`` that the signed-in user directs (of those holding
    it: the published one, else the oldest: ``competition.selectors.tournament_at``), so a
    private one stays at its desk when another club publishes one at its slug; anyone who
    directs none there: 404."""
    t = tournament_at(request.user, slug, directing=True)
    if t is None:
        raise Http404("no such desk")
    use_club_time(t)
    return t


def stage_or_404(request: HttpRequest, slug: str, pk: int) -> tuple[Tournament, Stage]:
    """Return the tournament at ``slug`` and its stage ``pk``, for its directors; else 404."""
    t = tournament_or_404(request, slug)
    return t, get_object_or_404(Stage.objects.select_related("tournament"), pk=pk, tournament=t)


def round_or_404(request: HttpRequest, slug: str, pk: int) -> tuple[Tournament, Round]:
    """Return the tournament at ``slug`` and its round ``pk``, for its directors; else 404."""
    t = tournament_or_404(request, slug)
    rounds = Round.objects.select_related("stage__tournament")
    return t, get_object_or_404(rounds, pk=pk, stage__tournament=t)


def team_or_404(request: HttpRequest, slug: str, pk: int) -> tuple[Tournament, Team]:
    """Return the tournament at ``slug`` and its team ``pk``, for its directors; else 404."""
    t = tournament_or_404(request, slug)
    return t, get_object_or_404(Team.objects.select_related("tournament"), pk=pk, tournament=t)


def club_or_404(request: HttpRequest, slug: str) -> Club:
    """Return the club at ``slug`` if the signed-in user directs it, its times in its zone;
    anyone else: 404."""
    club = get_object_or_404(Club, slug=slug)
    if not is_club_director(request.user, club):
        raise Http404("no such club")
    use_club_zone(club)
    return club


def club_desk(
    *methods: str,
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Make a view a page of a club's desk: signed in, answering ``methods`` only, and called
    with the club at ``slug`` in place of the slug (``club_or_404``: its directors only)."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @login_required
        @require_http_methods(list(methods))
        @functools.wraps(view)
        def club_page(request: HttpRequest, slug: str, **kwargs: Any) -> HttpResponse:
            return view(request, club_or_404(request, slug), **kwargs)

        return club_page

    return decorate


def back(slug: str, anchor: str = "") -> HttpResponse:
    return redirect(reverse("web:desk", args=[slug]) + (f"#{anchor}" if anchor else ""))


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


def refused(
    request: HttpRequest, change: Callable[[], object], *, by: Refusals = CompetitionRefused
) -> bool:
    """Return whether the service refused ``change`` (its refusal shown in words, nothing
    changed); False once it is done."""
    try:
        change()
    except by as exc:
        refusal(request, exc)
        return True
    return False


def form_change(
    request: HttpRequest,
    form: forms.Form,
    change: Callable[[], T],
    *,
    unchanged: str | None = None,
    by: Refusals = CompetitionRefused,
    fields: dict[str, str] | None = None,
) -> T | None:
    """Return what ``change`` made of a valid form (never None), or None when nothing changed:
    the form's mistakes (``unchanged``, by default "Nothing was changed": "see the form"), or
    the service's refusal, shown in words and on the form's fields (``fields`` as for
    ``refusal_on_fields``).

    ``change`` reads ``form.cleaned_data``: it is called only once the form is valid. The
    status the page answers with then is ``status_of(form)``.
    """
    if not form.is_valid():
        said = unchanged or _("Nothing was changed")
        messages.error(request, _("%(unchanged)s: see the form.") % {"unchanged": said})
        return None
    try:
        return change()
    except by as exc:
        refusal_on_fields(request, form, exc, fields)
        form.refused_with = refusals.status_of(exc)  # type: ignore[attr-defined]
        return None


def status_of(form: forms.Form) -> int:
    """Return the status of a form the desk shows again: its service's refusal's, as the API
    answers it (``competition.refusals``), or 422 for the form's own mistakes."""
    return int(getattr(form, "refused_with", FORM_REFUSED))


def confirm_first(
    request: HttpRequest,
    *,
    tournament: Tournament,
    title: str,
    consequences: list[str],
    button: str,
    cancel: str,
    fields: dict[str, Any] | None = None,
    confirmed: bool | None = None,
) -> HttpResponse | None:
    """Return the page that asks before a destructive change, saying what it will do, or None
    once it was confirmed.

    The page's button posts ``fields`` again, with ``confirmed=yes``, to where the change was
    posted; ``confirmed`` says whether this post is that answer (by default: it carries
    ``confirmed=yes``). Until then nothing is changed, so a stray click (or a crawler) costs
    nothing.
    """
    if confirmed is None:
        confirmed = request.POST.get("confirmed") == "yes"
    if confirmed:
        return None
    return render(
        request,
        "web/desk_confirm.html",
        {
            "tournament": tournament,
            "title": title,
            "consequences": consequences,
            "action": request.path,
            "fields": fields or {},
            "button": button,
            "cancel": cancel,
        },
    )
