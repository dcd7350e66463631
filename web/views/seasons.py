"""A club's page (its season's ladder and its rating list) and a page for every member:
their rating over time, evenings, partners, results and places on the ladders.

Seen by anyone when the club made them public (``ClubSeasons.public``), else by its directors
and its members who sign in; anyone else gets 404, as for a club that does not exist.
"""

from __future__ import annotations

from datetime import date

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from seasons import privacy, selectors
from seasons.models import Season
from tournaments.clubdate import club_today
from tournaments.models import Club, Player

from ..clubtime import use_club_zone
from ..forms import ascii_id
from ..rating_chart import Point, rating_over_time


def _club_or_404(request: HttpRequest, slug: str) -> Club:
    club = get_object_or_404(Club, slug=slug)
    if not selectors.may_see_club(request.user, club):
        raise Http404("no such club")
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
            "ratings": selectors.rating_list(club=club, on=today),
        },
    )


@require_GET
def member_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A member's rating over time, evenings, partners, results and ladder places."""
    club = _club_or_404(request, slug)
    today = club_today(club)
    member = get_object_or_404(Player, club=club, pk=pk)
    history = list(selectors.rating_history(player=member))
    now = selectors.ratings_now(players=[member.pk], on=today).get(member.pk)
    points = [Point(c.day.strftime("%-d %b %Y"), c.mu, c.sigma) for c in history]
    return render(
        request,
        "web/member_page.html",
        {
            "club": club,
            "member": member,
            "rating": now,
            "chart": rating_over_time(points, member.name),
            "history": list(reversed(history)),
            "partners": selectors.partners(player=member),
            "evenings": selectors.evenings(player=member),
            "places": selectors.ladder_places(player=member),
            "own": privacy.own(request.user, member),
        },
    )
