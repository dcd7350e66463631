"""Registration, stages and rounds through the competition services: what an organizer does."""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from competition import services
from competition.errors import DraftEditRefused, InvalidSettings, NotNow, NotPermitted
from competition.models import Fixture, Registration, Round, Stage
from competition.selectors import stage_rounds, standings_for_stage
from tournaments.models import Match, Player

from .helpers import Club, make_club

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> Club:
    return make_club(6)


def meetings(stage: Stage) -> list[frozenset[int]]:
    return [
        frozenset((a, b))
        for a, b in Fixture.objects.filter(stage=stage, team_b__isnull=False).values_list(
            "team_a_id", "team_b_id"
        )
    ]


# --- registration and seeding -------------------------------------------------------------


def test_only_a_director_registers_teams_and_runs_stages(club: Club) -> None:
    stranger = get_user_model().objects.create_user("stranger")
    players = [Player.objects.create(name=f"X{i}") for i in range(2)]
    with pytest.raises(NotPermitted):
        services.team_register(actor=stranger, tournament=club.tournament, name="Gatecrashers",
                               first_player=players[0], second_player=players[1])  # fmt: skip
    with pytest.raises(NotPermitted):
        services.stage_create(actor=stranger, tournament=club.tournament, name="S",
                              format="swiss", rounds=3, match_format={})  # fmt: skip
    stage = club.stage(format="round_robin")
    for command in (services.stage_start, services.round_pair):
        with pytest.raises(NotPermitted):
            command(actor=stranger, stage=stage)


def test_only_checked_in_teams_that_have_not_withdrawn_enter_a_stage(club: Club) -> None:
    Registration.objects.filter(team=club.teams[0]).update(checked_in_at=None)
    services.team_withdraw(actor=club.organizer, team=club.teams[1])
    with pytest.raises(NotNow):
        services.team_check_in(actor=club.organizer, team=club.teams[1])
    stage = club.start(club.stage(format="round_robin"))
    assert sorted(stage.entries.values_list("team_id", flat=True)) == [t.pk for t in club.teams[2:]]


@pytest.mark.parametrize(
    ("seeding", "expected"),
    [("manual", [1, 2, 3, 4, 5, 6]), ("rating", [6, 5, 4, 3, 2, 1])],
)
def test_seeding_by_manual_order_or_by_rating(
    club: Club, seeding: str, expected: list[int]
) -> None:
    for team, rating in zip(club.teams, range(6), strict=True):  # team 6 has the best rating
        Registration.objects.filter(team=team).update(rating=1000 + rating)
    stage = club.start(club.stage(format="round_robin", seeding=seeding))
    seeded = list(stage.entries.order_by("seed").values_list("team__name", flat=True))
    assert seeded == [f"Team {n:02d}" for n in expected]


def test_a_random_seeding_records_its_seed_and_can_be_repeated(club: Club) -> None:
    stage = club.start(club.stage(format="round_robin", seeding="random"))
    assert stage.seeding_seed is not None
    order = list(stage.entries.order_by("seed").values_list("team_id", flat=True))
    again = make_club(6, slug="again")
    repeat = again.start(again.stage(format="round_robin", seeding="random",
                                     seeding_seed=stage.seeding_seed))  # fmt: skip
    offset = again.teams[0].pk - club.teams[0].pk
    assert [
        t - offset for t in repeat.entries.order_by("seed").values_list("team_id", flat=True)
    ] == order


# --- stage settings -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "code"),
    [
        ({"format": "swiss"}, "bad_rounds"),
        ({"format": "groups"}, "bad_groups"),
        ({"format": "ladder"}, "bad_format"),
        ({"format": "round_robin", "mode": "telepathy"}, "bad_mode"),
        ({"format": "round_robin", "tiebreaks": ["charm"]}, "bad_tiebreaks"),
        ({"format": "round_robin", "tiebreaks": ["buchholz", "buchholz"]}, "bad_tiebreaks"),
        ({"format": "round_robin", "tiebreaks": ["random", "buchholz"]}, "bad_tiebreaks"),
        ({"format": "single_elimination", "match_format": {"draws": True}}, "bad_format"),
        ({"format": "round_robin", "match_format": {"bazzis": 0}}, "bad_format"),
        ({"format": "round_robin", "entry": "top", "entry_count": 4}, "bad_entry"),
        ({"format": "round_robin", "late_entry": True}, "bad_entry"),
        ({"format": "round_robin", "colour": "red"}, "bad_stage"),
    ],
)
def test_a_stage_the_formats_cannot_run_is_refused_with_its_reason(
    club: Club, settings: dict[str, Any], code: str
) -> None:
    with pytest.raises(InvalidSettings) as refused:
        club.stage(**settings)
    assert refused.value.code == code
    assert not club.tournament.stages.exists()


