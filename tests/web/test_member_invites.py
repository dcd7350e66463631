"""A member invited to make their own account: the director invites from the desk or the API,
the member opens the one-time link and chooses a name and a password; nobody makes an account
for someone else."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tournaments import clubs
from tournaments.models import Club, MemberInvite, Player

from .conftest import CommittingClient

pytestmark = pytest.mark.django_db

GOOD = "a long and quiet river"


@pytest.fixture
def club(django_user_model: Any) -> Club:
    director = django_user_model.objects.create_user("meera")
    made = clubs.club_create(actor=director, name="Friday Seep Club")
    clubs.member_add(actor=director, club=made, name="Asha")
    return made


def desk_of(club: Club) -> CommittingClient:
    client = CommittingClient()
    client.force_login(club.directors.get())
    return client


def invite(desk: CommittingClient, club: Club, member: Player) -> str:
    page = desk.post(f"/clubs/{club.slug}/members/{member.pk}/invite/")
    assert page.status_code == 200 and page["Cache-Control"] == "private, no-store"
    found = re.search(r'value="https?://[^/"]+(/invite/[A-Za-z0-9_-]{43}/)"', page.content.decode())
    assert found is not None
    return found.group(1)


def test_a_member_makes_their_own_account_from_the_invitation(club: Club) -> None:
    asha = Player.objects.get(club=club, name="Asha")
    path = invite(desk_of(club), club, asha)
    phone = CommittingClient()
    opened = phone.get(path)
    assert opened.status_code == 302 and opened["Location"] == "/invite/"
    form = phone.get("/invite/")
    assert form.status_code == 200 and "Asha, make your account" in form.content.decode()

    weak = phone.post("/invite/", {"username": "asha", "password": "123", "again": "123"})
    assert weak.status_code == 422 and "too short" in weak.content.decode()
    differ = phone.post("/invite/", {"username": "asha", "password": GOOD, "again": GOOD + "!"})
    assert differ.status_code == 422 and "differ" in differ.content.decode()
    assert not get_user_model().objects.filter(username="asha").exists()

    made = phone.post("/invite/", {"username": "asha", "password": GOOD, "again": GOOD})
    assert made.status_code == 302 and made["Location"] == "/keep/"
    asha.refresh_from_db()
    assert asha.user is not None and asha.user.username == "asha"
    assert asha.user.check_password(GOOD) and not asha.user.is_staff
    assert "Sign out asha" in phone.get("/keep/").content.decode()
    used = CommittingClient().get(path)
    assert used.status_code == 410 and "closed" in used.content.decode()
    assert phone.get("/invite/").status_code == 410  # the session holds it no more


def test_a_new_invitation_ends_the_one_before_and_a_taken_name_is_refused(
    club: Club, django_user_model: Any
) -> None:
    asha = Player.objects.get(club=club, name="Asha")
    desk = desk_of(club)
    first = invite(desk, club, asha)
    second = invite(desk, club, asha)
    assert CommittingClient().get(first).status_code == 410
    django_user_model.objects.create_user("asha")
    member = CommittingClient()
    assert member.get(second).status_code == 302
    taken = member.post("/invite/", {"username": "asha", "password": GOOD, "again": GOOD})
    assert taken.status_code == 422 and "already exists" in taken.content.decode()
    asha.refresh_from_db()
    assert asha.user is None
    assert MemberInvite.objects.filter(member=asha, used_at__isnull=True).count() == 2
    assert CommittingClient().get("/invite/" + "x" * 43 + "/").status_code == 410


def test_only_the_clubs_directors_invite_and_only_members_without_an_account(
    club: Club, django_user_model: Any
) -> None:
    asha = Player.objects.get(club=club, name="Asha")
    stranger = CommittingClient()
    stranger.force_login(django_user_model.objects.create_user("stranger"))
    assert stranger.post(f"/clubs/{club.slug}/members/{asha.pk}/invite/").status_code == 404
    api = stranger.post(f"/api/v1/members/{asha.pk}/invite/")
    assert api.status_code == 404 and api["Content-Type"] == "application/problem+json"
    assert not MemberInvite.objects.exists()

    director = desk_of(club)
    answer = director.post(f"/api/v1/members/{asha.pk}/invite/")
    assert answer.status_code == 201, answer.content
    assert re.fullmatch(r"https?://[^/]+/invite/[A-Za-z0-9_-]{43}/", answer.json()["url"])
    clubs.member_update(
        actor=club.directors.get(), member=asha, user=django_user_model.objects.create_user("a2")
    )
    again = director.post(f"/api/v1/members/{asha.pk}/invite/")
    assert again.status_code == 422 and again.json()["code"] == "has_account"
    page = director.post(f"/clubs/{club.slug}/members/{asha.pk}/invite/", follow=True)
    assert "has an account already" in page.content.decode()
