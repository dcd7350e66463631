"""Staff set tournaments up in the admin; a match's history and fixed setup stay as they are."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission

import seep_core
from tournaments.models import Match, MatchEvent
from tournaments.services import match_append_event

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
            "confirmation": "none",
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
            "confirmation": "none",
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
        {"team0": world.teams[3].pk, "mode": "score", "confirmation": "none", "scorekeepers": []},
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.team0, match.mode) == (world.teams[0], "digital")
    assert not match.scorekeepers.exists()  # who keeps score may still change


def deal_started_event(world: Any) -> MatchEvent:
    """Start the digital match through the append service; return its deal_started event."""
    match_append_event(
        match=world.digital_match,
        expected_seq=0,
        kind="match_started",
        payload={"first_dealer": 3},
        actor=world.organizer,
    )
    return world.digital_match.events.get(kind=MatchEvent.Kind.DEAL_STARTED)


def test_a_director_sees_the_deck_of_the_deal_in_play(staff_client: Any, world: Any) -> None:
    event = deal_started_event(world)
    response = staff_client.get(f"/admin/tournaments/matchevent/{event.pk}/change/")
    assert response.status_code == 200
    assert b"&quot;deck&quot;: [" in response.content
    assert b'name="_save"' not in response.content  # shown, not editable


def test_staff_who_do_not_direct_the_tournament_see_none_of_its_events(
    client: Any, django_user_model: Any, world: Any
) -> None:
    clerk = django_user_model.objects.create_user("clerk", is_staff=True)
    clerk.user_permissions.add(Permission.objects.get(codename="view_matchevent"))
    client.force_login(clerk)
    event = deal_started_event(world)
    detail = client.get(f"/admin/tournaments/matchevent/{event.pk}/change/")
    assert detail.status_code == 403  # a permission grants nothing: they direct nothing
    listing = client.get("/admin/tournaments/matchevent/")
    assert listing.status_code == 403
    for card in event.payload["deck"]:
        assert f"&quot;{card}&quot;".encode() not in detail.content + listing.content
