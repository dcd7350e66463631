"""Registering a team over the API: its players are the club's members (docs/clubs.md)."""

from __future__ import annotations

from typing import Any

import pytest

from competition.services import evenings
from tournaments import clubs
from tournaments.models import Player, Team, Tournament

from .conftest import League
from .test_stage_settings import problem

pytestmark = pytest.mark.django_db


def test_a_person_with_an_account_is_one_member_and_plays_in_one_team_of_a_tournament(
    league: League, django_user_model: Any
) -> None:
    """A team's player given with an account is the club's member with that account: the
    same account in a second team of the tournament is refused, and nothing is written."""
    organizer = league.users["organizer_a"]
    evening = evenings.tournament_create(actor=organizer, club=None, name="Friday")
    asha = django_user_model.objects.create_user("asha-api")
    # an account is named only once it is one of the club's people (here, a member's)
    clubs.member_add(actor=organizer, club=evening.club, name="Asha", user=asha)
    client = league.client("organizer_a")
    url = f"/api/v1/tournaments/{evening.pk}/teams/"
    first = client.post(
        url, {"name": "Aces", "players": [{"name": "Asha", "user": asha.pk}, {"name": "Bilal"}]},
        format="json",
    )  # fmt: skip
    assert first.status_code == 201, first.content[:500]
    before = (Team.objects.count(), Player.objects.count())
    second = client.post(
        url, {"name": "Kings", "players": [{"name": "Asha", "user": asha.pk}, {"name": "Dev"}]},
        format="json",
    )  # fmt: skip
    answer = problem(second, 422, "bad_team")
    assert "already plays for Aces" in answer["detail"]
    assert (Team.objects.count(), Player.objects.count()) == before
    assert Player.objects.filter(user=asha).count() == 1


def test_a_tournament_cannot_take_the_address_of_a_desk_page(league: League) -> None:
    response = league.client("organizer_a").post(
        "/api/v1/tournaments/", {"name": "Newish", "slug": "new"}, format="json"
    )
    answer = problem(response, 400, "invalid")
    assert "desk" in answer["errors"]["slug"][0]
    assert not Tournament.objects.filter(slug="new").exists()


def test_a_player_named_with_a_control_character_is_refused(league: League) -> None:
    before = (Team.objects.count(), Player.objects.count())
    response = league.client("organizer_a").post(
        f"/api/v1/tournaments/{league.a.pk}/teams/",
        {"name": "Bell", "players": [{"name": "A\u0007b"}, {"name": "Bob"}]},
        format="json",
    )
    assert response.status_code in (400, 422), response.content[:300]
    assert (Team.objects.count(), Player.objects.count()) == before
