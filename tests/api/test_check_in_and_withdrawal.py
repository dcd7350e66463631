"""Check-in, start and withdrawal over the API (issue 38): a start says which registered teams it
left out, or is refused when told of the ones to leave out and another is missing; a late
check-in answers where the team plays, or 409 late_entry_refused; a withdrawal is undone
(POST /teams/{id}/reinstate/) until its forfeit counts."""

from __future__ import annotations

import random
from typing import Any

import pytest

from competition import demo
from competition import services as competition
from competition.models import Registration, Stage
from tests.scoring.helpers import committed
from tournaments.models import Player, Team

from .conftest import League
from .test_stage_settings import problem

pytestmark = pytest.mark.django_db


def late_team(league: League, name: str = "Latecomers") -> Team:
    """A team of cup A registered and not checked in."""
    players = [Player.objects.create(name=f"{name} {n}") for n in (1, 2)]
    return competition.team_register(
        actor=league.users["organizer_a"], tournament=league.a, name=name,
        first_player=players[0], second_player=players[1],
    )  # fmt: skip


def new_stage(league: League, **settings: Any) -> Stage:
    settings.setdefault("name", "Swiss")
    settings.setdefault("format", "swiss")
    settings.setdefault("rounds", 2)
    return competition.stage_create(
        actor=league.users["organizer_a"], tournament=league.a, mode="score",
        match_format={"bazzis": 1}, **settings,
    )  # fmt: skip


def test_a_start_answers_the_teams_it_left_out_not_checked_in(league: League) -> None:
    late = late_team(league)
    stage = new_stage(league)
    answer = league.client("organizer_a").post(f"/api/v1/stages/{stage.pk}/start/")
    assert answer.status_code == 200, answer.content[:500]
    body = answer.json()
    assert body["status"] == "running" and body["id"] == stage.pk
    assert body["not_checked_in"] == [{"id": late.pk, "name": "Latecomers"}]


def test_a_start_told_whom_it_starts_without_is_refused_while_another_is_left_out(
    league: League,
) -> None:
    late, later = late_team(league), late_team(league, "Stragglers")
    stage = new_stage(league)
    client = league.client("organizer_a")
    url = f"/api/v1/stages/{stage.pk}/start/"
    refused = problem(client.post(url, {"not_checked_in": [late.pk]}, format="json"), 409,
                      "not_checked_in")  # fmt: skip
    assert refused["detail"] == (
        "1 team registered is not checked in: Stragglers: check it in, or start without it"
    )
    stage.refresh_from_db()
    assert stage.status == "pending" and not stage.entries.exists()
    started = client.post(url, {"not_checked_in": [late.pk, later.pk]}, format="json")
    assert started.status_code == 200, started.content[:500]
    assert [t["name"] for t in started.json()["not_checked_in"]] == ["Latecomers", "Stragglers"]


@pytest.mark.parametrize(
    "body",
    [
        {"not_checked_in": "all"},
        {"not_checked_in": ["x"]},
        {"not_checked_in": [0]},
        {"not_checked_in": [2**63]},
        {"not_checked_in": list(range(1, 1026))},
        {"not_checked_in": None},
        {"not_checked_in": [{"id": 1}]},
        {"leave_out": [1]},
        ["not", "an", "object"],
    ],
)
def test_a_start_with_a_bad_body_is_a_400_and_starts_nothing(league: League, body: Any) -> None:
    late_team(league)
    stage = new_stage(league)
    answer = league.client("organizer_a").post(
        f"/api/v1/stages/{stage.pk}/start/", body, format="json"
    )
    assert answer.status_code == 400, answer.content[:500]
    assert answer["Content-Type"] == "application/problem+json"
    stage.refresh_from_db()
    assert stage.status == "pending"


def test_a_late_check_in_answers_the_round_the_team_joins(league: League) -> None:
    late = late_team(league)
    stage = new_stage(league, late_entry=True)
    client = league.client("organizer_a")
    client.post(f"/api/v1/stages/{stage.pk}/start/")
    answer = client.post(f"/api/v1/teams/{late.pk}/check-in/")
    assert answer.status_code == 200, answer.content[:500]
    body = answer.json()
    assert body["checked_in_at"] is not None and body["name"] == "Latecomers"
    assert body["plays_in"] == [{"stage": stage.pk, "name": "Swiss", "from_round": 1}]


