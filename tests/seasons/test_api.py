"""The API serves what the pages show: ratings, seasons and ladders, a member's rating, and
seeding by rating; private clubs stay private and bad input is a problem+json with a code."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from competition import services as competition
from seasons.models import ClubSeasons, Season

from .conftest import ClubWorld

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(club_world: ClubWorld) -> ClubWorld:
    evening = club_world.evening()
    club_world.play(evening, (0, 1, 2, 3), winner=0)
    club_world.play(evening, (4, 5, 6, 7), winner=1)
    return club_world


def api(user: object = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)  # type: ignore[arg-type]
    return client


def test_ratings_and_a_members_rating_are_served_to_who_may_see_them(played: ClubWorld) -> None:
    club, a = played.club, played.members[0]
    ratings = api(played.director).get(f"/api/v1/clubs/{club.pk}/ratings/")
    assert ratings.status_code == 200
    body = ratings.json()
    assert body["count"] == 8
    top = body["results"][0]
    assert top["rank"] == 1 and top["rating"]["matches"] == 1
    mine = api(played.director).get(f"/api/v1/members/{a.pk}/rating/").json()
    assert mine["member"]["name"] == "Member A"
    assert [h["result"] for h in mine["history"]] == ["won"]
    assert mine["partners"][0]["member"]["name"] == "Member B"
    stranger = get_user_model().objects.create_user("stranger")
    for client in (api(), api(stranger)):
        for url in (f"/api/v1/clubs/{club.pk}/ratings/", f"/api/v1/members/{a.pk}/rating/"):
            answer = client.get(url)
            assert answer.status_code in (401, 404), url
            assert answer["Content-Type"].startswith("application/problem+json")
    ClubSeasons.objects.create(club=club, public=True)
    assert api().get(f"/api/v1/clubs/{club.pk}/ratings/").status_code == 200
    assert api().get(f"/api/v1/members/{a.pk}/rating/").status_code == 200


def test_a_director_makes_a_season_and_reads_its_ladder_as_of_an_evening(
    played: ClubWorld,
) -> None:
    client, club = api(played.director), played.club
    made = client.post(
        f"/api/v1/clubs/{club.pk}/seasons/",
        {"name": "Spring", "starts_on": "2026-01-01", "ends_on": "2026-06-30", "rule": "wins",
         "points": [3]},
        format="json",
    )  # fmt: skip
    assert made.status_code == 201, made.json()
    season = made.json()["id"]
    ladder = client.get(f"/api/v1/seasons/{season}/ladder/").json()
    assert [x["points"] for x in ladder["results"]][:4] == [3, 3, 3, 3]
    before = client.get(f"/api/v1/seasons/{season}/ladder/?as_of=2026-01-01").json()
    assert before["count"] == 0
    bad = client.get(f"/api/v1/seasons/{season}/ladder/?as_of=someday")
    assert bad.status_code == 400 and bad.json()["code"] == "bad_date"
    wrong = client.patch(f"/api/v1/seasons/{season}/", {"ends_on": "2025-01-01"}, format="json")
    assert wrong.status_code == 422 and wrong.json()["code"] == "bad_season"
    assert Season.objects.get().ends_on == date(2026, 6, 30)
    stranger = api(get_user_model().objects.create_user("stranger"))
    assert stranger.delete(f"/api/v1/seasons/{season}/").status_code == 404
    assert client.delete(f"/api/v1/seasons/{season}/").status_code == 204


def test_seeding_by_rating_over_the_api(played: ClubWorld) -> None:
    evening = played.evening(date(2026, 2, 6))
    for n, (a, b) in enumerate([(0, 1), (2, 3)], start=1):
        competition.team_enter(
            actor=played.director, tournament=evening, name=f"Team {n}",
            people=[played.members[a], played.members[b]], checked_in=True,
        )  # fmt: skip
    url = f"/api/v1/tournaments/{evening.pk}/seed-by-ratings/"
    refused = api(played.director).post(url, {"measure": "loudest"}, format="json")
    assert refused.status_code in (400, 422) and refused.json()["code"] == "bad_seeding"
    done = api(played.director).post(url, {"measure": "sum"}, format="json")
    assert done.status_code == 200
    ratings = done.json()["ratings"]
    assert len(ratings) == 2 and len(set(ratings.values())) == 2
    stranger = api(get_user_model().objects.create_user("stranger"))
    assert stranger.post(url, {"measure": "sum"}, format="json").status_code in (403, 404)


def test_a_director_makes_the_clubs_ratings_public_and_nobody_else_may(played: ClubWorld) -> None:
    url = f"/api/v1/clubs/{played.club.pk}/seasons-settings/"
    stranger = api(get_user_model().objects.create_user("stranger"))
    assert stranger.patch(url, {"public": True}, format="json").status_code == 404
    bad = api(played.director).patch(url, {"public": "maybe"}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"
    assert not ClubSeasons.objects.filter(public=True).exists()
    made = api(played.director).patch(url, {"public": True}, format="json")
    assert made.status_code == 200 and made.json() == {"public": True, "settled_after": 10}
    assert api().get(url).json() == {"public": True, "settled_after": 10}
    assert api().patch(url, {"public": False}, format="json").status_code in (401, 404)
