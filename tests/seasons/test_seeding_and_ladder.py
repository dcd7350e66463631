"""An evening seeded by its members' ratings, and the season's ladder from its evenings."""

from __future__ import annotations

import random
from datetime import date

import pytest
from django.contrib.auth import get_user_model

from competition import services as competition
from competition.errors import CompetitionRefused
from competition.models import Registration, Stage, StandingRow
from seasons import services
from seasons.models import EveningResult, RatingSeeding, Season
from seasons.selectors import season_ladder
from tests.competition.helpers import Club as Evening
from tournaments.errors import ClubRefused

from .conftest import ClubWorld

pytestmark = pytest.mark.django_db


def enter(world: ClubWorld, pairs: list[tuple[int, int]], day: date) -> Evening:
    """Return an evening of the club with these pairs registered and checked in."""
    tournament = world.evening(day)
    teams = [
        competition.team_enter(
            actor=world.director,
            tournament=tournament,
            name=f"Team {n}",
            people=[world.members[a], world.members[b]],
            checked_in=True,
        )
        for n, (a, b) in enumerate(pairs, start=1)
    ]
    return Evening(world.director, tournament, teams)


def test_an_evening_is_seeded_by_its_members_ratings(club_world: ClubWorld) -> None:
    past = club_world.evening()
    for _ in range(3):  # A and B beat C and D three times
        club_world.play(past, (0, 1, 2, 3), winner=0)
    evening = enter(club_world, [(2, 3), (0, 4), (1, 5), (6, 7)], date(2026, 2, 6))
    stage = evening.stage(format="round_robin")
    record = services.seed_by_member_ratings(
        actor=club_world.director, tournament=evening.tournament, measure="sum"
    )
    assert (
        record.teams == 4 and RatingSeeding.objects.filter(tournament=evening.tournament).exists()
    )
    ratings = dict(Registration.objects.values_list("team__name", "rating"))
    # A's and B's teams (each with a newcomer) above the newcomers' pair, C and D's below
    assert ratings["Team 2"] == ratings["Team 3"] > ratings["Team 4"] > ratings["Team 1"]
    stage.refresh_from_db()
    assert stage.seeding == Stage.Seeding.RATING
    evening.start(stage)
    seeds = dict(stage.entries.values_list("team__name", "seed"))
    assert seeds["Team 4"] == 3 and seeds["Team 1"] == 4


def test_seeding_is_refused_to_others_and_once_a_stage_started(club_world: ClubWorld) -> None:
    evening = enter(club_world, [(0, 1), (2, 3)], date(2026, 2, 6))
    outsider = get_user_model().objects.create_user("outsider")
    with pytest.raises(CompetitionRefused):
        services.seed_by_member_ratings(
            actor=outsider, tournament=evening.tournament, measure="sum"
        )
    with pytest.raises(CompetitionRefused, match="measure"):
        services.seed_by_member_ratings(
            actor=club_world.director, tournament=evening.tournament, measure="loudest"
        )
    evening.start(evening.stage(format="round_robin"))
    before = list(Registration.objects.values_list("team_id", "rating"))
    with pytest.raises(CompetitionRefused, match="fixed once a stage has started"):
        services.seed_by_member_ratings(
            actor=club_world.director, tournament=evening.tournament, measure="conservative"
        )
    assert list(Registration.objects.values_list("team_id", "rating")) == before
    assert not RatingSeeding.objects.exists()


def test_the_ladder_adds_each_evenings_places_up_to_the_evening_asked(
    club_world: ClubWorld,
) -> None:
    season = services.season_create(
        actor=club_world.director, club=club_world.club, name="Spring 2026",
        starts_on=date(2026, 1, 1), ends_on=date(2026, 6, 30), points=[10, 6, 4, 2],
    )  # fmt: skip
    days = [date(2026, 1, 9), date(2026, 1, 16)]
    for day in days:
        evening = enter(club_world, [(0, 1), (2, 3), (4, 5), (6, 7)], day)
        stage = evening.start(evening.stage(format="round_robin"))
        evening.play_stage(stage, random.Random(day.toordinal()))
        stage.refresh_from_db()
        assert stage.status == Stage.Status.COMPLETE
    rows = EveningResult.objects.filter(club=club_world.club)
    assert rows.count() == 16 and not rows.filter(place__isnull=True).exists()
    first = season_ladder(season=season, as_of=days[0])
    both = season_ladder(season=season)
    points = [10, 6, 4, 2]

    def earned(upto: date) -> int:
        return sum(points[r.place - 1] for r in rows.filter(date__lte=upto) if r.place)

    assert len(first) == len(both) == 8
    assert sum(x.line.points for x in first) == earned(days[0]) >= 2 * 10
    assert sum(x.line.points for x in both) == earned(days[1]) > earned(days[0])
    assert all(x.line.evenings == 2 for x in both)
    # the places are the final standings' ranks of each evening
    last = Stage.objects.filter(tournament=club_world.evenings[-1]).get()
    final = StandingRow.objects.filter(stage=last, as_of_round=3)
    assert final.count() == 4  # a line each: the loop below checks every team
    for row in final:
        line = EveningResult.objects.get(tournament=last.tournament, player=row.team.first_player)
        assert line.place == row.rank  # one stage: its ranks, ties shared


def test_a_season_refuses_bad_settings_and_writes_nothing(club_world: ClubWorld) -> None:
    make = services.season_create
    bad = [
        {"starts_on": date(2026, 6, 1), "ends_on": date(2026, 1, 1)},
        {"points": [10, -1]},
        {"points": ["ten"]},
        {"rule": "wins", "points": [3, 1]},
        {"best": 0},
        {"name": "  "},
    ]
    for fields in bad:
        args = {
            "actor": club_world.director, "club": club_world.club, "name": "Summer",
            "starts_on": date(2026, 1, 1), "ends_on": date(2026, 3, 1), **fields,
        }  # fmt: skip
        with pytest.raises(ClubRefused) as caught:
            make(**args)
        assert caught.value.code == "bad_season"
    outsider = get_user_model().objects.create_user("outsider")
    with pytest.raises(ClubRefused) as refused:
        make(actor=outsider, club=club_world.club, name="Mine", starts_on=date(2026, 1, 1),
             ends_on=date(2026, 2, 1))  # fmt: skip
    assert refused.value.code == "forbidden"
    assert not Season.objects.exists()
