"""The wall screen: a projector's view of a tournament (pairings, standings, the bracket in
turn), for whoever may see the tournament's page, kept up to date by the same polling.

Its live part is the same for every viewer, so it is rendered once per version of the
tournament (``pages.tournament_version``) and kept in the cache, like the tournament page's.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournaments.models import Tournament

from .. import pages, wall
from .public import POLL_MS, _conditional, _tournament, live_part


def wall_part(t: Tournament, version: str | None = None) -> tuple[str, str]:
    """Return the wall's panels, rendered once a version and cached as the tournament page's
    live part is (``public.live_part``), and the version they show."""
    return live_part(t, "web/_wall.html", version, lambda t: {"panels": wall.wall_panels(t)})


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