def test_an_elimination_stage_plays_on_instead_of_drawing(club: Club) -> None:
    stage = club.stage(format="single_elimination", match_format={"bazzis": 1, "deal_cap": 1})
    assert stage.match_format["draws"] is False


def test_a_stages_settings_are_fixed_once_it_starts(club: Club) -> None:
    stage = club.stage(format="round_robin")
    services.stage_update(actor=club.organizer, stage=stage, points_win=3)
    club.start(stage)
    with pytest.raises(NotNow):
        services.stage_update(actor=club.organizer, stage=stage, points_win=5)
    stage.refresh_from_db()
    assert stage.points_win == 3


def test_the_top_n_stage_waits_for_the_previous_one(club: Club) -> None:
    # (the random draw last: no tie at the cut, which would wait for a director)
    first = club.start(
        club.stage(format="round_robin", tiebreaks=["points_difference", "random"],
                   tiebreak_seed=5)
    )  # fmt: skip
    second = club.stage(format="single_elimination", entry="top", entry_count=4)
    with pytest.raises(NotNow) as refused:
        club.start(second)
    assert refused.value.code == "previous_running"
    club.play_stage(first, random.Random(1))
    club.start(second)
    top = [r.team_id for r in standings_for_stage(stage=first)][:4]
    assert list(second.entries.order_by("seed").values_list("team_id", flat=True)) == top


# --- round robin: the round lifecycle -----------------------------------------------------


def test_a_round_robin_plays_everybody_once_and_completes_by_itself(club: Club) -> None:
    stage = club.start(club.stage(format="round_robin"))
    rng = random.Random(2)
    for number in range(1, 6):
        round_ = club.pair(stage)
        assert (round_.number, round_.status) == (number, "draft")
        assert not list(stage_rounds(stage=stage).filter(pk=round_.pk))  # drafts: directors only
        assert not Match.objects.filter(fixture__round=round_).exists()
        club.publish(round_)
        round_.refresh_from_db()
        assert round_.status == "published"
        assert Match.objects.filter(fixture__round=round_).count() == 3
        club.play(round_, rng)
        round_.refresh_from_db()
        assert round_.status == "complete"
        assert len(round_.receipts) == 3 and all(r["receipt"] for r in round_.receipts)
    stage.refresh_from_db()
    assert stage.status == "complete"
    assert sorted(map(sorted, meetings(stage))) == sorted(
        sorted(pair) for pair in combinations([t.pk for t in club.teams], 2)
    )
    with pytest.raises(NotNow):
        club.pair(stage)


def test_a_draft_is_published_once_and_only_one_draft_at_a_time(club: Club) -> None:
    stage = club.start(club.stage(format="round_robin"))
    round_ = club.pair(stage)
    with pytest.raises(NotNow) as refused:
        club.pair(stage)
    assert refused.value.code == "draft_pending"
    club.publish(round_)
    with pytest.raises(NotNow):
        club.publish(round_)
    assert Match.objects.filter(fixture__round=round_).count() == 3


def test_an_odd_field_gives_one_bye_a_round_and_everybody_one(club: Club) -> None:
    services.team_withdraw(actor=club.organizer, team=club.teams[5])
    stage = club.start(club.stage(format="round_robin"))
    club.play_stage(stage, random.Random(3))
    byes = list(
        Fixture.objects.filter(stage=stage, result="bye").values_list("team_a_id", flat=True)
    )
    assert sorted(byes) == sorted(t.pk for t in club.teams[:5])


# --- editing a draft ----------------------------------------------------------------------


def swiss_after_one_round(club: Club) -> tuple[Stage, Round]:
    stage = club.start(club.stage(format="swiss", rounds=3))
    first = club.pair(stage)
    club.publish(first)
    club.play(first, random.Random(4))
    return stage, club.pair(stage)


