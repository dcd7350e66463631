"""What scoring tells of a match's results, written in the projection's transaction
(tournaments.happenings): a deal recorded, corrected or voided, a match completed or reopened.

The bodies are the results log's and the webhooks' (docs/api.md lists them); the sides of a
match are named here by their teams, and the competition adds where each comes from (a
bracket's "winner of QF1") as the happening is written (``happenings.shape_with``).
"""

from __future__ import annotations

from typing import Any

import live
from tournaments import happenings
from tournaments.models import Match

from .models import DealResult, MatchResult


def deal_body(row: DealResult) -> dict[str, Any]:
    """A deal's result as the results log and the webhooks show it."""
    return {
        "match": row.match_id,
        "deal": row.deal,
        "dealer": row.dealer,
        "points": [row.points0, row.points1],
        "sweeps": [row.sweeps0, row.sweeps1],
        "total": [row.total0, row.total1],
        "running_difference": row.running_difference,
        "bazzi": row.bazzi,
        "bazzis": [row.bazzis0, row.bazzis1],
    }


def deals_changed(
    *,
    tournament_id: int,
    head: int,
    created: list[DealResult],
    corrected: list[tuple[DealResult, dict[str, Any]]],
    voided: list[DealResult],
) -> None:
    """Write what a projection did to a match's deals: each deal recorded (key: its row; a
    deal voided and scored again is a new row), each corrected with the body it replaced, and
    each voided (keys: the row at the log's head, so a later correction is told again)."""
    for row in sorted(created, key=lambda r: r.deal):
        happenings.write(
            tournament_id=tournament_id, kind=happenings.DEAL_RECORDED, body=deal_body(row),
            key=f"deal:{row.pk}", topics=[(live.Topic.RESULT, row.match_id)],
        )  # fmt: skip
    for row, replaced in sorted(corrected, key=lambda pair: pair[0].deal):
        body = {**deal_body(row), "replaced": replaced}
        happenings.write(
            tournament_id=tournament_id, kind=happenings.DEAL_CORRECTED, body=body,
            key=f"corrected:{row.pk}:{head}", topics=[(live.Topic.RESULT, row.match_id)],
        )  # fmt: skip
    for row in sorted(voided, key=lambda r: r.deal):
        replaced = deal_body(row)
        body = {"match": row.match_id, "deal": row.deal, "replaced": replaced}
        happenings.write(
            tournament_id=tournament_id, kind=happenings.DEAL_VOIDED, body=body,
            key=f"voided:{row.pk}:{head}", topics=[(live.Topic.RESULT, row.match_id)],
        )  # fmt: skip


def result_changed(*, match: Match, result: MatchResult, was_over: bool) -> None:
    """Write that a match completed (or that a correction changed a completed match's result:
    completed again, at the new head), or that a correction reopened it."""
    # both bodies: the match and its sides first, its scores and the log's head last
    named = {
        "match": match.pk,
        "sides": [happenings.side(0, match.team0), happenings.side(1, match.team1)],
    }
    scores = {
        "bazzis": [result.bazzis0, result.bazzis1],
        "difference": result.difference,
        "deals": result.deals,
        "head": {"seq": match.last_seq, "hash": match.last_hash},
    }
    if result.completed_at is not None and result.over:
        teams = (match.team0_id, match.team1_id)
        happenings.write(
            tournament_id=match.tournament_id,
            kind=happenings.MATCH_COMPLETED,
            body={
                **named,
                "winner_side": result.winner,
                # deprecated (docs/api-changelog.md): the team ids of sides and winner_side
                "teams": list(teams),
                "winner": None if result.winner is None else teams[result.winner],
                "draw": result.draw,
                **scores,
            },
            key=f"match:{match.pk}:{match.last_seq}",  # at this head (again after a correction)
            topics=[(live.Topic.RESULT, match.pk)],
        )
    elif was_over and result.completed_at is None:
        happenings.write(
            tournament_id=match.tournament_id,
            kind=happenings.MATCH_REOPENED,
            body={**named, **scores},
            key=f"reopened:{match.pk}:{match.last_seq}",
            topics=[(live.Topic.RESULT, match.pk)],
        )
