"""Writing the members' ratings: bring a club's ratings up to its finished matches.

``update_club_ratings`` is the one writer. Every game (``rating.Game``) is read from the logs
through scoring's results: which members sat where (the log's ``match_started``), who won
(``MatchResult``), and when the match first ended (the log's first ``match_ended``, which a
later correction does not move). Games are rated by the evening's date (the tournament's;
with none, the club's date, in its time zone, when the match ended), then by when they ended,
then by match id; a forfeited match, and a match of a tournament without a club, is not
rated.

It locks the club's ``RatingCheckpoint`` first, so two workers never write one club's ratings
at once. With a ``match_id`` (a match just ended, or a correction changed its result) it reads
that game alone: a game already rated as it stands changes nothing; a new game after the
checkpoint is rated on top of the current ratings (the common case, four rows); anything
else (a correction of an old result, a game whose message came late, a reopened match) makes
it fold again from the first game it affects, as ``rebuild`` folds everything: the changes
from there are deleted, the ratings just before are read back from the changes before, and
the games from there are rated again. Without a ``match_id`` it compares every game with what
was rated and folds again from the first difference (the catch-up). The result is the same
rows whatever the order the messages came in (tests/seasons/test_ratings_projection.py).

The partnerships' own ratings (``PartnershipRating``, ``rating.fold_pairs``) follow in the same
transaction: a game appended on top moves its two pairs; any fold again refolds every pair of
the club from all its games (``_write_pairs``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime

from django.db import transaction
from django.db.models import Min, Q
from django.utils import timezone

from scoring.models import MatchResult
from tournaments import matchlog
from tournaments.clubdate import club_date
from tournaments.models import Club, MatchEvent, Player, Team

from .. import rating
from ..models import MemberRating, PartnershipRating, RatingChange, RatingCheckpoint

log = logging.getLogger(__name__)

#: what ``update_club_ratings`` did
CURRENT = "current"  # every game is rated as it stands: no writes
APPENDED = "appended"  # one new game after the checkpoint: rated on top
REFOLDED = "refolded"  # folded again from the first game affected


@dataclass(frozen=True)
class RatingsUpdate:
    """What one call of ``update_club_ratings`` found and wrote."""

    club_id: int
    outcome: str
    games: int  # games rated by this call


def update_club_ratings(
    *, club_id: int, match_id: int | None = None, rebuild: bool = False
) -> RatingsUpdate:
    """Bring club ``club_id``'s ratings up to its finished matches (module docstring).

    ``match_id``: only that match may have changed. ``rebuild``: delete every rating and fold
    every game from the start. Safe to run twice, concurrently or late.
    """
    if not _anything_to_rate(club_id):
        return RatingsUpdate(club_id, CURRENT, 0)  # and no empty checkpoint written for it
    with transaction.atomic():
        checkpoint = locked_checkpoint(club_id)
        if checkpoint is None:
            return RatingsUpdate(club_id, CURRENT, 0)
        if rebuild:
            return RatingsUpdate(club_id, REFOLDED, _refold(checkpoint, None))
        if match_id is not None:
            games = _games(club_id, match_ids=[match_id])
            game = games[0] if games else None
            stored = _stored_games(club_id, match_ids=[match_id])
            was = stored[0] if stored else None
            if game == was:
                return RatingsUpdate(club_id, CURRENT, 0)
            last = _checkpoint_key(checkpoint)
            if was is None and game is not None and (last is None or game.key > last):
                _write(
                    club_id, rating.fold([game], _ratings_before(club_id, game.players, None))[1]
                )
                _write_pairs(club_id, [game], everything=False)
                _set_checkpoint(checkpoint, game.key)
                return RatingsUpdate(club_id, APPENDED, 1)
            start = min(g.key for g in (game, was) if g is not None)
        else:
            now, then = _games(club_id), _stored_games(club_id)
            differ = [min(a.key, b.key) for a, b in zip(now, then, strict=False) if a != b]
            if len(now) != len(then):
                differ.append(min(now[len(then) :] + then[len(now) :], key=lambda g: g.key).key)
            if not differ:
                return RatingsUpdate(club_id, CURRENT, 0)
            start = min(differ)
        return RatingsUpdate(club_id, REFOLDED, _refold(checkpoint, start))


def _anything_to_rate(club_id: int) -> bool:
    """Whether the club has a finished match or ratings already: a club with neither gets no
    checkpoint row (a match that ends later is rated by its own message, sent after its
    result was written)."""
    return (
        RatingCheckpoint.objects.filter(club_id=club_id).exists()
        or MatchResult.objects.filter(over=True, match__tournament__club_id=club_id).exists()
    )


def rebuild_all_ratings() -> str:
    """Fold every club's ratings afresh from the logs (``rebuild_projections``)."""
    clubs = list(Club.objects.order_by("pk").values_list("pk", flat=True))
    games = sum(update_club_ratings(club_id=c, rebuild=True).games for c in clubs)
    return f"ratings: {len(clubs)} club(s) rebuilt, {games} game(s) rated"


# --- reading the games ---------------------------------------------------------------------