def test_a_draft_edit_that_makes_a_rematch_is_refused_and_says_so(club: Club) -> None:
    stage, draft = swiss_after_one_round(club)
    met = Fixture.objects.filter(round__number=1, stage=stage).first()
    assert met is not None
    a, b = met.team_a_id, met.team_b_id
    fixture = Fixture.objects.get(round=draft, team_a=a) if Fixture.objects.filter(
        round=draft, team_a=a).exists() else Fixture.objects.get(round=draft, team_b=a)  # fmt: skip
    partner = fixture.team_b_id if fixture.team_a_id == a else fixture.team_a_id
    before = list(draft.fixtures.values_list("team_a", "team_b", "table"))
    with pytest.raises(DraftEditRefused) as refused:
        services.round_edit(actor=club.organizer, round=draft, swap_teams=(partner, b))
    names = {t.pk: t.name for t in club.teams}
    said = {f"{names[a]} and {names[b]} have met already (rematch)",
            f"{names[b]} and {names[a]} have met already (rematch)"}  # fmt: skip
    assert said & set(refused.value.problems), refused.value.problems
    assert list(draft.fixtures.values_list("team_a", "team_b", "table")) == before  # unchanged
    problems = services.round_edit(actor=club.organizer, round=draft, swap_teams=(partner, b),
                                   force=True)  # fmt: skip
    assert any("rematch" in p for p in problems)
    assert frozenset((a, b)) in [
        frozenset(p) for p in draft.fixtures.values_list("team_a", "team_b")
    ]


def test_tables_of_a_draft_can_be_swapped(club: Club) -> None:
    stage = club.start(club.stage(format="round_robin"))
    draft = club.pair(stage)
    one = draft.fixtures.get(table=1)
    two = draft.fixtures.get(table=2)
    assert services.round_edit(actor=club.organizer, round=draft, swap_tables=(1, 2)) == []
    assert draft.fixtures.get(table=1).pk == two.pk and draft.fixtures.get(table=2).pk == one.pk


def test_a_published_round_cannot_be_edited(club: Club) -> None:
    stage = club.start(club.stage(format="round_robin"))
    round_ = club.publish(club.pair(stage))
    with pytest.raises(NotNow):
        services.round_edit(actor=club.organizer, round=round_, swap_tables=(1, 2))


# --- Swiss --------------------------------------------------------------------------------


def test_a_swiss_round_waits_for_the_last_one_and_avoids_rematches(club: Club) -> None:
    stage = club.start(club.stage(format="swiss", rounds=3))
    first = club.publish(club.pair(stage))
    with pytest.raises(NotNow) as refused:
        club.pair(stage)
    assert refused.value.code == "round_running"
    rng = random.Random(5)
    club.play(first, rng)
    for _ in range(2):
        round_ = club.publish(club.pair(stage))
        assert round_.pairing["cost"]["rematches"] == 0
        club.play(round_, rng)
    stage.refresh_from_db()
    assert stage.status == "complete"
    assert len(meetings(stage)) == len(set(meetings(stage))) == 9


def test_a_late_entry_joins_the_next_swiss_round(club: Club) -> None:
    stage = club.start(club.stage(format="swiss", rounds=3, late_entry=True))
    club.play(club.publish(club.pair(stage)), random.Random(6))
    players = [Player.objects.create(name=f"Late {i}") for i in range(2)]
    late = services.team_register(actor=club.organizer, tournament=club.tournament, name="Late",
                                  first_player=players[0], second_player=players[1],
                                  checked_in=True)  # fmt: skip
    second = club.pair(stage)
    teams = set(draft_teams(second))
    assert late.pk in teams and len(teams) == 7
    assert second.fixtures.filter(result="bye").count() == 1


def draft_teams(round_: Round) -> list[int]:
    return [t for pair in round_.fixtures.values_list("team_a", "team_b") for t in pair if t]


# --- withdrawal ---------------------------------------------------------------------------


@pytest.mark.parametrize("rule", ["forfeit", "bye"])
def test_a_withdrawn_teams_later_fixtures_are_forfeits_or_byes_as_the_stage_says(
    club: Club, rule: str
) -> None:
    stage = club.start(club.stage(format="round_robin", withdrawal=rule, start_matches=False))
    round_ = club.publish(club.pair(stage))
    gone = club.teams[0]
    fixture = Fixture.objects.get(Q_team(gone), round=round_)
    services.team_withdraw(actor=club.organizer, team=gone)
    fixture.refresh_from_db()
    if rule == "forfeit":
        assert fixture.result in ("forfeit_a", "forfeit_b") and gone in (
            fixture.team_a,
            fixture.team_b,
        )
        assert fixture.loser() == gone
    else:
        assert fixture.result == "bye" and fixture.team_b is None and fixture.team_a != gone
    later = club.pair(stage)
    assert gone.pk in draft_teams(later)  # the schedule still names it...
    club.publish(later)
    assert not Fixture.objects.filter(Q_team(gone), round=later, result="").exists()  # ...decided


def Q_team(team: Any) -> Any:
    from django.db.models import Q

    return Q(team_a=team) | Q(team_b=team)
