"""Reading what a club learned across evenings: ratings now, a member's history, ladders.

A club's pages and its API answers show its **published** evenings only: an unpublished
tournament is a 404 to whoever may not see it, so no list here names it, shows its results or
counts them in a ladder (``shown``). The ratings are the one exception: a member's rating is
learned from every finished match of the club, as it is played, and says which of none.

A member who hides their rating (``RatingPrivacy``) is in ``hidden_ratings`` for every reader
but the club's directors and themself; the readers here take that set and leave those
members' figures out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db.models import Q, QuerySet

from tournaments.access import is_club_director
from tournaments.models import Club, Player

from . import ladder, rating
from .models import (
    ClubSeasons,
    EveningResult,
    MemberRating,
    PartnershipRating,
    RatingChange,
    RatingPrivacy,
    Season,
)


def is_public(club: Club) -> bool:
    """Return whether the club shows its ladder, ratings and member pages to anyone."""
    return ClubSeasons.objects.filter(club=club, public=True).exists()


def settled_after(club: Club) -> int:
    """Return the rated matches after which the club's members' ratings are no longer
    provisional (``ClubSeasons.settled_after``; ``rating.SETTLED_AFTER`` by default)."""
    chosen = ClubSeasons.objects.filter(club=club).values_list("settled_after", flat=True).first()
    return rating.SETTLED_AFTER if chosen is None else chosen


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


def rating_list(*, club: Club, on: date, hidden: Iterable[int] = ()) -> list[RatedMember]:
    """Return the club's rated members by conservative estimate as of the day ``on``, best
    first. Members level on it share a rank and the next skips as many ("1, 2, 2, 4", as on
    a ladder); within a rank, the higher ``mu`` first, then by name. The ``hidden`` members
    are left out before the ranks are counted (a gap in them would show where one stands)."""
    rows = MemberRating.objects.filter(club=club).exclude(player_id__in=list(hidden))
    rows = rows.select_related("player")
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


def hidden_ratings(*, club: Club, viewer: Any) -> frozenset[int]:
    """Return the ids of the club's members whose rating ``viewer`` may not see: those who
    chose to hide it (``RatingPrivacy``), except to the club's directors and to the member
    themself."""
    if is_club_director(viewer, club):
        return frozenset()
    hidden = set(
        RatingPrivacy.objects.filter(player__club=club, hidden=True).values_list(
            "player_id", flat=True
        )
    )
    if hidden and getattr(viewer, "is_authenticated", False):
        hidden -= set(
            Player.objects.filter(club=club, user_id=viewer.pk).values_list("pk", flat=True)
        )
    return frozenset(hidden)


def rating_hidden(*, player: Player) -> bool:
    """Return whether the member chose to hide their rating."""
    return RatingPrivacy.objects.filter(player=player, hidden=True).exists()


@dataclass(frozen=True)
class Seat:
    """A member at a match, with their rating as it stood before it (None: hidden from the
    reader)."""

    player: Player
    rating: rating.Rating | None


@dataclass(frozen=True)
class MatchStory:
    """What one rated match did to a member's rating, and why."""

    change: RatingChange  # with its match and tournament
    before: rating.Rating  # after the drift of time away
    after: rating.Rating
    #: the member's side's chance to win (rating.win_probability); None when a seat's rating
    #: is hidden from the reader (with three ratings shown, the chance would give it away)
    expected: float | None
    partner: Seat
    opponents: tuple[Seat, Seat]

    @property
    def actual(self) -> float:
        """The result as a score: 1 won, 1/2 drew, 0 lost."""
        return rating.score(self.change.result)

    @property
    def moved(self) -> float:
        """The change of the shown rating (the conservative estimate)."""
        return self.after.conservative - self.before.conservative


@dataclass(frozen=True)
class EveningStory:
    """A member's rated matches of one evening, in the order they were rated."""

    tournament_id: int
    name: str
    day: date
    matches: list[MatchStory]

    @property
    def before(self) -> rating.Rating:
        return self.matches[0].before

    @property
    def after(self) -> rating.Rating:
        return self.matches[-1].after

    @property
    def moved(self) -> float:
        return self.after.conservative - self.before.conservative

    @property
    def expected(self) -> float | None:
        """Matches the model expected the member to win this evening (the sum of chances);
        None when a chance is not shown."""
        chances = [m.expected for m in self.matches]
        return None if None in chances else sum(c for c in chances if c is not None)

    @property
    def actual(self) -> float:
        return sum(m.actual for m in self.matches)


def rating_story(*, player: Player, hidden: Iterable[int] = ()) -> list[EveningStory]:
    """Return the member's rated matches of published evenings by evening, oldest first: each
    with the rating before and after, the expected result and the partner's and opponents'
    ratings before it (those of ``hidden`` members as None, and the expected result too where
    one of them played: it is worked out from all four ratings)."""
    history = list(rating_history(player=player))
    hide = set(hidden)
    seats: dict[int, dict[int, RatingChange]] = {}
    for row in RatingChange.objects.filter(
        match_id__in=[c.match_id for c in history]
    ).select_related("player"):
        seats.setdefault(row.match_id, {})[row.player_id] = row

    def before(row: RatingChange) -> rating.Rating:
        return rating.Rating(row.mu_before, row.sigma_before, row.matches - 1)

    out: list[EveningStory] = []
    for c in history:
        four = {pid: (row.player, row.team, before(row)) for pid, row in seats[c.match_id].items()}
        sides = [[(r.mu, r.sigma) for _p, t, r in four.values() if t == side] for side in (0, 1)]
        chance = (
            None
            if hide & (set(four) - {player.pk})
            else rating.win_probability(sides[c.team], sides[1 - c.team])
        )
        shown_seats = {pid: Seat(p, None if pid in hide else r) for pid, (p, _t, r) in four.items()}
        story = MatchStory(
            change=c,
            before=before(c),
            after=rating.Rating(c.mu, c.sigma, c.matches, c.day),
            expected=chance,
            partner=shown_seats[c.partner_id],
            opponents=tuple(  # type: ignore[arg-type]
                shown_seats[pid] for pid, (_p, t, _r) in sorted(four.items()) if t != c.team
            ),
        )
        tournament = c.match.tournament
        if out and out[-1].tournament_id == tournament.pk:
            out[-1].matches.append(story)
        else:
            out.append(EveningStory(tournament.pk, tournament.name, c.day, [story]))
    return out


def partnership_ratings(
    *, player: Player, on: date, hidden: Iterable[int] = ()
) -> list[tuple[Player, rating.Rating]]:
    """Return the member's partnerships that have their own rating (played at least
    ``rating.PARTNERSHIP_AFTER`` matches together), as of the day ``on``, best first; none
    with a ``hidden`` member."""
    hide = set(hidden)
    if player.pk in hide:
        return []
    rows = PartnershipRating.objects.filter(
        Q(first=player) | Q(second=player), matches__gte=rating.PARTNERSHIP_AFTER
    ).select_related("first", "second")
    out = []
    for r in rows:
        partner = r.second if r.first_id == player.pk else r.first
        if partner.pk in hide:
            continue
        now = rating.Rating(r.mu, r.sigma, r.matches, r.last_played_on)
        out.append((partner, rating.drifted(now, on)))
    out.sort(key=lambda x: (-x[1].conservative, x[0].name, x[0].pk))
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