def _games(club_id: int, *, match_ids: list[int] | None = None) -> list[rating.Game]:
    """Return the club's rateable games (or those of ``match_ids``), in key order."""
    results = MatchResult.objects.filter(
        over=True, forfeited_by__isnull=True, match__tournament__club_id=club_id
    )
    if match_ids is not None:
        results = results.filter(match_id__in=match_ids)
    rows = list(
        results.values_list(
            "match_id", "winner", "draw", "match__team0_id", "match__team1_id",
            "match__tournament__date",
        ).order_by()
    )  # fmt: skip
    if not rows:
        return []
    ids = [r[0] for r in rows]
    events = MatchEvent.objects.filter(match_id__in=ids).order_by()
    ended = dict(
        events.filter(kind=matchlog.MATCH_ENDED)
        .values("match_id")
        .annotate(first=Min("recorded_at"))
        .values_list("match_id", "first")
    )
    seated = dict(
        events.filter(kind=matchlog.MATCH_STARTED).values_list("match_id", "payload__players")
    )
    members = set(Player.objects.filter(club_id=club_id).values_list("pk", flat=True))
    zone = Club.objects.filter(pk=club_id).values_list("time_zone", flat=True).first() or "UTC"
    teams = {
        t: (a, b)
        for t, a, b in Team.objects.filter(
            pk__in={r[3] for r in rows} | {r[4] for r in rows}
        ).values_list("pk", "first_player", "second_player")
    }
    games = []
    for match_id, winner, draw, team0, team1, date_of in rows:
        if match_id not in ended:
            continue  # over by its result, yet no match_ended in the log: not finished
        players = seated.get(match_id)
        if not (isinstance(players, list) and len(players) == 4 and set(players) <= members):
            # a member merged into another row since (docs/clubs.md): the teams say who played
            players = [teams[team0][0], teams[team1][0], teams[team0][1], teams[team1][1]]
        sides = (_pair(players[0], players[2]), _pair(players[1], players[3]))
        if len(set(players)) != 4:
            log.error("match %s seats a member twice: not rated", match_id)
            continue
        at = ended[match_id]
        day = date_of or club_date(zone, at)
        games.append(rating.Game(match_id, day, at, sides, None if draw else winner))
    return sorted(games, key=lambda g: g.key)


def _stored_games(club_id: int, *, match_ids: list[int] | None = None) -> list[rating.Game]:
    """Return the games as they were rated (from their changes), in key order."""
    changes = RatingChange.objects.filter(club_id=club_id).order_by()
    if match_ids is not None:
        changes = changes.filter(match_id__in=match_ids)
    sides: dict[int, tuple[date, datetime, dict[int, list[int]], dict[int, str]]] = {}
    for match_id, day, finished_at, team, player, result in changes.values_list(
        "match_id", "day", "finished_at", "team", "player_id", "result"
    ):
        _day, _at, players, results = sides.setdefault(
            match_id, (day, finished_at, {0: [], 1: []}, {})
        )
        players[team].append(player)
        results[team] = result
    games = []
    for match_id, (day, finished_at, players, results) in sides.items():
        winner = (
            None if results.get(0) == rating.DREW else (0 if results.get(0) == rating.WON else 1)
        )
        teams = (_pair(*players[0]), _pair(*players[1]))
        games.append(rating.Game(match_id, day, finished_at, teams, winner))
    return sorted(games, key=lambda g: g.key)


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a <= b else (b, a)


# --- writing -------------------------------------------------------------------------------


def locked_checkpoint(club_id: int) -> RatingCheckpoint | None:
    """Return the club's checkpoint row, locked until the transaction ends (None: no club)."""
    rows = RatingCheckpoint.objects.select_for_update(no_key=True)
    found = rows.filter(club_id=club_id).first()
    if found is not None:
        return found
    if not Club.objects.filter(pk=club_id).exists():
        return None
    RatingCheckpoint.objects.bulk_create([RatingCheckpoint(club_id=club_id)], ignore_conflicts=True)
    return rows.get(club_id=club_id)


def _checkpoint_key(checkpoint: RatingCheckpoint) -> rating.Key | None:
    day, at, match_id = checkpoint.day, checkpoint.finished_at, checkpoint.match_id_last
    if day is None or at is None or match_id is None:
        return None
    return (day, at, match_id)


def _set_checkpoint(checkpoint: RatingCheckpoint, key: rating.Key | None) -> None:
    checkpoint.day, checkpoint.finished_at, checkpoint.match_id_last = key or (None, None, None)
    checkpoint.updated_at = timezone.now()
    checkpoint.save()


def _from(key: rating.Key) -> Q:
    """The changes of the games at ``key`` and after."""
    day, at, match_id = key
    return (
        Q(day__gt=day)
        | Q(day=day, finished_at__gt=at)
        | Q(day=day, finished_at=at, match_id__gte=match_id)
    )


