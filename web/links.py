"""The team links a browser holds (docs/links.md): opened once, kept in its session.

Opening a team's link (``/l/<key>/``) puts the link in the browser's session, signed in or
not; from then on the browser acts for that team in its tournament's score matches, as a
seated player of the team would (enter a deal, answer the other team's entry), until the
director reissues the link or the tournament ends. Every request checks the links again: a
revoked one, or one of a tournament that is over, acts for no one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from competition import selectors as competition_reads
from tournaments import links
from tournaments.access import LinkActor
from tournaments.models import Match, TeamLink

from .access import kept_by_nobody

SESSION_KEY = "team_links"
#: the most links one browser keeps (a phone at a table holds one or two)
MAX_HELD = 8


@dataclass(frozen=True)
class Held:
    """What a browser's team links allow now: the live ones (they act), those whose
    tournament is over (they show how it ended, and act no more), and whether any was
    reissued since (it stopped)."""

    live: list[TeamLink]
    ended: list[TeamLink]
    stopped: bool  # a link it opened was reissued: its card is out of date


def hold(request: HttpRequest, link: TeamLink) -> None:
    """Keep ``link`` in the browser's session: the latest one of its tournament replaces the
    one held before (a phone acts for one team of a tournament)."""
    kept = [
        entry
        for entry in request.session.get(SESSION_KEY, [])
        if isinstance(entry, list) and len(entry) == 2 and entry[1] != link.team.tournament_id
    ]
    request.session[SESSION_KEY] = [[link.pk, link.team.tournament_id], *kept][:MAX_HELD]


def held(request: HttpRequest) -> Held:
    """Return the browser's team links that act now (read once a request)."""
    cached = getattr(request, "_team_links", None)
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    ids = [
        entry[0]
        for entry in request.session.get(SESSION_KEY, [])
        if isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], int)
    ]
    found = links.live_links(ids)
    over = competition_reads.tournaments_over([link.team.tournament_id for link in found])
    live = [link for link in found if link.team.tournament_id not in over]
    ended = [link for link in found if link.team.tournament_id in over]
    result = Held(live, ended, stopped=len(found) < len(ids))
    request._team_links = result  # type: ignore[attr-defined]
    return result


def acting_for(request: HttpRequest, match: Match) -> LinkActor | None:
    """Return the link through which this browser acts for one of ``match``'s teams, or None."""
    for link in held(request).live:
        actor = links.actor_for(link)
        if actor.side_in(match) is not None:
            return actor
    return None


def viewing_for(request: HttpRequest, match: Match) -> LinkActor | None:
    """Return the link through which this browser sees ``match`` as one of its teams: a live
    one, or one whose tournament is over (it shows the end, and acts no more)."""
    holding = held(request)
    for link in [*holding.live, *holding.ended]:
        actor = links.actor_for(link)
        if actor.side_in(match) is not None:
            return actor
    return None


def team_ids(request: HttpRequest) -> list[int]:
    """Return the teams this browser acts for."""
    return [link.team_id for link in held(request).live]


class LinkStopped(Exception):
    """The team link this browser opened acts no more: the director reissued it."""


STOPPED = (
    "The team link this phone opened no longer works: the director gave the team a new "
    "one. Ask the director for the team's new card."
)


def stopped_page(request: HttpRequest) -> HttpResponse:
    """The answer to a stopped link: 403, in words."""
    return render(request, "web/link_stopped.html", {"message": STOPPED}, status=403)


def signed_in_or_linked(
    view: Callable[..., HttpResponse],
) -> Callable[..., HttpResponse]:
    """Let in a signed-in person or a browser holding a team link; send anyone else to sign
    in. A stopped link is answered in words (403), never as a missing page."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        holding = held(request)
        if not (request.user.is_authenticated or holding.live or holding.ended or holding.stopped):
            return redirect_to_login(request.get_full_path())
        try:
            response = view(request, *args, **kwargs)
        except LinkStopped:
            response = stopped_page(request)
        # what a team's phone is shown is the team's (its pending entries): kept by no cache,
        # as every signed-in answer is (deploy.middleware.PrivateAnswers)
        return response if request.user.is_authenticated else kept_by_nobody(response)

    return wrapped
