"""The desk's home: the tournaments one directs, and a new evening made in one form."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

import seep_core as sc
from competition import errors as competition_errors
from competition import presets
from competition import services as competition
from tournaments.access import directed_clubs, directed_tournaments
from tournaments.errors import ClubRefused
from tournaments.models import Club, Tournament

from ... import desk_forms
from ._common import form_change, status_of

#: a stage's or the tournament's setting -> the form's field that sets it
EVENING_FIELDS = {
    "tiebreaks": "tiebreak_1", "match_format": "bazzis", "entry_count": "top",
    "rules": "sweep",
}  # fmt: skip


def _directed(user: Any) -> list[Tournament]:
    tournaments = directed_tournaments(user).select_related("club")
    tournaments = tournaments.annotate(teams_count=Count("teams", distinct=True))
    return list(tournaments.order_by("-date", "-created_at"))


def _clubs(user: Any) -> list[Club]:
    return list(directed_clubs(user).order_by("name"))


@login_required
@require_http_methods(["GET"])
def index(request: HttpRequest) -> HttpResponse:
    """The tournaments the signed-in user directs, newest first, and the "new" button."""
    return render(
        request,
        "web/desk_home.html",
        {"tournaments": _directed(request.user), "clubs": _clubs(request.user)},
    )


def _club_choices(request: HttpRequest) -> list[tuple[int, str]]:
    clubs = [(c.pk, c.name) for c in _clubs(request.user)]
    made = _("%(name)s's club (made now)") % {"name": request.user.get_username()}
    return clubs or [(0, made)]


def _defaults(request: HttpRequest) -> dict[str, object]:
    """The club's defaults: the rules and match format of its latest evening, else the book's."""
    user: Any = request.user
    latest = Tournament.objects.filter(club__directors=user).order_by("-created_at").first()
    rules = sc.Rules.from_dict(latest.rules if latest else {}).to_dict()
    fmt = sc.MatchFormat.from_dict(latest.match_format if latest else {}).to_dict()
    initial: dict[str, object] = {**rules, **fmt}
    if latest is not None and latest.club_id is not None:
        initial["club"] = latest.club_id
    return initial


@login_required
@require_http_methods(["GET", "POST"])
def new_evening(request: HttpRequest) -> HttpResponse:
    """A tournament with its stages, made in one form (nothing is made if anything is refused)."""
    choices = _club_choices(request)
    if request.method == "GET":
        form = desk_forms.NewEvening(initial=_defaults(request), clubs=choices)
        return render(request, "web/desk_new.html", {"form": form})
    form = desk_forms.NewEvening(request.POST, clubs=choices)

    def make() -> Tournament:
        data = form.cleaned_data
        club = Club.objects.filter(pk=data["club"]).first() if data["club"] else None
        return competition.tournament_create(
            actor=request.user,
            club=club,
            name=data["name"],
            date=data["date"],
            place=data["place"],
            rules=form.rules(),
            match_format=form.match_format(),
            published=data["published"],
            stages=presets.stages_for(form.chosen_preset()),
        )

    tournament = form_change(
        request,
        form,
        make,
        unchanged=_("Nothing was made"),
        by=(competition_errors.CompetitionRefused, ClubRefused),
        fields=EVENING_FIELDS,
    )
    if tournament is None:
        return render(request, "web/desk_new.html", {"form": form}, status=status_of(form))
    messages.success(
        request,
        _("%(name)s is made. Register its teams, then start its first stage.")
        % {"name": tournament.name},
    )
    return redirect(reverse("web:desk", args=[tournament.slug]) + "#teams")