def _ratings_before(
    club_id: int, players: Iterable[int], key: rating.Key | None
) -> dict[int, rating.Rating]:
    """Return the players' ratings before the game at ``key`` (None: now), from their changes."""
    players = list(players)
    if key is None:
        return {
            r.player_id: rating.Rating(r.mu, r.sigma, r.matches, r.last_played_on)
            for r in MemberRating.objects.filter(player_id__in=players)
        }
    earlier = RatingChange.objects.filter(club_id=club_id, player_id__in=players).exclude(
        _from(key)
    )
    out: dict[int, rating.Rating] = {}
    ordered = earlier.order_by("day", "finished_at", "match_id")
    for player, mu, sigma, matches, day in ordered.values_list(
        "player_id", "mu", "sigma", "matches", "day"
    ):
        out[player] = rating.Rating(mu, sigma, matches, day)  # the latest wins
    return out


def _refold(checkpoint: RatingCheckpoint, start: rating.Key | None) -> int:
    """Rate again every game from ``start`` (None: all); return how many games were rated."""
    club_id = checkpoint.club_id
    every = _games(club_id)
    games = [g for g in every if start is None or g.key >= start]
    stale = RatingChange.objects.filter(club_id=club_id)
    if start is not None:
        stale = stale.filter(_from(start))
    touched = set(stale.values_list("player_id", flat=True))
    stale.delete()
    players = {p for g in games for p in g.players}
    before = _ratings_before(club_id, players, start) if start is not None else {}
    _after, changes = rating.fold(games, before)
    _write(club_id, changes, refresh=touched)
    _write_pairs(club_id, every, everything=True)
    last = (
        RatingChange.objects.filter(club_id=club_id)
        .order_by("-day", "-finished_at", "-match_id")
        .values_list("day", "finished_at", "match_id")
        .first()
    )
    _set_checkpoint(checkpoint, last)
    return len(games)


def _write_pairs(club_id: int, games: list[rating.Game], *, everything: bool) -> None:
    """Write the partnerships' ratings: folded from ``games`` on top of the stored ones of
    their pairs, or (``everything``: ``games`` are all the club's) afresh for the whole club.

    A pair's rating after its latest game does not depend on which call folded it: appending
    one game after the checkpoint folds it on top, anything else folds every game again.
    """
    pairs = {team for g in games for team in g.teams}
    stored = PartnershipRating.objects.filter(club_id=club_id)
    if everything:
        start: dict[rating.Pair, rating.Rating] = {}
        stored.delete()
    else:
        mine = [
            r
            for r in stored.filter(first_id__in={a for a, _ in pairs})
            if (r.first_id, r.second_id) in pairs
        ]
        start = {
            (r.first_id, r.second_id): rating.Rating(r.mu, r.sigma, r.matches, r.last_played_on)
            for r in mine
        }
        PartnershipRating.objects.filter(pk__in=[r.pk for r in mine]).delete()
    after = rating.fold_pairs(games, start)
    PartnershipRating.objects.bulk_create(
        PartnershipRating(
            club_id=club_id, first_id=a, second_id=b, mu=now.mu, sigma=now.sigma,
            matches=now.matches, last_played_on=now.last_played,
        )
        for (a, b), now in sorted(after.items())
        if (a, b) in pairs and now.last_played is not None
    )  # fmt: skip


def _write(club_id: int, changes: list[rating.Change], refresh: Iterable[int] = ()) -> None:
    """Write the changes and bring the members' ratings (theirs and ``refresh``'s) to their
    latest change."""
    partner = {}
    for change in changes:
        a, b = change.game.teams[change.team]
        partner[(change.game.match_id, change.player)] = b if change.player == a else a
    RatingChange.objects.bulk_create(
        RatingChange(
            club_id=club_id,
            match_id=c.game.match_id,
            player_id=c.player,
            partner_id=partner[(c.game.match_id, c.player)],
            team=c.team,
            result=c.game.result_of(c.team),
            day=c.game.day,
            finished_at=c.game.finished_at,
            mu_before=c.before.mu,
            sigma_before=c.before.sigma,
            mu=c.after.mu,
            sigma=c.after.sigma,
            matches=c.after.matches,
        )
        for c in changes
    )
    players = {c.player for c in changes} | set(refresh)
    latest: dict[int, rating.Rating] = {}
    if refresh:
        # read back from the changes: some of these members may have no change left
        rows = RatingChange.objects.filter(club_id=club_id, player_id__in=players)
        ordered = rows.order_by("day", "finished_at", "match_id")
        for player, mu, sigma, matches, day in ordered.values_list(
            "player_id", "mu", "sigma", "matches", "day"
        ):
            latest[player] = rating.Rating(mu, sigma, matches, day)
    else:
        for change in changes:  # in key order: the last one of each member stands
            latest[change.player] = change.after
    # the members' rows, replaced in two statements (under the club's lock: nobody else writes)
    MemberRating.objects.filter(player_id__in=players).delete()
    MemberRating.objects.bulk_create(
        MemberRating(
            player_id=player,
            club_id=club_id,
            mu=now.mu,
            sigma=now.sigma,
            matches=now.matches,
            last_played_on=now.last_played,
        )
        for player, now in latest.items()
        if now.last_played is not None  # always: a rating here comes from a match
    )
