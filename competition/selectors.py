"""Reading a tournament's competition: stages, rounds, fixtures, standings and brackets.

Standings come from the projection (``competition.standings``), never computed on a read.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from tournaments.models import Team

from .models import Fixture, Notice, Round, Stage, StandingRow
from .services import bracket_state


def open_notices(*, tournament_id: int) -> QuerySet[Notice]:
    """Return what the tournament's directors have still to look at, newest first."""
    return Notice.objects.filter(stage__tournament_id=tournament_id, resolved_at__isnull=True)


def stage_rounds(*, stage: Stage, include_drafts: bool = False) -> QuerySet[Round]:
    """Return the stage's rounds in order (drafts only for directors)."""
    rounds = Round.objects.filter(stage=stage).order_by("number")
    return rounds if include_drafts else rounds.exclude(status=Round.Status.DRAFT)


def latest_standings_round(*, stage: Stage) -> int | None:
    """Return the last round the stage's standings have rows for, or None."""
    return (
        StandingRow.objects.filter(stage=stage)
        .order_by("-as_of_round")
        .values_list("as_of_round", flat=True)
        .first()
    )


def standings_for_stage(*, stage: Stage, as_of_round: int | None = None) -> QuerySet[StandingRow]:
    """Return the stage's standings as of a round (default: the latest), group by group."""
    if as_of_round is None:
        as_of_round = latest_standings_round(stage=stage)
    return (
        StandingRow.objects.filter(stage=stage, as_of_round=as_of_round or 0)
        .select_related("team")
        .order_by("group", "rank", "team__name")
    )


def _side(fixture: Fixture, side: str) -> dict[str, Any] | None:
    team = getattr(fixture, f"team_{side}")
    if team is not None:
        return {"team": team.pk, "name": team.name}
    source = getattr(fixture, f"source_{side}")
    return {"team": None, "from": source} if source else None


def fixture_status(fixture: Fixture) -> str:
    """Return where a fixture stands: waiting, ready, playing, decided, void or bye."""
    if fixture.result == Fixture.Result.VOID:
        return "void"
    if fixture.result == Fixture.Result.BYE:
        return "bye"
    if fixture.result:
        return "decided"
    if fixture.team_a_id is None or fixture.team_b_id is None:
        return "waiting"
    if fixture.match is not None and fixture.match.status != "scheduled":
        return "playing"
    return "ready"


def bracket_for_stage(*, stage: Stage, include_drafts: bool = False) -> dict[str, Any]:
    """Return a bracket stage as a tree: its rounds, each with its fixtures, and the champion.

    A fixture shows its two entrants (a team, or where it comes from: "winner of R1-2"), its
    result, its match, where its winner and loser go, and whether it is waiting, ready,
    being played, decided or void.
    """
    rounds = list(stage_rounds(stage=stage, include_drafts=include_drafts))
    fixtures = (
        Fixture.objects.filter(round__in=rounds)
        .select_related("team_a", "team_b", "match")
        .order_by("round__number", "key", "table", "id")
    )
    by_round: dict[int, list[dict[str, Any]]] = {r.pk: [] for r in rounds}
    champion = None
    for f in fixtures:
        winner = f.winner()
        by_round[f.round_id].append(
            {
                "key": f.key,
                "table": f.table,
                "a": _side(f, "a"),
                "b": _side(f, "b"),
                "result": f.result or None,
                "winner": None if winner is None else winner.pk,
                "status": fixture_status(f),
                "match": f.match_id,
                "winner_to": f.winner_to or None,
                "loser_to": f.loser_to or None,
            }
        )
    if stage.elimination and stage.status != Stage.Status.PENDING:
        team_id = bracket_state(stage).champion
        if team_id is not None:
            champion = {"team": team_id, "name": Team.objects.get(pk=team_id).name}
    return {
        "stage": stage.pk,
        "format": stage.format,
        "status": stage.status,
        "rounds": [
            {
                "number": r.number,
                "name": r.name,
                "part": r.part,
                "status": r.status,
                "fixtures": by_round[r.pk],
            }
            for r in rounds
        ],
        "champion": champion,
    }
