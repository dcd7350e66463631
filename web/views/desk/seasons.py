"""The desk's part of the seasons: a club's seasons and whether its pages are public, and
seeding an evening by its members' ratings."""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from competition.errors import CompetitionRefused
from seasons import services
from seasons.models import ClubSeasons, RatingSeeding, Season
from seasons.rating import SETTLED_AFTER
from tournaments.errors import ClubRefused
from tournaments.models import Club

from ... import words
from ..common import refusal
from ._common import back, club_desk, form_change, refused, status_of, tournament_or_404


class SeasonForm(forms.Form):
    name = forms.CharField(max_length=200, label=gettext_lazy("Name"))
    starts_on = forms.DateField(
        label=gettext_lazy("First day"), widget=forms.DateInput(attrs={"type": "date"})
    )
    ends_on = forms.DateField(
        label=gettext_lazy("Last day"), widget=forms.DateInput(attrs={"type": "date"})
    )
    rule = forms.ChoiceField(
        choices=list(words.LADDER_RULES.items()), label=gettext_lazy("Ladder points"),
        widget=forms.RadioSelect, initial=Season.Rule.PLACES,
    )  # fmt: skip
    points = forms.CharField(
        max_length=400, label=gettext_lazy("Points"), initial="10, 8, 6, 5, 4, 3, 2, 1",
        help_text=gettext_lazy(
            "By place: the points of the 1st, 2nd, 3rd... place, with commas. "
            "By matches won: one number, the points of a match won."
        ),
    )  # fmt: skip
    best = forms.IntegerField(
        required=False, min_value=1, max_value=1000, label=gettext_lazy("Best evenings that count"),
        help_text=gettext_lazy("Blank: every evening counts."),
    )  # fmt: skip

    def clean_points(self) -> list[int]:
        text = self.cleaned_data["points"]
        parts = [p.strip() for p in text.split(",") if p.strip()]
        if not parts or not all(p.isascii() and p.isdigit() and len(p) <= 6 for p in parts):
            raise ValidationError(_("Whole numbers separated by commas, such as 10, 6, 4."))
        return [int(p) for p in parts]


class PublicForm(forms.Form):
    public = forms.BooleanField(
        required=False,
        label=gettext_lazy("Anyone may see the ladder, the ratings and the members' pages"),
    )
    settled_after = forms.IntegerField(
        required=False, min_value=1, max_value=1000,
        label=gettext_lazy("Rated matches before a rating is settled"),
        help_text=gettext_lazy("Until then a member's rating is marked provisional."),
    )  # fmt: skip


#: how a team's rating is made from its members' (RatingSeeding.Measure), in words
MEASURES = {
    RatingSeeding.Measure.SUM.value: gettext_lazy("the sum of the members' ratings"),
    RatingSeeding.Measure.CONSERVATIVE.value: gettext_lazy(
        "the sum of the members' conservative estimates"
    ),
}


class SeedForm(forms.Form):
    measure = forms.ChoiceField(
        choices=list(MEASURES.items()), widget=forms.RadioSelect,
        initial=RatingSeeding.Measure.SUM, label=gettext_lazy("Each team's rating is"),
    )  # fmt: skip


def _page(request: HttpRequest, club: Club, form: SeasonForm, status: int = 200) -> HttpResponse:
    settings = ClubSeasons.objects.filter(club=club).first()
    return render(
        request,
        "web/desk_seasons.html",
        {
            "club": club,
            "seasons": Season.objects.filter(club=club).order_by("-starts_on", "-pk"),
            "form": form,
            "public_form": PublicForm(
                initial={
                    "public": bool(settings and settings.public),
                    "settled_after": settings.settled_after if settings else SETTLED_AFTER,
                }
            ),
        },
        status=status,
    )


def _seasons(club: Club) -> HttpResponse:
    return redirect(reverse("web:club-seasons", args=[club.slug]))


def _changed(
    request: HttpRequest, club: Club, change: Callable[[], object], done: str
) -> HttpResponse:
    """Change the club's seasons, say so (``done``) or why not, and show them again."""
    if not refused(request, change, by=ClubRefused):
        messages.success(request, done)
    return _seasons(club)


@club_desk("GET")
def seasons_page(request: HttpRequest, club: Club) -> HttpResponse:
    """The club's seasons, a new one, and whether its pages are public."""
    return _page(request, club, SeasonForm())


@club_desk("POST")
def season_new(request: HttpRequest, club: Club) -> HttpResponse:
    form = SeasonForm(request.POST)
    season = form_change(
        request,
        form,
        lambda: services.season_create(actor=request.user, club=club, **form.cleaned_data),
        unchanged=_("No season was made"),
        by=ClubRefused,
    )
    if season is None:
        return _page(request, club, form, status=status_of(form))
    messages.success(request, _("The season %(season)s is made.") % {"season": season.name})
    return _seasons(club)


@club_desk("POST")
def season_remove(request: HttpRequest, club: Club, pk: int) -> HttpResponse:
    season = get_object_or_404(Season, club=club, pk=pk)
    return _changed(
        request,
        club,
        lambda: services.season_delete(actor=request.user, season=season),
        _("The season %(season)s is removed.") % {"season": season.name},
    )


@club_desk("POST")
def seasons_public(request: HttpRequest, club: Club) -> HttpResponse:
    form = PublicForm(request.POST)
    if not form.is_valid():  # only the count can be wrong: nothing is changed
        messages.error(request, _("Rated matches before a rating is settled: 1 to 1000."))
        return _seasons(club)
    public = form.cleaned_data["public"]
    return _changed(
        request,
        club,
        lambda: services.club_seasons_update(
            actor=request.user,
            club=club,
            public=public,
            settled_after=form.cleaned_data["settled_after"],
        ),
        _("The club's pages are public.") if public else _("The club's pages are private."),
    )


@login_required
@require_POST
def seed_by_ratings(request: HttpRequest, slug: str) -> HttpResponse:
    """Set each team's rating from its members' ratings, and the stages to seed by it."""
    t = tournament_or_404(request, slug)
    form = SeedForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Nothing was changed: choose how a team's rating is made."))
        return back(t.slug, "teams")
    try:
        record = services.seed_by_member_ratings(
            actor=request.user, tournament=t, measure=form.cleaned_data["measure"]
        )
    except CompetitionRefused as exc:
        refusal(request, exc)
    else:
        messages.success(
            request,
            ngettext(
                "%(count)s team rated by %(measure)s; the stages not started seed by rating.",
                "%(count)s teams rated by %(measure)s; the stages not started seed by rating.",
                record.teams,
            )
            % {"count": record.teams, "measure": MEASURES.get(record.measure, record.measure)},
        )
    return back(t.slug, "teams")
