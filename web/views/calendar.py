"""A club's evenings as a calendar to subscribe to (``web.calendar``): at a stable address,
``/c/<slug>/evenings.ics``, linked from the club's page as ``webcal:``. Served to whoever may
see the club's page: anyone for a club that made its pages public; else its directors and
its members who sign in; anyone else gets 404, as for a club that does not exist."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.views.decorators.http import require_GET

from seasons.selectors import may_see_club
from tournaments.models import Club
from tournaments.site import absolute_url

from .. import calendar


@require_GET
def club_evenings(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's published evenings as an iCalendar file."""
    club = get_object_or_404(Club, slug=slug)
    if not may_see_club(request.user, club):
        raise Http404("no such club")
    # one reverse for every evening's page: the address without its slug
    pages = absolute_url(request, reverse("web:tournament", args=["x"]).removesuffix("x/"))
    text = calendar.calendar_text(club.name, calendar.club_evenings(club, pages))
    response = HttpResponse(text.encode(), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{club.slug}-evenings.ics"'
    response["Cache-Control"] = "private, no-cache"
    return response
