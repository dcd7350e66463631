"""Who may see and do what on the web pages (a signed-in session or the public).

The same rules as everywhere (``tournaments.access``): published tournaments are public; an
unpublished one is seen by its directors, players and score-keepers; drafts and the desk are
for directors; a match's score-keeper page for its score-keepers, its seated players and the
directors. Knowing an id grants nothing: what the caller may not see is a 404.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404

from competition.models import Stage
from tournaments import matchlog
from tournaments.access import is_director, is_scorekeeper, seat_lineup, seats_in
from tournaments.models import Match, Team, Tournament

DIRECTOR, SCOREKEEPER, PLAYER = "director", "scorekeeper", "player"


def signed_in(user: Any) -> bool:
    return bool(user is not None and user.is_authenticated)


def visible_tournaments(user: Any) -> QuerySet[Tournament]:
    """Return the tournaments ``user`` may see (the public: the published ones)."""
    tournaments = Tournament.objects.all()
    if not signed_in(user):
        return tournaments.filter(published=True)
    if user.is_superuser:
        return tournaments
    plays = Team.objects.filter(
        Q(first_player__user=user) | Q(second_player__user=user), tournament=OuterRef("pk")
    )
    keeps = Match.objects.filter(scorekeepers=user, tournament=OuterRef("pk"))
    stage_keeps = Stage.objects.filter(scorekeepers=user, tournament=OuterRef("pk"))
    directs = Tournament.directors.through.objects.filter(tournament=OuterRef("pk"), user=user)
    return tournaments.filter(
        Q(published=True)
        | Q(organizer=user)
        | Exists(directs)
        | Exists(plays)
        | Exists(keeps)
        | Exists(stage_keeps)
    )


def may_see(user: Any, tournament: Tournament) -> bool:
    """Return whether ``user`` may see ``tournament`` (no query when it is published)."""
    if tournament.published:
        return True
    if not signed_in(user):
        return False
    if user.is_superuser or tournament.organizer_id == user.pk:
        return True
    return visible_tournaments(user).filter(pk=tournament.pk).exists()


def visible_or_404(user: Any, tournament: Tournament) -> Tournament:
    if not may_see(user, tournament):
        raise Http404("no such tournament")
    return tournament


def director_or_404(user: Any, tournament: Tournament) -> Tournament:
    """Return the tournament if ``user`` directs it; anyone else finds no desk there (404)."""
    if not is_director(user, tournament):
        raise Http404("no such desk")
    return tournament


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
