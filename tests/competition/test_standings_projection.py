"""The standings projection: written when matches complete, as of every round, never on a read,
and equal, row for row, to a rebuild from scratch."""

from __future__ import annotations

import random
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from competition import standings
from competition.models import StandingRow, StandingsCheckpoint
from competition.selectors import standings_for_stage

from .helpers import make_club

pytestmark = pytest.mark.django_db


def rows() -> list[tuple[Any, ...]]:
    return list(
        StandingRow.objects.order_by("stage", "as_of_round", "team").values_list(
            "stage", "as_of_round", "team", "group", "rank", "points", "played", "won", "drawn",
            "lost", "byes", "tiebreaks",
        )
    )  # fmt: skip


@pytest.fixture
def swiss() -> Any:
    club = make_club(7)
    stage = club.start(
        club.stage(
            format="swiss",
            rounds=3,
            tiebreaks=["bazzis_won", "buchholz", "head_to_head", "sonneborn_berger", "random"],
            tiebreak_seed=99,
        )
    )
    club.play_stage(stage, random.Random(11))
    return stage


def test_standings_are_kept_as_of_every_round_while_the_stage_is_played(swiss: Any) -> None:
    assert sorted(
        set(StandingRow.objects.filter(stage=swiss).values_list("as_of_round", flat=True))
    ) == [0, 1, 2, 3]  # round 0: the table before the first round
    seeding = list(standings_for_stage(stage=swiss, as_of_round=0))
    assert [r.rank for r in seeding] == list(range(1, 8))
    assert [r.team_id for r in seeding] == list(
        swiss.entries.order_by("seed").values_list("team_id", flat=True)
    )
    assert {(r.points, r.played, r.won, r.drawn, r.lost, r.byes) for r in seeding} == {
        (0, 0, 0, 0, 0, 0)
    }
    for number in (1, 2, 3):
        table = list(standings_for_stage(stage=swiss, as_of_round=number))
        assert len(table) == 7
        assert [r.rank for r in table] == sorted(r.rank for r in table)
        assert sum(r.played + r.byes for r in table) == 7 * number
    final = list(standings_for_stage(stage=swiss))
    assert final[0].as_of_round == 3
    assert [name for name, _ in final[0].tiebreaks] == [
        "bazzis_won", "buchholz", "head_to_head", "sonneborn_berger", "random"
    ]  # fmt: skip


def test_the_incremental_rows_equal_a_rebuild_from_scratch(swiss: Any) -> None:
    incremental = rows()
    StandingRow.objects.all().delete()
    StandingsCheckpoint.objects.all().delete()
    out = StringIO()
    call_command("rebuild_projections", "--check", stdout=out)
    assert "standings of 1 stage(s) rebuilt" in out.getvalue()
    assert rows() == incremental
    again = StringIO()
    call_command("rebuild_projections", "--check", stdout=again)
    assert "standings of 1 stage(s) rebuilt, 0 row(s) written" in again.getvalue()


def test_an_update_with_nothing_new_writes_nothing(swiss: Any) -> None:
    assert standings.update_stage_standings(stage_id=swiss.pk) == 0
    StandingRow.objects.filter(stage=swiss, as_of_round=3).update(points=999)
    # the checkpoint says the inputs did not change: a later run trusts the rows it wrote...
    assert standings.update_stage_standings(stage_id=swiss.pk) == 0
    # ...and a rebuild, which ignores the checkpoints, puts them right
    assert standings.update_stage_standings(stage_id=swiss.pk, rebuild=True) == 7


def test_reading_the_standings_never_computes_them(
    swiss: Any, django_assert_num_queries: Any
) -> None:
    with django_assert_num_queries(2):  # the latest round, then its rows with their teams
        assert len(list(standings_for_stage(stage=swiss))) == 7
