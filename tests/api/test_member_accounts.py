"""A director makes a club member's account over the API (``POST /members/{id}/account/``):
made and linked at once, or refused with a stable code writing nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import authenticate, get_user_model
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments import invites, privacy
from tournaments.models import Player

from .conftest import Clubs, CommittingClient

pytestmark = pytest.mark.django_db

PASSWORD = "a long first password 7"


def make(client: Any, member: Player, body: Any) -> Any:
    return client.post(f"/api/v1/members/{member.pk}/account/", body, format="json")


def director(scene: Clubs) -> CommittingClient:
    client = CommittingClient()
    client.force_login(scene.users["asha"])
    return client


def test_a_director_makes_a_members_account_which_signs_in(scene: Clubs) -> None:
    bina = scene.members["bina"]
    _, key = invites.member_invite(actor=scene.users["asha"], member=bina)
    made = make(director(scene), bina, {"username": "bina", "password": PASSWORD})
    assert made.status_code == 201, made.content
    assert PASSWORD not in made.content.decode()
    bina.refresh_from_db()
    assert bina.user is not None and made.json()["user"] == bina.user_id
    assert authenticate(username="bina", password=PASSWORD) == bina.user
    assert invites.open_invite(key) is None  # the invitation it had is over: nothing to make


def test_a_clubs_token_that_may_write_makes_one_and_a_read_only_one_does_not(scene: Clubs) -> None:
    chetan = scene.members["chetan"]
    reader = CommittingClient()
    reader.credentials(HTTP_AUTHORIZATION=f"Bearer {scene.tokens['club_read']}")
    refused = make(reader, chetan, {"username": "chetan", "password": PASSWORD})
    assert refused.status_code == 403 and refused.json()["code"] == "token_read_only"
    writer = CommittingClient()
    writer.credentials(HTTP_AUTHORIZATION=f"Bearer {scene.tokens['club_write']}")
    assert make(writer, chetan, {"username": "chetan", "password": PASSWORD}).status_code == 201


@pytest.mark.parametrize(
    ("who", "status", "code"),
    [("dev", 403, "forbidden"), ("ravi", 404, "not_found"), (None, 401, "not_authenticated")],
)
def test_no_one_but_its_clubs_director_makes_a_members_account(
    scene: Clubs, who: str | None, status: int, code: str
) -> None:
    client = CommittingClient()
    if who is not None:
        client.force_login(scene.users[who])
    answer = make(client, scene.members["bina"], {"username": "bina", "password": PASSWORD})
    assert answer.status_code == status and answer.json()["code"] == code
    assert not get_user_model().objects.filter(username="bina").exists()


def test_an_erased_member_or_one_with_an_account_is_refused(scene: Clubs) -> None:
    client = director(scene)
    answer = make(client, scene.members["dev"], {"username": "dev2", "password": PASSWORD})
    assert answer.status_code == 422 and answer.json()["code"] == "has_account"
    privacy.erase_member(actor=scene.users["asha"], member=scene.members["chetan"])
    answer = make(client, scene.members["chetan"], {"username": "chetan", "password": PASSWORD})
    assert answer.status_code == 422 and answer.json()["code"] == "already_erased"
    assert not get_user_model().objects.filter(username__in=["dev2", "chetan"]).exists()


@pytest.mark.parametrize(
    "body",
    [
        {"username": "stranger", "password": PASSWORD},  # taken
        {"username": "bina", "password": "short"},  # the validators refuse it
        {"username": "bina", "password": "bina"},  # too like the user name, too short
        {"username": "bad name!", "password": PASSWORD},
    ],
)
def test_a_taken_name_or_a_weak_password_is_422_and_writes_nothing(
    scene: Clubs, body: dict[str, str]
) -> None:
    before = get_user_model().objects.count()
    answer = make(director(scene), scene.members["bina"], body)
    assert answer.status_code == 422 and answer.json()["code"] == "bad_account", answer.content
    assert get_user_model().objects.count() == before
    assert Player.objects.get(pk=scene.members["bina"].pk).user_id is None


@pytest.mark.parametrize(
    "body",
    [{"username": "bina"}, {"password": PASSWORD}, {"username": "bina", "password": PASSWORD,
     "is_staff": True}, [], "bina"],
)  # fmt: skip
def test_a_body_not_of_a_name_and_a_password_is_400(scene: Clubs, body: Any) -> None:
    answer = make(director(scene), scene.members["bina"], body)
    assert answer.status_code == 400, answer.content
    assert Player.objects.get(pk=scene.members["bina"].pk).user_id is None


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(username=st.text(max_size=160), password=st.text(max_size=40))
def test_any_name_and_password_make_the_account_or_are_refused_writing_nothing(
    scene: Clubs, username: str, password: str
) -> None:
    bina = Player.objects.get(pk=scene.members["bina"].pk)
    if bina.user_id is not None:  # an earlier example made it: start again without it
        Player.objects.filter(pk=bina.pk).update(user=None)
        get_user_model().objects.filter(pk=bina.user_id).delete()
    before = get_user_model().objects.count()
    answer = make(director(scene), bina, {"username": username, "password": password})
    assert answer.status_code in (201, 400, 422), answer.content
    made = answer.status_code == 201
    assert get_user_model().objects.count() == before + made
    assert (Player.objects.get(pk=bina.pk).user_id is not None) == made
