"""Writing the evenings a ladder reads: each member's place and matches won, per tournament.

``update_evening`` recomputes one tournament's rows from scoring's results and the
competition's standings (a projection of projections, so ``rebuild_projections`` rebuilds it
after them): a team's matches over and won, and, once every stage is complete, its place:
the last stage's final ranking first, then the teams only an earlier stage ranked
(``ladder.places``). Both members of a team get its line. A forfeited match counts as won by
the other team, as in the standings.
"""

from __future__ import annotations

from datetime import date

from django.db import transaction

from competition.models import Stage, StandingRow
from competition.selectors import latest_standings_round, tournaments_over
from scoring.models import MatchResult
from tournaments.clubdate import club_date
from tournaments.models import Team, Tournament

from .. import ladder
from ..models import EveningResult
from .ratings import locked_checkpoint, update_club_ratings


def update_evening(*, tournament_id: int) -> int:
    """Bring the tournament's evening rows up to its results; return how many rows it wrote.

    Under the club's ratings lock, so two workers never write one club's rows at once. A
    tournament of no club has no rows.
    """
    tournament = (
        Tournament.objects.filter(pk=tournament_id).values_list(
            "club_id", "date", "created_at", "club__time_zone"
        )
    ).first()
    if tournament is None or tournament[0] is None:
        return 0
    club_id, day, created_at, zone = tournament
    if not _anything_to_write(tournament_id):
        return 0  # nothing played, nothing written: no checkpoint row made for the lock
    day = day or club_date(zone, created_at)  # undated: the club's date it was made on
    with transaction.atomic():
        if locked_checkpoint(club_id) is None:
            return 0
        wanted = _rows(club_id, tournament_id, day)
        have = {
            (r.player_id, r.team_id, r.place, r.won, r.played, r.date)
            for r in EveningResult.objects.filter(tournament_id=tournament_id)
        }
        if have == {(r.player_id, r.team_id, r.place, r.won, r.played, r.date) for r in wanted}:
            return 0
        EveningResult.objects.filter(tournament_id=tournament_id).delete()
        EveningResult.objects.bulk_create(wanted)
        return len(wanted)


def _anything_to_write(tournament_id: int) -> bool:
    """Whether the tournament has a result, standings or evening rows already."""
    return (
        MatchResult.objects.filter(match__tournament_id=tournament_id).exists()
        or StandingRow.objects.filter(stage__tournament_id=tournament_id).exists()
        or EveningResult.objects.filter(tournament_id=tournament_id).exists()
    )


def evening_redated(*, tournament_id: int) -> None:
    """A tournament's date changed: its club's ratings are folded again from the first game
    it moves, and its evening rows take the new date, at once (not at the next rebuild)."""
    club_id = Tournament.objects.filter(pk=tournament_id).values_list("club_id", flat=True).first()
    if club_id is None:
        return
    update_club_ratings(club_id=club_id)
    update_evening(tournament_id=tournament_id)


def rebuild_all_evenings() -> str:
    """Recompute every club tournament's evening rows (``rebuild_projections``)."""
    ids = list(
        Tournament.objects.filter(club__isnull=False).order_by("pk").values_list("pk", flat=True)
    )
    EveningResult.objects.exclude(tournament_id__in=ids).delete()
    rows = sum(update_evening(tournament_id=t) for t in ids)
    return f"evenings: {len(ids)} tournament(s) recomputed, {rows} row(s) written"


def _rows(club_id: int, tournament_id: int, day: date) -> list[EveningResult]:
    played: dict[int, int] = {}
    won: dict[int, int] = {}
    results = MatchResult.objects.filter(match__tournament_id=tournament_id, over=True)
    for team0, team1, winner, forfeited in results.values_list(
        "match__team0_id", "match__team1_id", "winner", "forfeited_by"
    ):
        for side, team in enumerate((team0, team1)):
            played[team] = played.get(team, 0) + 1
            if winner == side or (forfeited is not None and forfeited != side):
                won[team] = won.get(team, 0) + 1
    place: dict[int, int] = {}
    if tournament_id in tournaments_over([tournament_id]):
        rankings = []
        for stage in Stage.objects.filter(tournament_id=tournament_id).order_by("-order"):
            last = latest_standings_round(stage=stage)
            if last is None:
                continue
            rows = StandingRow.objects.filter(stage=stage, as_of_round=last)
            ranking = rows.order_by("rank", "group", "team_id").values_list("team_id", "rank")
            rankings.append(list(ranking))
        place = ladder.places(rankings)
    teams = set(played) | set(place)
    out = []
    for team, first, second in Team.objects.filter(pk__in=teams).values_list(
        "pk", "first_player", "second_player"
    ):
        for player in (first, second):
            out.append(
                EveningResult(
                    club_id=club_id,
                    tournament_id=tournament_id,
                    date=day,
                    player_id=player,
                    team_id=team,
                    place=place.get(team),
                    won=won.get(team, 0),
                    played=played.get(team, 0),
                )
            )
    return out
