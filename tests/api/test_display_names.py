"""No answer about someone else names their user name (half of what signs in): an account is
shown by its display name, the full name its owner gave, else "Account <id>"."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.display_names import display_name

from .conftest import Clubs, League

pytestmark = pytest.mark.django_db


def test_a_public_tournament_names_its_organizer_without_the_user_name(league: League) -> None:
    """The finding: ``organizer.username`` told anyone which account to guess for."""
    organizer = league.users["organizer_a"]
    for who in (None, "outsider", "a00"):  # anonymous, any account, a player in it
        answer = league.client(who).get(f"/api/v1/tournaments/{league.a.pk}/")
        assert answer.status_code == 200
        assert answer.json()["organizer"] == {
            "id": organizer.pk,
            "display_name": f"Account {organizer.pk}",
        }
        assert "organizer_a" not in answer.content.decode()
        listed = league.client(who).get("/api/v1/tournaments/")
        assert "organizer_a" not in listed.content.decode()


def test_a_full_name_is_shown_when_its_owner_gave_one(league: League) -> None:
    organizer = league.users["organizer_a"]
    organizer.first_name, organizer.last_name = "Meera", "Iyer"
    organizer.save()
    answer = league.client().get(f"/api/v1/tournaments/{league.a.pk}/").json()
    assert answer["organizer"] == {"id": organizer.pk, "display_name": "Meera Iyer"}


def test_a_clubs_member_sees_its_directors_without_their_user_names(scene: Clubs) -> None:
    asha = scene.users["asha"]
    answer = scene.client("dev").get(f"/api/v1/clubs/{scene.one.pk}/")
    assert answer.status_code == 200
    assert answer.json()["directors"] == [{"id": asha.pk, "display_name": f"Account {asha.pk}"}]
    assert '"asha"' not in answer.content.decode()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    username=st.from_regex(r"[A-Za-z0-9@.+_-]{1,30}", fullmatch=True),
    first=st.text(max_size=30),
    last=st.text(max_size=30),
)
def test_a_display_name_is_never_the_user_name(username: str, first: str, last: str) -> None:
    user = get_user_model()(pk=7, username=username, first_name=first, last_name=last)
    shown = display_name(user)
    assert shown.casefold() != username.casefold()
    full = " ".join(f"{first} {last}".split())
    assert shown == (full if full and full.casefold() != username.casefold() else "Account 7")
