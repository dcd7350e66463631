"""The wall screen: a projector's view of a tournament (pairings, standings, the bracket in
turn), for whoever may see the tournament's page, kept up to date by the same polling.

Its live part is the same for every viewer, so it is rendered once per version of the
tournament (``pages.tournament_version``) and kept in the cache, like the tournament page's.
"""

from __future__ import annotations

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from tournaments.models import Tournament
from tournaments.reads import consistent_read

from .. import pages, wall
from ..access import visible_or_404
from ..clubtime import use_club_time
from .public import LIVE_SECONDS, POLL_MS, _conditional


def _tournament(request: HttpRequest, slug: str) -> Tournament:
    t = visible_or_404(
        request.user, get_object_or_404(Tournament.objects.select_related("club"), slug=slug)
    )
    use_club_time(t)
    return t


def wall_part(t: Tournament, version: str | None = None) -> tuple[str, str]:
    """Return the wall's panels, rendered, and the version they show (read in one snapshot)."""
    with consistent_read():
        if version is None:
            version = pages.tournament_version(t)
        key = f"web:wall:{t.pk}:{version}"
        html = cache.get(key)
        if html is None:
            html = render_to_string(
                "web/_wall.html", {"tournament": t, "panels": wall.wall_panels(t)}
            )
            cache.set(key, html, LIVE_SECONDS)
    return html, version


def _seconds(request: HttpRequest) -> int:
    """Return how long each panel stays: ``?seconds=N`` (2 to 120), else the default."""
    given = request.GET.get("seconds", "")
    if given.isascii() and given.isdigit() and len(given) <= 3:
        return min(120, max(2, int(given)))
    return wall.PANEL_SECONDS


@require_GET
def wall_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The wall screen (``?seconds=N``: each panel stays N seconds)."""
    t = _tournament(request, slug)
    html, version = wall_part(t)
    return render(
        request,
        "web/wall.html",
        {
            "tournament": t,
            "live": html,
            "version": version,
            "poll_ms": POLL_MS,
            "seconds": _seconds(request),
        },
    )


@require_GET
def wall_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The wall's panels, with an ETag: a 304 while the tournament is unchanged."""
    t = _tournament(request, slug)
    version = pages.tournament_version(t)
    return _conditional(request, version, lambda: HttpResponse(wall_part(t, version)[0]))
