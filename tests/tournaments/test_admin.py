"""Staff set tournaments up in the admin; a match's history and fixed setup stay as they are."""

from __future__ import annotations

import importlib.util
from typing import Any

import pytest

import seep_core
from tournaments.models import Match, MatchEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client: Any, django_user_model: Any) -> Any:
    client.force_login(django_user_model.objects.create_superuser("director"))
    return client


def test_staff_add_a_match_which_takes_the_tournaments_rules(staff_client: Any, world: Any) -> None:
    world.tournament.rules = seep_core.Rules(minimum=0).to_dict()
    world.tournament.save()
    response = staff_client.post(
        "/admin/tournaments/match/add/",
        {
            "tournament": world.tournament.pk,
            "team0": world.teams[1].pk,
            "team1": world.teams[2].pk,
            "mode": "table",
            "match_format": "",
            "first_dealer": "",
            "scorekeepers": [world.scorekeeper.pk],
        },
    )
    assert response.status_code == 302, response.content.decode()
    match = Match.objects.get(team0=world.teams[1], team1=world.teams[2])
    assert match.rules == seep_core.Rules(minimum=0).to_dict()
    assert match.match_format == world.tournament.match_format
    assert list(match.scorekeepers.all()) == [world.scorekeeper]


def test_the_admin_refuses_a_match_of_a_team_against_itself(staff_client: Any, world: Any) -> None:
    response = staff_client.post(
        "/admin/tournaments/match/add/",
        {
            "tournament": world.tournament.pk,
            "team0": world.teams[1].pk,
            "team1": world.teams[1].pk,
            "mode": "table",
        },
    )
    assert response.status_code == 200
    assert b"A match is between two different teams." in response.content
    assert Match.objects.count() == 2


def test_a_started_matchs_teams_and_mode_cannot_be_changed(staff_client: Any, world: Any) -> None:
    match = world.digital_match
    Match.objects.filter(pk=match.pk).update(status=Match.Status.IN_PROGRESS)
    response = staff_client.post(
        f"/admin/tournaments/match/{match.pk}/change/",
        {"team0": world.teams[3].pk, "mode": "score", "scorekeepers": []},
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.team0, match.mode) == (world.teams[0], "digital")
    assert not match.scorekeepers.exists()  # who keeps score may still change


@pytest.mark.skipif(
    importlib.util.find_spec("tournaments.selectors") is None,
    reason="render_event lands with the append service",
)
def test_the_event_page_shows_the_payload_as_render_event_shows_it(
    staff_client: Any, world: Any
) -> None:
    from tournaments.selectors import render_event

    event = MatchEvent.objects.create(
        match=world.digital_match,
        seq=1,
        kind=MatchEvent.Kind.MATCH_STARTED,
        payload={"first_dealer": 2, "mode": "digital"},
        hash="a" * 64,
    )
    response = staff_client.get(f"/admin/tournaments/matchevent/{event.pk}/change/")
    assert response.status_code == 200
    shown = render_event(event, response.wsgi_request.user)
    assert shown is not None
    assert b"first_dealer" in response.content
    assert b"Save" not in response.content
