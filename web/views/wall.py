"""The wall screen: a projector's view of a tournament (pairings, standings, the bracket in
turn), for whoever may see the tournament's page, kept up to date by the same polling.

Its live part is the same for every viewer, so it is rendered once per version of the
tournament (``pages.tournament_version``) and kept in the cache, like the tournament page's.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from tournaments.models import Tournament

from .. import wall
from .common import live_answer, live_page, live_part, visible_tournament


def wall_part(t: Tournament, version: str | None = None) -> tuple[str, str]:
    """Return the wall's panels, rendered once a version and cached as the tournament page's
    live part is (``common.live_part``), and the version they show."""
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
    t = visible_tournament(request, slug)
    return live_page(request, t, "web/wall.html", wall_part(t), seconds=_seconds(request))


@require_GET
def wall_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The wall's panels, with an ETag: a 304 while the tournament is unchanged."""
    t = visible_tournament(request, slug)
    return live_answer(request, t, lambda t, version: wall_part(t, version)[0])