def test_a_late_check_in_a_stage_cannot_take_is_a_409_that_changes_nothing(
    league: League,
) -> None:
    late = late_team(league)
    stage = new_stage(league)
    client = league.client("organizer_a")
    client.post(f"/api/v1/stages/{stage.pk}/start/")
    refused = problem(client.post(f"/api/v1/teams/{late.pk}/check-in/"), 409,
                      "late_entry_refused")  # fmt: skip
    assert refused["detail"] == (
        "Swiss has started: it takes no late entries (its late-entry setting, fixed at the "
        "start, is off); Latecomers cannot join it"
    )
    assert Registration.objects.get(team=late).checked_in_at is None
    # registering a team checked in at once is refused the same way, and registers nothing
    made = client.post(
        f"/api/v1/tournaments/{league.a.pk}/teams/",
        {"name": "Newcomers", "players": [{"name": "N1"}, {"name": "N2"}], "checked_in": True},
        format="json",
    )
    problem(made, 409, "late_entry_refused")
    assert not Team.objects.filter(name="Newcomers").exists()


def test_a_withdrawal_is_undone_over_the_api_until_its_forfeit_counts(league: League) -> None:
    organizer = league.users["organizer_a"]
    stage = new_stage(league, name="League", format="round_robin", rounds=None,
                      start_matches=False)  # fmt: skip
    client = league.client("organizer_a")
    client.post(f"/api/v1/stages/{stage.pk}/start/")
    draft = competition.round_pair(actor=organizer, stage=stage)
    gone = league.teams_a[0]
    client.post(f"/api/v1/teams/{gone.pk}/withdraw/")
    answer = client.post(f"/api/v1/teams/{gone.pk}/reinstate/")
    assert answer.status_code == 200, answer.content[:500]
    assert answer.json()["withdrawn_at"] is None
    again = client.post(f"/api/v1/teams/{gone.pk}/reinstate/")  # not withdrawn: nothing to do
    assert again.status_code == 200
    # withdrawn again; its round published and the other table played out: it is complete
    client.post(f"/api/v1/teams/{gone.pk}/withdraw/")
    client.post(f"/api/v1/rounds/{draft.pk}/publish/")
    other = draft.fixtures.exclude(team_a=gone).exclude(team_b=gone).get()
    assert other.match is not None
    with committed():
        demo.play(other.match, random.Random(3))
    draft.refresh_from_db()
    assert draft.status == "complete"
    refused = problem(client.post(f"/api/v1/teams/{gone.pk}/reinstate/"), 409, "forfeit_counted")
    assert refused["detail"].startswith(f"{gone.name}'s withdrawal can no longer be undone")
    assert Registration.objects.get(team=gone).withdrawn_at is not None


def test_only_a_director_starts_or_undoes_a_withdrawal_over_the_api(league: League) -> None:
    stage = new_stage(league)
    gone = league.teams_a[1]
    competition.team_withdraw(actor=league.users["organizer_a"], team=gone)
    for who in (None, "outsider", "keeper_a"):
        client = league.client(who)
        assert client.post(f"/api/v1/stages/{stage.pk}/start/").status_code in (401, 403, 404)
        assert client.post(f"/api/v1/teams/{gone.pk}/reinstate/").status_code in (401, 403, 404)
    read = league.client(token="a_read")
    assert read.post(f"/api/v1/teams/{gone.pk}/reinstate/").status_code == 403
    other = league.client("organizer_b")  # cup A is published: seen, not directed
    assert other.post(f"/api/v1/teams/{gone.pk}/reinstate/").status_code == 403
    hidden = league.teams_b[1]  # cup B is private: not even seen
    competition.team_withdraw(actor=league.users["organizer_b"], team=hidden)
    assert (
        league.client("organizer_a").post(f"/api/v1/teams/{hidden.pk}/reinstate/").status_code
        == 404
    )
    assert Registration.objects.get(team=hidden).withdrawn_at is not None
    stage.refresh_from_db()
    assert stage.status == "pending"
    assert Registration.objects.get(team=gone).withdrawn_at is not None
    assert league.client("organizer_a").post("/api/v1/teams/0/reinstate/").status_code == 404


def test_a_start_with_too_few_teams_checked_in_says_they_must_check_in(league: League) -> None:
    Registration.objects.filter(team__tournament=league.a).update(checked_in_at=None)
    stage = new_stage(league)
    answer = league.client("organizer_a").post(f"/api/v1/stages/{stage.pk}/start/")
    assert answer.status_code == 409
    body = answer.json()
    assert body["code"] == "too_few_teams"
    assert "0 are in" in body["detail"] and "checked in" in body["detail"]
