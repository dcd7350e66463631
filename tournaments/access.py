"""Who may do what on a match: directors, score-keepers, the seated players."""

from __future__ import annotations

from typing import Any

from .models import Match, Tournament


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
    """Return the seats (0-3) at which ``user`` plays in ``match``."""
    if user is None or not user.is_authenticated:
        return []
    return [seat for seat, player in enumerate(match.seat_players()) if player.user_id == user.pk]
