"""A club's page (its season's ladder and its rating list) and a page for every member:
their rating over time, evenings, partners, results and places on the ladders.

Seen by anyone when the club made them public (``ClubSeasons.public``), else by its directors
and its members who sign in; anyone else gets 404, as for a club that does not exist.
"""

from __future__ import annotations

from datetime import date

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from seasons import privacy, rating, selectors
from seasons import services as seasons_services
from seasons.models import Season
from tournaments.clubdate import club_today
from tournaments.errors import ClubRefused
from tournaments.models import Club, Player

from ..access import visible_club_or_404
from ..clubtime import use_club_zone
from ..forms import ascii_id
from ..rating_chart import Point, rating_over_time


def _club_or_404(request: HttpRequest, slug: str) -> Club:
    club = visible_club_or_404(request.user, slug)
    use_club_zone(club)
    return club


def _day(value: str | None) -> date | None:
    """Return an ISO date from a query parameter, or None when there is none or it is no date."""
    try:
        return date.fromisoformat(value) if value and len(value) == 10 else None
    except ValueError:
        return None


@require_GET
def club_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's season ladder (as of an evening: ``?season=ID&as_of=YYYY-MM-DD``) and its
    rating list."""
    club = _club_or_404(request, slug)
    today = club_today(club)
    seasons = list(Season.objects.filter(club=club).order_by("-starts_on", "-pk"))
    chosen = ascii_id(request.GET.get("season"))
    if "season" in request.GET:
        season = next((s for s in seasons if s.pk == chosen), None)
        if season is None:
            raise Http404("no such season")
    else:
        season = selectors.current_season(club=club, on=today)
    as_of = _day(request.GET.get("as_of"))
    evenings = selectors.season_evenings(season=season) if season else []
    lines = selectors.season_ladder(season=season, as_of=as_of) if season else []
    hidden = selectors.hidden_ratings(club=club, viewer=request.user)
    return render(
        request,
        "web/club_page.html",
        {
            "club": club,
            "seasons": seasons,
            "season": season,
            "evenings": evenings,
            "as_of": as_of,
            "lines": lines,
            "ratings": selectors.rating_list(club=club, on=today, hidden=hidden),
            "settled_after": selectors.settled_after(club),
        },
    )


@require_GET
def member_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A member's rating over time and what each evening and match did to it, their
    partnerships' ratings, evenings, partners, results and ladder places. A member who hides
    their rating shows none of it but to the club's directors and to themself."""
    club = _club_or_404(request, slug)
    today = club_today(club)
    member = get_object_or_404(Player, club=club, pk=pk)
    hidden = selectors.hidden_ratings(club=club, viewer=request.user)
    kept = member.pk in hidden
    history = [] if kept else list(selectors.rating_history(player=member))
    now = None if kept else selectors.ratings_now(players=[member.pk], on=today).get(member.pk)
    points = [Point(c.day.strftime("%-d %b %Y"), c.mu, c.sigma) for c in history]
    story = [] if kept else selectors.rating_story(player=member, hidden=hidden)
    return render(
        request,
        "web/member_page.html",
        {
            "club": club,
            "member": member,
            "rating": now,
            "kept": kept,
            "rating_hidden": selectors.rating_hidden(player=member),
            "may_hide": privacy.may_ask(request.user, member),
            "settled_after": selectors.settled_after(club),
            "partnership_after": rating.PARTNERSHIP_AFTER,
            "chart": rating_over_time(points, member.name) if points else "",
            "story": list(reversed(story)),
            "partnerships": selectors.partnership_ratings(player=member, on=today, hidden=hidden),
            "history": list(reversed(history)),
            "partners": selectors.partners(player=member),
            "evenings": selectors.evenings(player=member),
            "places": selectors.ladder_places(player=member),
            "own": privacy.own(request.user, member),
        },
    )


@login_required
@require_POST
def member_rating_privacy(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Hide the member's rating from the club's public page (``hidden=1``) or show it again
    (the member themself, or a director of the club)."""
    club = visible_club_or_404(request.user, slug)  # 404 for a club whose pages are hidden
    member = get_object_or_404(Player.objects.select_related("club"), club=club, pk=pk)
    if not privacy.may_ask(request.user, member):
        raise PermissionDenied("only a director of the club, or the member, may do this")
    choice = request.POST.get("hidden")
    if choice not in ("0", "1"):
        messages.error(request, _("Choose whether to hide the rating or show it."))
    else:
        try:
            seasons_services.member_rating_privacy_update(
                actor=request.user, member=member, hidden=choice == "1"
            )
        except ClubRefused as exc:
            messages.error(request, str(exc))
        else:
            messages.success(
                request,
                _("The rating is now hidden from the club's public page.")
                if choice == "1"
                else _("The rating is now shown on the club's page."),
            )
    return redirect(reverse("web:club-member-page", args=[slug, pk]))
