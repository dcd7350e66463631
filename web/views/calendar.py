"""A club's evenings as a calendar to subscribe to (``web.calendar``): at a stable address,
``/c/<slug>/evenings.ics``, linked from the club's page as ``webcal:``. Served to whoever may
see the club's page: anyone for a club that made its pages public; else its directors and
its members who sign in; anyone else gets 404, as for a club that does not exist."""

from __future__ import annotations

import hashlib

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.urls import reverse
from django.views.decorators.http import require_safe

from tournaments.site import absolute_url

from .. import calendar
from ..access import visible_club_or_404


@require_safe
def club_evenings(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's published evenings as an iCalendar file, with an ETag of its text: a
    calendar that polls it gets 304 while nothing changed."""
    club = visible_club_or_404(request.user, slug)
    # one reverse for every evening's page: the address without its slug
    pages = absolute_url(request, reverse("web:tournament", args=["x"]).removesuffix("x/"))
    body = calendar.calendar_text(club.name, calendar.club_evenings(club, pages)).encode()
    etag = f'"{hashlib.sha256(body).hexdigest()[:32]}"'
    held = [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]
    if etag in held:
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
        response["Content-Disposition"] = f'inline; filename="{club.slug}-evenings.ics"'
    response["ETag"] = etag
    response["Vary"] = "Cookie"
    response["Cache-Control"] = "private, no-cache"
    return response
