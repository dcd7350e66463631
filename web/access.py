"""Who may see and do what on the web pages (a signed-in session or the public).

The same rules as everywhere (who may see a tournament: ``competition.access``, which the API
applies too): published tournaments are public; an unpublished one is seen by its directors,
players and score-keepers; drafts and the desk are for directors; a match's score-keeper page
for its score-keepers, its seated players and the directors. Knowing an id grants nothing:
what the caller may not see is a 404. Nor does a slug: an address finds the published
tournament holding it, else only one the caller may see
(``competition.selectors.tournament_at``; docs/web.md, "A tournament's address").
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from competition.access import may_see, signed_in
from seasons.selectors import may_see_club
from tournaments import matchlog
from tournaments.access import is_director, is_scorekeeper, seat_lineup, seats_in
from tournaments.models import Club, Match, Tournament

DIRECTOR, SCOREKEEPER, PLAYER = "director", "scorekeeper", "player"


def visible_or_404(user: Any, tournament: Tournament) -> Tournament:
    if not may_see(user, tournament):
        raise Http404("no such tournament")
    return tournament


def visible_club_or_404(user: Any, slug: str) -> Club:
    """Return the club whose pages ``user`` may see (``seasons.selectors.may_see_club``), or
    404, as for a club that does not exist."""
    club = get_object_or_404(Club, slug=slug)
    if not may_see_club(user, club):
        raise Http404("no such club")
    return club


def match_role(user: Any, match: Match, state: matchlog.MatchState) -> str | None:
    """Return what ``user`` is at ``match``: director, score-keeper, seated player, or None.

    The seats come from the log once the match has started (``match_started`` fixed them),
    from the teams as they stand before that.
    """
    if not signed_in(user):
        return None
    if is_director(user, match.tournament):
        return DIRECTOR
    if is_scorekeeper(user, match):
        return SCOREKEEPER
    users = state.users
    if users is None:
        users = tuple(seat_lineup(match)[1])
    return PLAYER if seats_in(users, user) else None


def side_of(user: Any, state: matchlog.MatchState, match: Match) -> int | None:
    """Return the team (0: team0, 1: team1) ``user`` sits for, or None."""
    users = state.users if state.users is not None else tuple(seat_lineup(match)[1])
    seats = seats_in(users, user)
    return seats[0] % 2 if seats else None


def kept_by_nobody(response: HttpResponse) -> HttpResponse:
    """Mark an answer that carries a key or what a key opened (a team's link, an invitation)
    as kept by no cache, for a caller who may not be signed in
    (``deploy.middleware.PrivateAnswers`` covers those who are)."""
    response["Cache-Control"] = "private, no-store"
    return response


def key_in_address(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For a view whose address holds a key (``/l/<key>/``, ``/invite/<key>/``): every answer
    it gives, refusals included, is kept by no cache and sends no referrer
    (``Referrer-Policy: no-referrer``, which ``SecurityMiddleware`` leaves as set), so the
    address leaves the browser for no one, not even the site's own next page.

    Only these answers: a page with a form must keep the site's ``same-origin``, since under
    ``no-referrer`` browsers send a form's ``Origin`` as ``null``, which the CSRF check
    refuses. So these views answer a redirect to a key-less address, not a form.
    """

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = kept_by_nobody(view(request, *args, **kwargs))
        response["Referrer-Policy"] = "no-referrer"
        return response

    return wrapped
