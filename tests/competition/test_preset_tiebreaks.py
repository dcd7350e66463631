"""The presets' tie-breaks separate teams level on points after the matches a club night
plays (1 bazzi: the running difference ends at 0 for everyone, bazzis won count the wins
again), where the old default list left them sharing a place."""

from __future__ import annotations

import random

import pytest

from competition import presets, services
from competition.formats import Match, Side, standings
from competition.models import StandingRow
from scoring.models import MatchResult

from .helpers import make_club

#: the list every preset used before (docs/competition.md)
OLD_DEFAULT = ["bazzis_won", "buchholz", "running_difference", "head_to_head"]


def one_bazzi(round_: int, winner: int, loser: int, points: int) -> Match:
    """A match of 1 bazzi: the winner's lead reached 100 and the running difference went back
    to 0 (L2); ``points``: the winner's deal totals minus the loser's over its deals."""
    return Match(
        round_,
        Side(winner, "win", 1, 0, 0, deals_won=2, points_difference=points),
        Side(loser, "loss", 0, 1, 0, deals_won=1, points_difference=-points),
    )


def places(matches: list[Match], tiebreaks: list[str]) -> list[int]:
    return [row.rank for row in standings(matches, tiebreaks=tiebreaks).rows]


def test_a_swiss_round_of_one_bazzi_matches_is_separated_by_the_swiss_presets_list() -> None:
    # round 1 of a Swiss of 6: three winners, three losers, each level on everything old
    matches = [one_bazzi(1, 1, 2, 130), one_bazzi(1, 3, 4, 105), one_bazzi(1, 5, 6, 160)]
    assert places(matches, OLD_DEFAULT) == [1, 1, 1, 4, 4, 4]
    for kind in ("swiss", "swiss_knockout"):
        swiss = presets.stages_for(presets.Preset(kind, rounds=3, top=4))[0]
        assert swiss["tiebreaks"] == list(presets.SWISS_TIEBREAKS)
        assert places(matches, swiss["tiebreaks"]) == [1, 2, 3, 4, 5, 6]
    table = standings(matches, tiebreaks=list(presets.SWISS_TIEBREAKS)).rows
    assert [row.entrant for row in table] == [5, 1, 3, 4, 2, 6]  # by points difference


def test_a_round_robin_is_separated_by_the_game_between_level_teams() -> None:
    # four teams, everyone met: 1 and 2 won twice, 1 beat 2; 3 and 4 won once, 4 beat 3.
    # Buchholz is everyone else's points: the same for teams level on points.
    matches = [
        one_bazzi(1, 1, 2, 100), one_bazzi(1, 4, 3, 100),
        one_bazzi(2, 3, 1, 100), one_bazzi(2, 2, 4, 100),
        one_bazzi(3, 1, 4, 100), one_bazzi(3, 2, 3, 100),
    ]  # fmt: skip
    assert places(matches, ["buchholz", "running_difference", "bazzis_won"]) == [1, 1, 3, 3]
    for kind in ("round_robin", "groups_knockout"):
        league = presets.stages_for(presets.Preset(kind, groups=1, top=2))[0]
        assert league["tiebreaks"] == list(presets.ROUND_ROBIN_TIEBREAKS)
        table = standings(matches, tiebreaks=league["tiebreaks"]).rows
        assert [(row.rank, row.entrant) for row in table] == [(1, 1), (2, 2), (3, 4), (4, 3)]


def test_a_director_who_chooses_tiebreaks_keeps_them() -> None:
    chosen = presets.Preset("swiss", rounds=3, tiebreaks=("deals_won",))
    assert presets.stages_for(chosen)[0]["tiebreaks"] == ["deals_won"]
    assert presets.stages_for(presets.Preset("single_elimination"))[0].get("tiebreaks") is None


@pytest.mark.django_db
def test_a_club_night_swiss_made_by_the_preset_ranks_every_team_apart_and_its_cut_has_no_tie() -> (
    None
):
    club = make_club(8, slug="preset-night")
    swiss_settings, knockout_settings = presets.stages_for(
        presets.Preset("swiss_knockout", rounds=3, top=4, match_format={"bazzis": 1})
    )
    swiss = club.stage(**{**swiss_settings, "start_matches": False})  # dealt from the rng
    knockout = club.stage(**knockout_settings)
    club.start(swiss)
    club.play_stage(swiss, random.Random(5))
    final = StandingRow.objects.filter(stage=swiss, as_of_round=3)
    assert sorted(final.values_list("rank", flat=True)) == list(range(1, 9))
    ended = MatchResult.objects.filter(match__fixture__stage=swiss)
    assert set(ended.values_list("difference", flat=True)) == {0}  # the old default's figure
    found = services.cut_for_stage(knockout)
    assert found is not None and found.ties == []
    club.start(knockout)
    top = list(final.order_by("rank").values_list("team_id", flat=True)[:4])
    assert list(knockout.entries.order_by("seed").values_list("team_id", flat=True)) == top
