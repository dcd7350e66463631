"""A member's data, as a file they may take away (India's DPDP Rules, the GDPR): everything the
club keeps about them, in one JSON-able dict (docs/privacy.md).

Here, at the top of the domain apps, because a member's data spans them: their row and teams
(tournaments), their matches' results and deals (scoring), their evenings and ratings
(seasons). Other members appear only as a results sheet names them: the member's partner and
the teams they played against, by their teams' names.

The erasure is ``tournaments.privacy.erase_member``: re-exported here so that the pages and the
API ask one module for both.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Q
from django.utils import timezone

from scoring.models import DealResult, MatchResult
from tournaments.models import Erasure, Match, Player, Team
from tournaments.privacy import erase_member, may_ask, own

from .models import EveningResult, MemberRating, PartnershipRating, RatingChange, RatingPrivacy

#: the export's shape; a reader refuses a version it does not know
EXPORT_VERSION = 1


def export_member(member: Player) -> dict[str, Any]:
    """Return everything the club keeps about ``member``: their details, teams, matches (with
    each deal, as their team's: "us" and "them"), evenings, rating and its history, their
    partnerships' ratings and whether they hide their rating."""
    teams = list(
        Team.objects.filter(Q(first_player=member) | Q(second_player=member))
        .select_related("tournament", "first_player", "second_player")
        .order_by("tournament__date", "tournament__created_at", "pk")
    )
    erasure = Erasure.objects.filter(member=member).first()
    return {
        "version": EXPORT_VERSION,
        "exported_at": timezone.now().isoformat(),
        "member": {
            "id": member.pk,
            "name": member.name,
            "contact": member.contact,
            "account": member.user.get_username() if member.user_id else None,  # type: ignore[union-attr]
            "club": {"id": member.club_id, "name": member.club.name if member.club else None},
            "erased_at": erasure.at.isoformat() if erasure else None,
        },
        "teams": [_team(team, member) for team in teams],
        "matches": _matches(teams),
        "evenings": [
            {
                "tournament": row.tournament_id,
                "date": row.date.isoformat(),
                "team": row.team_id,
                "place": row.place,
                "won": row.won,
                "played": row.played,
            }
            for row in EveningResult.objects.filter(player=member).order_by("date", "pk")
        ],
        "rating": _rating(member),
        "rating_hidden": RatingPrivacy.objects.filter(player=member, hidden=True).exists(),
        "partnerships": [
            {
                "partner": (row.second if row.first_id == member.pk else row.first).name,
                "mu": row.mu,
                "sigma": row.sigma,
                "matches": row.matches,
                "last_played_on": row.last_played_on.isoformat(),
            }
            for row in PartnershipRating.objects.filter(Q(first=member) | Q(second=member))
            .select_related("first", "second")
            .order_by("first", "second")
        ],
        "rating_history": [
            {
                "match": change.match_id,
                "day": change.day.isoformat(),
                "result": change.result,
                "mu_before": change.mu_before,
                "sigma_before": change.sigma_before,
                "mu": change.mu,
                "sigma": change.sigma,
                "matches": change.matches,
            }
            for change in RatingChange.objects.filter(player=member).order_by(
                "day", "finished_at", "match"
            )
        ],
    }


def _team(team: Team, member: Player) -> dict[str, Any]:
    partner = team.second_player if team.first_player_id == member.pk else team.first_player
    t = team.tournament
    return {
        "id": team.pk,
        "name": team.name,
        "partner": partner.name,
        "tournament": {
            "id": t.pk,
            "name": t.name,
            "slug": t.slug,
            "date": t.date.isoformat() if t.date else None,
            "place": t.place,
        },
    }


def _matches(teams: Iterable[Team]) -> list[dict[str, Any]]:
    """The matches of ``teams``, each with its result and deals as the member's team's."""
    ours = {team.pk for team in teams}
    matches = list(
        Match.objects.filter(Q(team0__in=ours) | Q(team1__in=ours))
        .select_related("team0", "team1")
        .order_by("created_at", "pk")
    )
    results = {r.match_id: r for r in MatchResult.objects.filter(match__in=matches)}
    deals: dict[int, list[DealResult]] = {}
    for deal in DealResult.objects.filter(match__in=matches).order_by("match", "deal"):
        deals.setdefault(deal.match_id, []).append(deal)
    out = []
    for match in matches:
        side = 0 if match.team0_id in ours else 1
        other = match.team1 if side == 0 else match.team0
        out.append(
            {
                "id": match.pk,
                "tournament": match.tournament_id,
                "team": match.team0_id if side == 0 else match.team1_id,
                "against": other.name,
                "mode": match.mode,
                "status": match.status,
                "result": _result(results.get(match.pk), side),
                "deals": [_deal(deal, side) for deal in deals.get(match.pk, [])],
            }
        )
    return out


def _result(result: MatchResult | None, side: int) -> dict[str, Any] | None:
    if result is None:
        return None
    won = None if result.winner is None else result.winner == side
    return {
        "over": result.over,
        "won": won,
        "draw": result.draw,
        "bazzis": {"us": result.bazzis[side], "them": result.bazzis[1 - side]},
        "deals": result.deals,
    }


def _deal(deal: DealResult, side: int) -> dict[str, Any]:
    points, totals = (deal.points0, deal.points1), (deal.total0, deal.total1)
    bazzi = None if deal.bazzi is None else ("us" if deal.bazzi == side else "them")
    return {
        "deal": deal.deal,
        "points": {"us": points[side], "them": points[1 - side]},
        "totals": {"us": totals[side], "them": totals[1 - side]},
        "bazzi": bazzi,
    }


def _rating(member: Player) -> dict[str, Any] | None:
    rating = MemberRating.objects.filter(player=member).first()
    if rating is None:
        return None
    return {
        "mu": rating.mu,
        "sigma": rating.sigma,
        "matches": rating.matches,
        "last_played_on": rating.last_played_on.isoformat(),
    }


def export_filename(member: Player) -> str:
    """The file name a download of the export is saved under (by id: no name in it)."""
    return f"member-{member.pk}-data.json"


__all__ = ["EXPORT_VERSION", "erase_member", "export_filename", "export_member", "may_ask", "own"]
