"""Reading what a club learned across evenings: ratings now, a member's history, ladders.

A club's pages and its API answers show its **published** evenings only: an unpublished
tournament is a 404 to whoever may not see it, so no list here names it, shows its results or
counts them in a ladder (``shown``). The ratings are the one exception: a member's rating is
learned from every finished match of the club, as it is played, and says which of none.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db.models import QuerySet

from tournaments.access import is_club_director
from tournaments.models import Club, Player

from . import ladder, rating
from .models import ClubSeasons, EveningResult, MemberRating, RatingChange, Season


def is_public(club: Club) -> bool:
    """Return whether the club shows its ladder, ratings and member pages to anyone."""
    return ClubSeasons.objects.filter(club=club, public=True).exists()


def may_see_club(user: Any, club: Club) -> bool:
    """Return whether ``user`` may see the club's ladder, rating list and member pages: anyone
    when the club made them public, else its directors and its members who sign in."""
    if is_public(club) or is_club_director(user, club):
        return True
    return bool(
        getattr(user, "is_authenticated", False)
        and Player.objects.filter(club=club, user_id=user.pk).exists()
    )


def ratings_now(*, players: Iterable[int], on: date) -> dict[int, rating.Rating]:
    """Return the members' ratings as of the day ``on``: after their last match, with the drift
    of the time since (a member with no rated match has none here: ``rating.Rating()``)."""
    return {
        r.player_id: rating.drifted(rating.Rating(r.mu, r.sigma, r.matches, r.last_played_on), on)
        for r in MemberRating.objects.filter(player_id__in=list(players))
    }


@dataclass(frozen=True)
class RatedMember:
    """A line of a club's rating list."""

    rank: int
    player: Player
    rating: rating.Rating


def rating_list(*, club: Club, on: date) -> list[RatedMember]:
    """Return the club's rated members by conservative estimate as of the day ``on``, best
    first. Members level on it share a rank and the next skips as many ("1, 2, 2, 4", as on
    a ladder); within a rank, the higher ``mu`` first, then by name."""
    rows = MemberRating.objects.filter(club=club).select_related("player")
    rated = [
        (r.player, rating.drifted(rating.Rating(r.mu, r.sigma, r.matches, r.last_played_on), on))
        for r in rows
    ]
    rated.sort(key=lambda x: (-x[1].conservative, -x[1].mu, x[0].name, x[0].pk))
    out: list[RatedMember] = []
    for n, (player, now) in enumerate(rated, start=1):
        level = out and out[-1].rating.conservative == now.conservative
        out.append(RatedMember(out[-1].rank if level else n, player, now))
    return out


def shown(rows: QuerySet[Any], tournament: str = "tournament") -> QuerySet[Any]:
    """Return the rows of published tournaments alone (``tournament``: the path to theirs)."""
    return rows.filter(**{f"{tournament}__published": True})


def rating_history(*, player: Player) -> QuerySet[RatingChange]:
    """Return the member's rated matches of published evenings, oldest first, with their
    partner and tournament."""
    return (
        shown(RatingChange.objects.filter(player=player), "match__tournament")
        .select_related("partner", "match__tournament", "match__team0", "match__team1")
        .order_by("day", "finished_at", "match_id")
    )


def partners(*, player: Player) -> list[tuple[Player, int, int]]:
    """Return the member's partners with the matches of published evenings played and won
    together, most first."""
    counts: dict[int, list[int]] = {}
    changes = shown(RatingChange.objects.filter(player=player), "match__tournament")
    for partner, result in changes.values_list("partner_id", "result"):
        played_won = counts.setdefault(partner, [0, 0])
        played_won[0] += 1
        played_won[1] += result == RatingChange.Result.WON
    people = Player.objects.in_bulk(list(counts))
    out = [(people[p], n, w) for p, (n, w) in counts.items() if p in people]
    out.sort(key=lambda x: (-x[1], -x[2], x[0].name, x[0].pk))
    return out


def evenings(*, player: Player) -> QuerySet[EveningResult]:
    """Return the member's published evenings, latest first."""
    return (
        shown(EveningResult.objects.filter(player=player))
        .select_related("tournament", "team")
        .order_by("-date", "-tournament_id")
    )


def current_season(*, club: Club, on: date) -> Season | None:
    """Return the club's season running on ``on`` (the latest to start), else the last one
    that ended before it, else None."""
    seasons = Season.objects.filter(club=club)
    return (
        seasons.filter(starts_on__lte=on, ends_on__gte=on).order_by("-starts_on", "-pk").first()
        or seasons.filter(ends_on__lt=on).order_by("-ends_on", "-pk").first()
    )


def season_evenings(*, season: Season) -> list[tuple[int, date, str]]:
    """Return the season's published evenings (tournament id, date, name), in date order."""
    rows = (
        shown(
            EveningResult.objects.filter(
                club_id=season.club_id, date__gte=season.starts_on, date__lte=season.ends_on
            )
        )
        .values_list("tournament_id", "date", "tournament__name")
        .distinct()
        .order_by("date", "tournament_id")
    )
    return list(rows)


@dataclass(frozen=True)
class LadderLine:
    """A line of a season's ladder, with its member."""

    line: ladder.Line
    player: Player


def season_ladder(*, season: Season, as_of: date | None = None) -> list[LadderLine]:
    """Return the season's ladder as of its published evenings up to ``as_of`` (None: all so
    far)."""
    end = season.ends_on if as_of is None else min(as_of, season.ends_on)
    rows = shown(
        EveningResult.objects.filter(
            club_id=season.club_id, date__gte=season.starts_on, date__lte=end
        )
    )
    evenings = [
        ladder.Evening(t, d, p, place, won, played)
        for t, d, p, place, won, played in rows.values_list(
            "tournament_id", "date", "player_id", "place", "won", "played"
        )
    ]
    people = Player.objects.in_bulk({e.player_id for e in evenings})
    names = {pk: p.name for pk, p in people.items()}
    lines = ladder.ladder(evenings, season.ladder_rule(), names)
    return [LadderLine(line, people[line.player_id]) for line in lines]


def ladder_places(*, player: Player) -> list[tuple[Season, int, int]]:
    """Return the member's place and points on each of their club's seasons they played in."""
    if player.club_id is None:
        return []
    out = []
    for season in Season.objects.filter(club_id=player.club_id).order_by("-starts_on", "-pk"):
        for row in season_ladder(season=season):
            if row.player.pk == player.pk:
                out.append((season, row.line.rank, row.line.points))
                break
    return out
