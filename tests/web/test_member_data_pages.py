"""A member's data on the pages: the director downloads it and erases the member after a page
that says what goes and what stays; the member does both for themself; nobody else can."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from tournaments import clubs
from tournaments.models import Club, Erasure, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def roster(django_user_model: Any) -> dict[str, Any]:
    users = {n: django_user_model.objects.create_user(n) for n in ("director", "other", "anil")}
    club = clubs.club_create(actor=users["director"], name="Friday club")
    clubs.club_create(actor=users["other"], name="Other club")
    anil = clubs.member_add(
        actor=users["director"], club=club, name="Anil", contact="anil@x", user=users["anil"]
    )
    bina = clubs.member_add(actor=users["director"], club=club, name="Bina")
    return {**users, "club": club, "member": anil, "bina": bina}


def client(user: Any = None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def pages(club: Club, member: Player) -> tuple[str, str]:
    base = f"/c/{club.slug}/m/{member.pk}/"
    return base + "data.json", base + "erase/"


def test_a_director_downloads_a_members_data_and_erases_them(roster: dict[str, Any]) -> None:
    club, anil = roster["club"], roster["member"]
    director = client(roster["director"])
    desk = director.get(f"/clubs/{club.slug}/members/{anil.pk}/").content.decode()
    data_url, erase_url = pages(club, anil)
    assert data_url in desk and erase_url in desk
    download = director.get(data_url)
    assert download["Content-Disposition"] == f'attachment; filename="member-{anil.pk}-data.json"'
    assert json.loads(download.content)["member"]["contact"] == "anil@x"
    asked = director.get(erase_url).content.decode()
    assert "What is erased" in asked and "What is kept" in asked and "csrfmiddlewaretoken" in asked
    done = director.post(erase_url)
    assert done.status_code == 302
    stored = Player.objects.get(pk=anil.pk)
    assert (stored.name, stored.contact, stored.user_id) == (f"Erased member {anil.pk}", "", None)
    roster_page = director.get(f"/clubs/{club.slug}/members/").content.decode()
    assert "Anil" not in roster_page and "anil@x" not in roster_page
    assert "erased already" in director.get(erase_url).content.decode()
    desk = director.get(f"/clubs/{club.slug}/members/{anil.pk}/").content.decode()
    assert "was erased on" in desk and "/invite/" not in desk  # no account linked again


def test_the_erasure_needs_the_csrf_token(roster: dict[str, Any]) -> None:
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(roster["director"])
    assert strict.post(pages(roster["club"], roster["member"])[1]).status_code == 403
    assert not Erasure.objects.exists()


def test_a_member_erases_their_own_data_and_no_one_elses(roster: dict[str, Any]) -> None:
    club, anil, bina = roster["club"], roster["member"], roster["bina"]
    me = client(roster["anil"])
    own_page = me.get(f"/c/{club.slug}/m/{anil.pk}/").content.decode()
    assert "Download your data" in own_page
    assert "Download your data" not in me.get(f"/c/{club.slug}/m/{bina.pk}/").content.decode()
    for url in pages(club, bina):
        assert me.get(url).status_code == 403
    assert me.post(pages(club, bina)[1]).status_code == 403
    assert me.get(pages(club, anil)[0]).status_code == 200
    assert me.post(pages(club, anil)[1]).status_code == 302
    assert Erasure.objects.get().by_member is True
    assert Player.objects.get(pk=bina.pk).name == "Bina"


def test_nobody_else_downloads_or_erases(roster: dict[str, Any]) -> None:
    club, anil = roster["club"], roster["member"]
    for url in pages(club, anil):
        assert client().get(url).status_code == 302  # sign in first
        # another club's director: the club's pages are not public, so not even there (404)
        assert client(roster["other"]).get(url).status_code == 404
    assert client().post(pages(club, anil)[1]).status_code == 302
    assert client(roster["other"]).post(pages(club, anil)[1]).status_code == 404
    assert client(roster["director"]).get(f"/c/{club.slug}/m/999999/data.json").status_code == 404
    assert Player.objects.get(pk=anil.pk).name == "Anil"
    assert not Erasure.objects.exists()


def test_the_page_says_whether_the_members_account_is_closed_or_kept(
    roster: dict[str, Any],
) -> None:
    director, club = roster["director"], roster["club"]
    _, erase = pages(club, roster["member"])
    page = client(director).get(erase).content.decode()
    assert "The account anil, which was this membership alone: it is closed" in page
    # the director is a member too: erasing that membership keeps the director's account
    own = clubs.member_add(actor=director, club=club, name="Dev", user=director)
    _, erase = pages(club, own)
    page = client(director).get(erase).content.decode()
    assert "The account itself stays, with its name" in page
    assert "it is closed" not in page
