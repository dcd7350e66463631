"""The seasons app's writes: the ratings and evenings projections, seasons, and seeding."""

from __future__ import annotations

from .evenings import evening_redated, rebuild_all_evenings, update_evening
from .ratings import (
    APPENDED,
    CURRENT,
    REFOLDED,
    RatingsUpdate,
    rebuild_all_ratings,
    update_club_ratings,
)
from .seasons import (
    club_seasons_update,
    member_rating_privacy_update,
    season_create,
    season_delete,
    season_update,
)
from .seeding import seed_by_member_ratings

__all__ = [
    "APPENDED",
    "CURRENT",
    "REFOLDED",
    "RatingsUpdate",
    "club_seasons_update",
    "evening_redated",
    "member_rating_privacy_update",
    "rebuild_all_evenings",
    "rebuild_all_ratings",
    "season_create",
    "season_delete",
    "season_update",
    "seed_by_member_ratings",
    "update_club_ratings",
    "update_evening",
]
