"""The seasons app's lines in a correction's preview (``competition.corrections``): the
members' ratings and the ladders a correction would change.

Called inside the preview's dry run, whose transaction is rolled back: it brings the club's
ratings (``update_club_ratings``, the same writer the worker runs) and the evening's rows up
to the log, then reads the figures the club's pages show.
"""

from __future__ import annotations

from typing import Any

from tournaments.models import Match

from . import rating, selectors
from .models import MemberRating, Season
from .services import update_club_ratings, update_evening


def correction_lines(match: Match, follow: bool) -> dict[str, dict[str, dict[str, Any]]]:
    """Return the club's ratings (by member) and the ladders of the seasons holding the
    match's evening (by season and member), as the pages show them."""
    tournament = match.tournament
    club_id = tournament.club_id
    if club_id is None:
        return {}
    if follow:
        update_club_ratings(club_id=club_id, match_id=match.pk)
        update_evening(tournament_id=tournament.pk)
    ratings = {
        str(r.player_id): {
            "name": r.player.name,
            "member": r.player_id,
            "mu": round(r.mu, 3),
            "sigma": round(r.sigma, 3),
            "conservative": round(r.mu - rating.Z * r.sigma, 3),
            "matches": r.matches,
        }
        for r in MemberRating.objects.filter(club_id=club_id).select_related("player")
    }
    ladder: dict[str, dict[str, Any]] = {}
    if tournament.date is not None:
        seasons = Season.objects.filter(
            club_id=club_id, starts_on__lte=tournament.date, ends_on__gte=tournament.date
        )
        for season in seasons:
            for line in selectors.season_ladder(season=season):
                ladder[f"{season.pk}:{line.player.pk}"] = {
                    "name": line.player.name,
                    "season": season.pk,
                    "season_name": season.name,
                    "member": line.player.pk,
                    "rank": line.line.rank,
                    "points": line.line.points,
                }
    return {"ratings": ratings, "ladder": ladder}
