"""Tokens scoped to a club: what they reach, what they make (never a broader token), and the
account page that lists, makes and revokes them."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from api.models import ApiToken
from tournaments.models import Tournament

from .conftest import Clubs
from .test_people import problem

pytestmark = pytest.mark.django_db


def test_a_session_makes_a_club_token_for_a_club_it_directs(scene: Clubs) -> None:
    made = scene.client("asha").post(
        "/api/v1/tokens/",
        {"name": "league bot", "club": scene.one.pk, "write": True},
        format="json",
    )
    assert made.status_code == 201, made.content
    body = made.json()
    assert (body["club"], body["tournament"], body["write"]) == (scene.one.pk, None, True)
    stored = ApiToken.objects.get(pk=body["id"])
    assert body["token"] not in (stored.digest, stored.token_key)
    for club in (scene.two.pk, 2**63, "1", None):
        refused = scene.client("asha").post(
            "/api/v1/tokens/", {"name": "x", "club": club}, format="json"
        )
        problem(refused, 400, "invalid")
    both = scene.client("asha").post(
        "/api/v1/tokens/",
        {"name": "x", "club": scene.one.pk, "tournament": scene.cup.pk},
        format="json",
    )
    problem(both, 400, "invalid")


def test_a_club_token_creates_a_tournament_of_its_club(scene: Clubs) -> None:
    made = scene.client(token="club_write").post(
        "/api/v1/tournaments/", {"name": "Monday", "slug": "monday"}, format="json"
    )
    assert made.status_code == 201, made.content
    assert made.json()["club"] == scene.one.pk
    assert Tournament.objects.get(slug="monday").organizer == scene.users["asha"]
    # and then acts in it: teams, stages
    teams = scene.client(token="club_write").post(
        f"/api/v1/tournaments/{made.json()['id']}/teams/",
        {"name": "A", "players": [{"member": scene.members["bina"].pk}, {"name": "Zoya"}]},
        format="json",
    )
    assert teams.status_code == 201, teams.content


def test_a_club_token_names_no_other_club_and_a_read_only_one_creates_nothing(
    scene: Clubs,
) -> None:
    other = scene.client(token="club_write").post(
        "/api/v1/tournaments/", {"name": "Elsewhere", "club": scene.two.pk}, format="json"
    )
    assert problem(other, 400, "invalid")["errors"] == {
        "club": ["no such club among those you direct"]
    }
    read = scene.client(token="club_read").post(
        "/api/v1/tournaments/", {"name": "Read"}, format="json"
    )
    problem(read, 403, "token_read_only")
    cup = scene.client(token="cup_write").post(
        "/api/v1/tournaments/", {"name": "Cup two"}, format="json"
    )
    problem(cup, 403, "token_scope")
    assert not Tournament.objects.filter(name__in=["Elsewhere", "Read", "Cup two"]).exists()


def test_a_club_token_sees_its_clubs_tournaments_only(scene: Clubs) -> None:
    theirs = Tournament.objects.create(name="Theirs", slug="theirs", organizer=scene.users["asha"])
    listed = scene.client(token="club_write").get("/api/v1/tournaments/").json()["results"]
    assert [t["id"] for t in listed] == [scene.cup.pk]
    problem(
        scene.client(token="club_write").get(f"/api/v1/tournaments/{theirs.pk}/"), 404, "not_found"
    )


def test_a_club_token_makes_a_narrower_token_and_never_a_broader_one(scene: Clubs) -> None:
    club = scene.client(token="club_write")
    made = club.post(
        "/api/v1/tokens/",
        {"name": "seat bot", "tournament": scene.cup.pk, "write": True, "expires_in_days": 300},
        format="json",
    )
    assert made.status_code == 201, made.content
    child = ApiToken.objects.get(pk=made.json()["id"])
    parent = ApiToken.objects.get(name="club_write")
    assert child.made_by == parent and child.expiry <= parent.expiry
    assert [t["id"] for t in club.get("/api/v1/tokens/").json()["results"]] == [child.pk]
    # no token of another club's tournament (a club token of its own club: test_token_renewal)
    elsewhere = Tournament.objects.create(
        name="Else", slug="else", organizer=scene.users["ravi"], club=scene.two, published=True
    )
    problem(
        club.post("/api/v1/tokens/", {"name": "x", "tournament": elsewhere.pk}, format="json"),
        400,
        "invalid",
    )
    # a read-only club token and a tournament token make none
    problem(
        scene.client(token="club_read").post(
            "/api/v1/tokens/", {"name": "x", "tournament": scene.cup.pk}, format="json"
        ),
        403,
        "token_read_only",
    )
    problem(
        scene.client(token="cup_write").post(
            "/api/v1/tokens/", {"name": "x", "tournament": scene.cup.pk}, format="json"
        ),
        403,
        "token_scope",
    )
    # revoking the club's token revokes what it made
    assert club.delete(f"/api/v1/tokens/{child.pk}/").status_code == 204
    again = club.post(
        "/api/v1/tokens/", {"name": "seat 2", "tournament": scene.cup.pk}, format="json"
    ).json()["id"]
    parent.delete()
    assert not ApiToken.objects.filter(pk=again).exists()


def test_a_token_made_by_a_token_counts_against_the_accounts_cap(
    scene: Clubs, settings: Any
) -> None:
    settings.API_TOKENS_PER_ACCOUNT = 4  # asha holds three
    club = scene.client(token="club_write")
    first = club.post("/api/v1/tokens/", {"name": "one", "tournament": scene.cup.pk}, format="json")
    assert first.status_code == 201
    second = club.post(
        "/api/v1/tokens/", {"name": "two", "tournament": scene.cup.pk}, format="json"
    )
    problem(second, 409, "too_many_tokens")


def test_the_account_page_lists_makes_and_revokes_tokens(scene: Clubs) -> None:
    asha = Client()  # a browser's form posts
    asha.force_login(scene.users["asha"])
    page = asha.get("/account/tokens/")
    assert page.status_code == 200 and b"club_write" in page.content
    made = asha.post(
        "/account/tokens/",
        {"name": "scoreboard", "scope": f"club-{scene.one.pk}", "days": 7},
    )
    assert made.status_code == 200
    token = ApiToken.objects.get(name="scoreboard")
    assert token.club == scene.one and not token.write
    assert token.expiry - timezone.now() < timedelta(days=8)
    assert token.token_key.encode() in made.content  # the secret starts with its key, once
    refused = asha.post(
        "/account/tokens/", {"name": "x", "scope": f"club-{scene.two.pk}", "days": 7}
    )
    assert refused.status_code == 200 and not ApiToken.objects.filter(name="x").exists()
    assert asha.post(f"/account/tokens/{token.pk}/revoke/").status_code == 302
    assert not ApiToken.objects.filter(pk=token.pk).exists()
    other = ApiToken.objects.get(name="two_write")
    assert asha.post(f"/account/tokens/{other.pk}/revoke/").status_code == 404
    assert Client().get("/account/tokens/").status_code == 302  # sign in first
