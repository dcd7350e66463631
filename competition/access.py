"""Which tournaments a user may see: the one rule the API and the web pages both apply.

Published tournaments are public; an unpublished one is seen by its organizer, its added
directors, its players, the score-keepers of its matches and of its stages, and superusers.
(Here, not in tournaments.access: a stage's score-keepers are the competition's.) The API
narrows this further for an integration token (api.access); the pages take it as it is.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet

from tournaments.models import Match, Team, Tournament

from .models import Stage


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
    """Return whether ``user`` may see ``tournament`` (no query when it is published, or for
    its organizer or a superuser; else one)."""
    if tournament.published:
        return True
    if not signed_in(user):
        return False
    if user.is_superuser or tournament.organizer_id == user.pk:
        return True
    return visible_tournaments(user).filter(pk=tournament.pk).exists()


__all__ = ["may_see", "signed_in", "visible_tournaments"]
