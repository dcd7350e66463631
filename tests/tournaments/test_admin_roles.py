"""Staff see and change in the admin only what their role in a tournament allows.

A model permission grants nothing by itself: the tournaments one directs (as organizer, as a
director the organizer added, or as a superuser) are the scope. Who sits at each seat is fixed
in the log when a match starts, and a team's line-up cannot change under a running match.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.core.exceptions import ValidationError
from django.test import Client

import seep_core as sc
from tests.matches import deal_in_play
from tournaments.errors import NotPermitted
from tournaments.models import Match, Player, Team, Tournament
from tournaments.services import match_append_event

pytestmark = pytest.mark.django_db


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def rogue(django_user_model: Any) -> Any:
    """Staff holding every model permission, directing a tournament of their own only."""
    user = django_user_model.objects.create_user("rogue", is_staff=True)
    user.user_permissions.add(*Permission.objects.all())
    Tournament.objects.create(name="Rogue open", slug="rogue-open", organizer=user)
    return user


@pytest.fixture
def director(world: Any, django_user_model: Any) -> Any:
    """A director the organizer added: no model permission at all."""
    user = django_user_model.objects.create_user("assistant", is_staff=True)
    world.tournament.directors.add(user)
    return user


def start(match: Match, actor: Any) -> None:
    match_append_event(match=match, expected_seq=0, kind="match_started",
                       payload={"first_dealer": 3}, actor=actor)  # fmt: skip


def test_staff_with_change_tournament_cannot_make_themselves_organizer(
    world: Any, rogue: Any
) -> None:
    client = logged_in(rogue)
    url = f"/admin/tournaments/tournament/{world.tournament.pk}/change/"
    assert client.get(url).status_code == 302  # not a tournament they may see
    response = client.post(url, {"name": "Mine", "slug": "mine", "organizer": rogue.pk})
    assert response.status_code == 302
    world.tournament.refresh_from_db()
    assert (world.tournament.organizer, world.tournament.name) == (
        world.organizer,
        "Club Championship",
    )
    assert list(client.get("/admin/tournaments/tournament/").context["cl"].result_list) == [
        Tournament.objects.get(slug="rogue-open")
    ]


def test_an_added_director_cannot_change_the_organizer_or_the_directors(
    world: Any, director: Any, django_user_model: Any
) -> None:
    client = logged_in(director)
    url = f"/admin/tournaments/tournament/{world.tournament.pk}/change/"
    page = client.get(url)
    assert page.status_code == 200
    other = django_user_model.objects.create_user("friend")
    response = client.post(url, {"name": "Club Championship!", "slug": "club-championship",
                                 "organizer": director.pk, "directors": [director.pk, other.pk],
                                 "rules": "{}", "match_format": "{}"})  # fmt: skip
    assert response.status_code == 302  # saved: what they may change, changed
    world.tournament.refresh_from_db()
    assert world.tournament.name == "Club Championship!"
    assert world.tournament.organizer == world.organizer
    assert list(world.tournament.directors.all()) == [director]


def test_a_new_tournament_is_organized_by_the_staff_member_who_creates_it(
    rogue: Any, django_user_model: Any
) -> None:
    someone = django_user_model.objects.create_user("someone")
    response = logged_in(rogue).post(
        "/admin/tournaments/tournament/add/",
        {"name": "Spring cup", "slug": "spring-cup", "organizer": someone.pk,
         "rules": "{}", "match_format": "{}"},
    )  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Tournament.objects.get(slug="spring-cup").organizer == rogue


def test_staff_with_change_match_cannot_appoint_themselves_score_keeper(
    world: Any, rogue: Any
) -> None:
    client = logged_in(rogue)
    url = f"/admin/tournaments/match/{world.score_match.pk}/change/"
    assert client.get(url).status_code == 302
    client.post(url, {"scorekeepers": [rogue.pk], "mode": "score"})
    assert rogue not in world.score_match.scorekeepers.all()
    start(world.score_match, world.organizer)
    with pytest.raises(NotPermitted):
        match_append_event(
            match=world.score_match, expected_seq=1, kind="deal_ended",
            payload={"points": [60, 40], "sweeps": [[], []]}, actor=rogue,
        )  # fmt: skip


def test_a_director_may_appoint_a_score_keeper(world: Any, director: Any) -> None:
    client = logged_in(director)
    match = world.score_match
    response = client.post(
        f"/admin/tournaments/match/{match.pk}/change/",
        {"team0": match.team0_id, "team1": match.team1_id, "mode": "score", "confirmation": "none",
         "match_format": '{"bazzis": 1}', "scorekeepers": [director.pk]},
    )  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:3000]
    assert director in match.scorekeepers.all()


def test_a_director_cannot_put_a_match_in_another_tournament(world: Any, rogue: Any) -> None:
    theirs = Tournament.objects.get(slug="rogue-open")
    response = logged_in(rogue).post(
        "/admin/tournaments/match/add/",
        {"tournament": world.tournament.pk, "team0": world.teams[0].pk,
         "team1": world.teams[1].pk, "mode": "score", "confirmation": "none"},
    )  # fmt: skip
    assert response.status_code == 200  # the form refuses the choice
    assert "Select a valid choice" in response.content.decode()
    assert not Match.objects.filter(tournament=theirs).exists()
    assert Match.objects.count() == 2


def test_staff_with_change_team_cannot_seat_their_player_in_a_running_match(
    world: Any, rogue: Any
) -> None:
    match = world.digital_match
    start(match, world.organizer)
    own = Player.objects.create(name="Rogue", user=rogue)
    team = match.team0
    response = logged_in(rogue).post(
        f"/admin/tournaments/team/{team.pk}/change/",
        {"name": team.name, "first_player": own.pk, "second_player": team.second_player_id},
    )
    assert response.status_code == 302  # not a team they may see
    team.refresh_from_db()
    assert team.first_player != own


def test_a_teams_line_up_cannot_change_under_a_running_match(world: Any) -> None:
    match = world.digital_match
    start(match, world.organizer)
    team = Team.objects.get(pk=match.team0_id)
    team.first_player = Player.objects.create(name="Substitute")
    with pytest.raises(ValidationError, match="playing a match"):
        team.full_clean()
    client = logged_in(world.organizer)
    world.organizer.is_staff = True
    world.organizer.save()
    response = client.post(f"/admin/tournaments/team/{team.pk}/change/",
                           {"name": "Renamed", "first_player": team.first_player.pk,
                            "second_player": team.second_player_id})  # fmt: skip
    assert response.status_code == 302  # the name may change; the players are read-only
    team.refresh_from_db()
    assert (team.name, team.first_player) == ("Renamed", world.players[0])


def test_who_sits_where_is_fixed_in_the_log_when_the_match_starts(
    world: Any, django_user_model: Any
) -> None:
    match = world.digital_match
    start(match, world.organizer)
    seat0 = world.players[0]
    intruder = django_user_model.objects.create_user("intruder")
    # Whatever happens to the rows afterwards (here: the account of seat 0's player changed
    # behind the admin's back), seat 0 is played by whom the log seated there.
    Player.objects.filter(pk=seat0.pk).update(user=intruder)
    bid = sc.legal_moves(deal_in_play(match))[0]
    assert bid["seat"] == 0
    with pytest.raises(NotPermitted):
        match_append_event(match=match, expected_seq=2, kind="move_played",
                           payload={"move": bid}, actor=intruder)  # fmt: skip
    result = match_append_event(match=match, expected_seq=2, kind="move_played",
                                payload={"move": bid}, actor=seat0.user)  # fmt: skip
    assert result.events[0]["seq"] == 3 and result.events[0]["actor"] == seat0.user.pk


def test_a_director_sees_only_their_tournaments_rows(world: Any, rogue: Any) -> None:
    client = logged_in(rogue)
    for page in ("match", "team", "matchevent", "matchsnapshot", "matchreceipt"):
        listing = client.get(f"/admin/tournaments/{page}/")
        assert listing.status_code == 200
        assert listing.context["cl"].result_count == 0, page
    for page in ("matchresult", "dealresult"):
        assert logged_in(rogue).get(f"/admin/scoring/{page}/").context["cl"].result_count == 0
