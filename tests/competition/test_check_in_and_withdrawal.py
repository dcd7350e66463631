"""Check-in and withdrawal once a stage has started (issue 38): a start says which registered
teams are not checked in; a team checked in late plays (a Swiss that takes late entries, a
stage to come) or is refused in words, never "checked in" and left out; a withdrawal is
undone while its forfeits do not count yet."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from competition import demo, services
from competition.errors import NotNow, NotPermitted
from competition.models import Fixture, Registration, Round, Stage, StageEntry
from competition.standings import standings_rows_now
from tests.scoring.helpers import committed
from tournaments.models import Match, Player, Team

from .helpers import Club, make_club

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> Club:
    return make_club(6)


def registered(club: Club, name: str = "Late", *, checked_in: bool = False) -> Team:
    players = [Player.objects.create(name=f"{name} {n}") for n in (1, 2)]
    return services.team_register(
        actor=club.organizer, tournament=club.tournament, name=name, first_player=players[0],
        second_player=players[1], checked_in=checked_in,
    )  # fmt: skip


def draft_teams(round_: Round) -> list[int]:
    return [t for pair in round_.fixtures.values_list("team_a", "team_b") for t in pair if t]


def of(team: Team) -> Q:
    return Q(team_a=team) | Q(team_b=team)


# --- a start names the teams not checked in ------------------------------------------------


def test_a_start_is_refused_while_a_registered_team_it_was_not_told_of_is_not_checked_in(
    club: Club,
) -> None:
    alpha, bravo = registered(club, "Alpha"), registered(club, "Bravo")
    gone = registered(club, "Gone")
    services.team_withdraw(actor=club.organizer, team=gone)  # withdrawn: not left out, gone
    stage = club.stage(format="round_robin")
    with pytest.raises(NotNow) as refused:
        services.stage_start(actor=club.organizer, stage=stage, not_checked_in=[alpha.pk])
    assert refused.value.code == "not_checked_in"
    assert refused.value.message == (
        "1 team registered is not checked in: Bravo: check it in, or start without it"
    )
    with pytest.raises(NotNow) as refused:
        services.stage_start(actor=club.organizer, stage=stage, not_checked_in=[])
    assert "2 teams registered are not checked in: Alpha, Bravo" in refused.value.message
    stage.refresh_from_db()
    assert stage.status == Stage.Status.PENDING and not stage.entries.exists()
    assert services.teams_not_checked_in(stage) == [alpha, bravo]
    with committed():
        services.stage_start(actor=club.organizer, stage=stage, not_checked_in=[alpha.pk, bravo.pk])
    stage.refresh_from_db()
    assert stage.status == Stage.Status.RUNNING
    assert sorted(stage.entries.values_list("team_id", flat=True)) == [t.pk for t in club.teams]
    assert services.teams_not_checked_in(stage) == [alpha, bravo]  # who was left out


def test_a_start_told_of_no_one_goes_ahead_when_every_team_is_checked_in(club: Club) -> None:
    stage = club.stage(format="round_robin")
    with committed():
        services.stage_start(actor=club.organizer, stage=stage, not_checked_in=[])
    stage.refresh_from_db()
    assert stage.status == Stage.Status.RUNNING and services.teams_not_checked_in(stage) == []


def test_a_stage_of_the_top_teams_before_it_is_not_held_up_by_check_ins(club: Club) -> None:
    registered(club)
    # (the random draw last: no tie at the cut, which would wait for a director)
    first = club.start(
        club.stage(format="swiss", rounds=1, tiebreaks=["points_difference", "random"],
                   tiebreak_seed=5)
    )  # fmt: skip
    club.play_stage(first, random.Random(3))
    knockout = club.stage(format="single_elimination", entry="top", entry_count=4)
    assert services.teams_not_checked_in(knockout) == []
    with committed():
        services.stage_start(actor=club.organizer, stage=knockout, not_checked_in=[])
    knockout.refresh_from_db()
    assert knockout.status == Stage.Status.RUNNING


# --- a late check-in -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "why"),
    [
        ({"format": "single_elimination"}, "Knockout has started: its draw is fixed"),
        ({"format": "double_elimination"}, "Knockout has started: its draw is fixed"),
        ({"format": "round_robin"}, "Knockout has started: its schedule is fixed"),
        ({"format": "groups", "groups": 2}, "Knockout has started: its schedule is fixed"),
        ({"format": "swiss", "rounds": 3}, "Knockout has started: it takes no late entries"),
    ],
)
def test_a_team_checked_in_after_a_stage_that_cannot_take_it_started_is_refused_in_words(
    club: Club, settings: dict[str, Any], why: str
) -> None:
    late = registered(club)
    club.start(club.stage(name="Knockout", **settings))
    with pytest.raises(NotNow) as refused:
        services.team_check_in(actor=club.organizer, team=late)
    assert refused.value.code == "late_entry_refused"
    assert refused.value.message.startswith(why) and "Late cannot join it" in refused.value.message
    assert Registration.objects.get(team=late).checked_in_at is None
    assert not StageEntry.objects.filter(team=late).exists()
    # registering a team checked in at once is refused the same way, and registers nothing
    with pytest.raises(NotNow) as refused:
        registered(club, "Later", checked_in=True)
    assert refused.value.code == "late_entry_refused"
    assert refused.value.message.endswith(
        "Later cannot join it (registered without checking in, it is kept on the list)"
    )
    assert not Team.objects.filter(name="Later").exists()


def test_a_late_check_in_joins_a_swiss_that_takes_late_entries_at_its_next_round(
    club: Club,
) -> None:
    late = registered(club)
    stage = club.start(club.stage(format="swiss", rounds=3, late_entry=True))
    club.play(club.publish(club.pair(stage)), random.Random(6))
    services.team_check_in(actor=club.organizer, team=late)
    assert services.team_plays_in(late) == [(stage, 2)]
    assert services.late_entry_words(late) == (
        "Late joins stage 1 at round 2, with 0 points (the rounds before are not its)"
    )
    second = club.pair(stage)
    assert late.pk in draft_teams(second) and len(draft_teams(second)) == 7
    # the round it missed is simply not its: no points, nothing played, no loss
    (row,) = [r for r in standings_rows_now(stage, 1) if r.team_id == late.pk]
    assert (row.points, row.played, row.lost, row.byes) == (0, 0, 0, 0)


def test_a_late_check_in_while_the_next_round_is_a_draft_plays_in_it_once_paired_again(
    club: Club,
) -> None:
    late = registered(club)
    stage = club.start(club.stage(format="swiss", rounds=3, late_entry=True))
    club.play(club.publish(club.pair(stage)), random.Random(6))
    draft = club.pair(stage)
    services.team_check_in(actor=club.organizer, team=late)
    assert services.team_plays_in(late) == [(stage, 2)]
    assert "round 2 is a draft paired without it: discard it and pair it again" in (
        services.late_entry_words(late)
    )
    assert late.pk not in draft_teams(draft)
    again = services.round_discard(actor=club.organizer, round=draft, pair_again=True)
    assert again is not None and late.pk in draft_teams(again)


def test_a_late_check_in_when_every_round_of_the_swiss_is_published_is_refused(
    club: Club,
) -> None:
    late = registered(club)
    stage = club.start(club.stage(format="swiss", rounds=2, late_entry=True))
    club.play(club.publish(club.pair(stage)), random.Random(6))
    club.publish(club.pair(stage))
    with pytest.raises(NotNow) as refused:
        services.team_check_in(actor=club.organizer, team=late)
    assert refused.value.code == "late_entry_refused"
    assert "all 2 of its rounds are published" in refused.value.message
    assert Registration.objects.get(team=late).checked_in_at is None


def test_a_check_in_after_a_stage_started_waits_for_a_stage_to_come_that_takes_the_registered(
    club: Club,
) -> None:
    late = registered(club)
    first = club.start(club.stage(format="swiss", rounds=2))
    second = club.stage(name="Second evening", format="round_robin")
    services.team_check_in(actor=club.organizer, team=late)
    assert services.team_plays_in(late) == [(second, None)]
    assert services.late_entry_words(late) == "Late plays in Second evening when it starts"
    assert not first.entries.filter(team=late).exists()


def test_only_a_director_checks_in_starts_or_undoes_a_withdrawal(club: Club) -> None:
    stranger = get_user_model().objects.create_user("stranger")
    late = registered(club)
    stage = club.stage(format="round_robin")
    with pytest.raises(NotPermitted):
        services.stage_start(actor=stranger, stage=stage, not_checked_in=[late.pk])
    with pytest.raises(NotPermitted):
        services.team_check_in(actor=stranger, team=late)
    services.team_withdraw(actor=club.organizer, team=late)
    with pytest.raises(NotPermitted):
        services.team_reinstate(actor=stranger, team=late)
    assert Registration.objects.get(team=late).withdrawn_at is not None
    stage.refresh_from_db()
    assert stage.status == Stage.Status.PENDING


# --- undoing a withdrawal ------------------------------------------------------------------


@pytest.mark.parametrize("rule", ["forfeit", "bye"])
def test_a_withdrawal_is_undone_in_its_round_its_fixture_and_match_given_back(
    club: Club, rule: str
) -> None:
    stage = club.start(club.stage(format="round_robin", withdrawal=rule, start_matches=False))
    round_ = club.publish(club.pair(stage))
    gone = club.teams[0]
    fixture = Fixture.objects.get(of(gone), round=round_)
    before = (fixture.team_a_id, fixture.team_b_id, fixture.match_id)
    services.team_withdraw(actor=club.organizer, team=gone)
    fixture.refresh_from_db()
    assert fixture.result != "" and fixture.match_id is None
    with committed():
        services.team_reinstate(actor=club.organizer, team=gone)
    fixture.refresh_from_db()
    assert Registration.objects.get(team=gone).withdrawn_at is None
    assert (fixture.team_a_id, fixture.team_b_id, fixture.match_id) == before
    assert fixture.result == "" and fixture.withdrawal == {}
    round_.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED
    club.play(round_, random.Random(2))
    later = club.publish(club.pair(stage))
    assert Fixture.objects.get(of(gone), round=later).match is not None  # played, not forfeited


def test_a_withdrawal_forfeiting_a_draft_is_undone_and_the_draft_keeps_the_team(
    club: Club,
) -> None:
    stage = club.start(club.stage(format="round_robin", start_matches=False))
    draft = club.pair(stage)
    gone = club.teams[2]
    services.team_withdraw(actor=club.organizer, team=gone)
    services.team_reinstate(actor=club.organizer, team=gone)
    fixture = Fixture.objects.get(of(gone), round=draft)
    assert fixture.result == "" and fixture.match_id is None
    club.publish(draft)
    fixture.refresh_from_db()
    assert fixture.result == "" and fixture.match is not None


def test_a_withdrawal_between_swiss_rounds_is_undone_and_the_team_paired_again(
    club: Club,
) -> None:
    stage = club.start(club.stage(format="swiss", rounds=3))
    club.play(club.publish(club.pair(stage)), random.Random(4))
    gone = club.teams[3]
    services.team_withdraw(actor=club.organizer, team=gone)
    services.team_reinstate(actor=club.organizer, team=gone)
    assert gone.pk in draft_teams(club.pair(stage))


def test_a_withdrawal_whose_forfeit_counts_cannot_be_undone(club: Club) -> None:
    stage = club.start(club.stage(format="round_robin", start_matches=False))
    draft = club.pair(stage)
    gone = club.teams[0]
    services.team_withdraw(actor=club.organizer, team=gone)
    round_ = club.publish(draft)
    club.play(round_, random.Random(5))
    round_.refresh_from_db()
    assert round_.status == Round.Status.COMPLETE
    with pytest.raises(NotNow) as refused:
        services.team_reinstate(actor=club.organizer, team=gone)
    assert refused.value.code == "forfeit_counted"
    assert refused.value.message == (
        "Team 01's withdrawal can no longer be undone: it forfeited round 1 of stage 1, and "
        "that round is complete"
    )
    assert Registration.objects.get(team=gone).withdrawn_at is not None
    assert Fixture.objects.get(of(gone), round=round_).result in ("forfeit_a", "forfeit_b")


def test_a_withdrawal_in_a_knockout_is_undone_until_its_opponent_plays_on() -> None:
    club = make_club(8, slug="ko")
    stage = club.start(club.stage(format="single_elimination", start_matches=False))
    first = stage.round_set.order_by("number").first()
    assert first is not None
    club.publish(first)
    gone = club.teams[0]
    quarter = Fixture.objects.get(of(gone), stage=stage)
    opponent = quarter.team_b if quarter.team_a == gone else quarter.team_a
    assert opponent is not None
    match = quarter.match_id
    key = quarter.winner_to.partition(":")[0]
    semi = Fixture.objects.get(stage=stage, key=key)
    services.team_withdraw(actor=club.organizer, team=gone)
    semi.refresh_from_db()
    assert opponent.pk in (semi.team_a_id, semi.team_b_id)
    services.team_reinstate(actor=club.organizer, team=gone)
    quarter.refresh_from_db()
    semi.refresh_from_db()
    assert (quarter.result, quarter.match_id) == ("", match)
    assert opponent.pk not in (semi.team_a_id, semi.team_b_id)
    # withdrawn again; the other quarter-final that feeds the semi-final is played: the
    # semi-final's match is made, not begun, and the withdrawal is still undone
    services.team_withdraw(actor=club.organizer, team=gone)
    sibling = (
        Fixture.objects.filter(stage=stage, round=quarter.round, winner_to__startswith=f"{key}:")
        .exclude(pk=quarter.pk)
        .get()
    )
    assert sibling.match is not None
    with committed():
        demo.play(sibling.match, random.Random(8))
    semi.refresh_from_db()
    assert semi.match is not None and semi.match.last_seq == 0
    services.team_reinstate(actor=club.organizer, team=gone)
    semi.refresh_from_db()
    assert opponent.pk not in (semi.team_a_id, semi.team_b_id) and semi.match_id is None
    # withdrawn once more, and its opponent begins the semi-final: the forfeit counts now
    services.team_withdraw(actor=club.organizer, team=gone)
    semi.refresh_from_db()
    assert semi.match is not None
    with committed():
        demo.play(semi.match, random.Random(9), moves=1)
    with pytest.raises(NotNow) as refused:
        services.team_reinstate(actor=club.organizer, team=gone)
    assert refused.value.code == "forfeit_counted"
    assert f"{opponent} has played on in semi-finals since" in refused.value.message
    assert Registration.objects.get(team=gone).withdrawn_at is not None
    assert Match.objects.get(pk=semi.match_id).last_seq > 0


# --- whatever the field ----------------------------------------------------------------------

_runs = itertools.count()


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), n=st.integers(min_value=3, max_value=8))
def test_a_start_leaves_out_exactly_the_teams_not_checked_in_and_only_when_told(
    data: st.DataObject, n: int
) -> None:
    club = make_club(n, slug=f"start-{next(_runs)}")
    absent = data.draw(st.sets(st.sampled_from(club.teams), max_size=n - 2), label="absent")
    gone = data.draw(st.sets(st.sampled_from(club.teams)), label="withdrawn")
    Registration.objects.filter(team__in=absent).update(checked_in_at=None)
    Registration.objects.filter(team__in=gone).update(withdrawn_at=timezone.now())
    told = data.draw(st.sets(st.sampled_from(club.teams)), label="told")
    left_out = {t.pk for t in absent - gone}
    playing = {t.pk for t in club.teams} - {t.pk for t in absent | gone}
    stage = club.stage(format="round_robin")
    assert {t.pk for t in services.teams_not_checked_in(stage)} == left_out
    try:
        with committed():
            services.stage_start(
                actor=club.organizer, stage=stage, not_checked_in=[t.pk for t in told]
            )
    except NotNow as refused:
        assert refused.code in ("not_checked_in", "too_few_teams")
        assert refused.code != "not_checked_in" or not left_out <= {t.pk for t in told}
        stage.refresh_from_db()
        assert stage.status == Stage.Status.PENDING and not stage.entries.exists()
        return
    assert left_out <= {t.pk for t in told}
    assert set(stage.entries.values_list("team_id", flat=True)) == playing


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    n=st.integers(min_value=3, max_value=7),
    rule=st.sampled_from(["forfeit", "bye"]),
    published=st.booleans(),
    which=st.integers(min_value=0, max_value=6),
)
def test_a_withdrawal_undone_leaves_every_fixture_as_it_was(
    n: int, rule: str, published: bool, which: int
) -> None:
    club = make_club(n, slug=f"undo-{next(_runs)}")
    stage = club.start(club.stage(format="round_robin", withdrawal=rule, start_matches=False))
    round_ = club.pair(stage)
    if published:
        round_ = club.publish(round_)

    def layout() -> list[tuple[Any, ...]]:
        return list(
            Fixture.objects.filter(stage=stage)
            .order_by("pk")
            .values_list("team_a", "team_b", "result", "match", "withdrawal")
        )

    before = layout()
    gone = club.teams[which % n]
    services.team_withdraw(actor=club.organizer, team=gone)
    if any(f.result in ("forfeit_a", "forfeit_b") for f in Fixture.objects.filter(stage=stage)):
        assert layout() != before
    round_.refresh_from_db()
    if round_.status == Round.Status.COMPLETE:  # its forfeit and the bye decided it
        with pytest.raises(NotNow):
            services.team_reinstate(actor=club.organizer, team=gone)
        return
    services.team_reinstate(actor=club.organizer, team=gone)
    assert layout() == before
    assert Registration.objects.get(team=gone).withdrawn_at is None
