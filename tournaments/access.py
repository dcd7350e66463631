"""Who may do what on a match: directors, score-keepers, the seated players."""

from __future__ import annotations

from typing import Any

from .models import Match, Team, Tournament


def is_director(user: Any, tournament: Tournament) -> bool:
    """Return whether ``user`` directs ``tournament``: its organizer, or a superuser."""
    if user is None or not user.is_authenticated:
        return False
    return bool(user.is_superuser or tournament.organizer_id == user.pk)


def is_scorekeeper(user: Any, match: Match) -> bool:
    """Return whether ``user`` is assigned to keep score at ``match``."""
    if user is None or not user.is_authenticated:
        return False
    return match.scorekeepers.filter(pk=user.pk).exists()


def seats_of(user: Any, match: Match) -> list[int]:
    """Return the seats (0-3) at which ``user`` plays in ``match`` (one query)."""
    if user is None or not user.is_authenticated:
        return []
    rows = Team.objects.filter(pk__in=(match.team0_id, match.team1_id)).values_list(
        "pk", "first_player__user_id", "second_player__user_id"
    )
    players = {pk: (first, second) for pk, first, second in rows}
    team0, team1 = players[match.team0_id], players[match.team1_id]
    by_seat = (team0[0], team1[0], team0[1], team1[1])  # partners sit opposite (S1)
    return [seat for seat, user_id in enumerate(by_seat) if user_id == user.pk]
