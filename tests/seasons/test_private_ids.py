"""A private club's seasons endpoints tell no one which ids exist, and a season's refused
values are 422 ``bad_season``, as docs/api.md and docs/seasons.md say (issue 47, finding 4).

A private club's, member's or season's id that exists answers exactly as one that does not
(status and problem, byte for byte) to the anonymous, to a tournament's token and to another
club's director: access is checked before the lookup can tell.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from api.models import ApiToken
from seasons.models import Season
from tournaments.models import Club, Player

from .conftest import ClubWorld, make_club_world

pytestmark = pytest.mark.django_db

SEASON = {"name": "Spring", "starts_on": "2026-01-01", "ends_on": "2026-06-30", "points": [3]}


def _callers(world: ClubWorld) -> dict[str, APIClient]:
    anonymous = APIClient()
    evening = world.evening()
    _, text = ApiToken.objects.create(
        user=world.director, expiry=timedelta(days=1), name="evening", tournament=evening,
        write=True,
    )  # fmt: skip
    tournament_token = APIClient()
    tournament_token.credentials(HTTP_AUTHORIZATION=f"Bearer {text}")
    other = APIClient()
    other.force_authenticate(make_club_world(2).director)
    return {"anonymous": anonymous, "tournament token": tournament_token, "other director": other}


def _requests(club: int, member: int, season: int) -> list[tuple[str, str, Any]]:
    return [
        ("get", f"/api/v1/clubs/{club}/ratings/", None),
        ("get", f"/api/v1/clubs/{club}/seasons/", None),
        ("post", f"/api/v1/clubs/{club}/seasons/", SEASON),
        ("get", f"/api/v1/clubs/{club}/seasons-settings/", None),
        ("patch", f"/api/v1/clubs/{club}/seasons-settings/", {"public": True}),
        ("get", f"/api/v1/seasons/{season}/", None),
        ("patch", f"/api/v1/seasons/{season}/", {"name": "Summer"}),
        ("delete", f"/api/v1/seasons/{season}/", None),
        ("get", f"/api/v1/seasons/{season}/ladder/", None),
        ("get", f"/api/v1/members/{member}/rating/", None),
    ]


def _answer(client: APIClient, method: str, url: str, body: Any) -> tuple[int, bytes]:
    answer = getattr(client, method)(url, body, format="json")
    return answer.status_code, answer.content


def test_a_private_clubs_ids_answer_as_ids_that_do_not_exist(club_world: ClubWorld) -> None:
    season = Season.objects.create(
        club=club_world.club, name="Spring", starts_on=date(2026, 1, 1),
        ends_on=date(2026, 6, 30), points=[3],
    )  # fmt: skip
    member = club_world.members[0]
    callers = _callers(club_world)
    missing = (
        Club.objects.order_by("-pk")[0].pk + 100,
        Player.objects.order_by("-pk")[0].pk + 100,
        season.pk + 100,
    )
    real = _requests(club_world.club.pk, member.pk, season.pk)
    fake = _requests(*missing)
    for who, client in callers.items():
        for (method, url, body), (_, nowhere, _) in zip(real, fake, strict=True):
            there = _answer(client, method, url, body)
            assert there[0] >= 400, (who, method, url)
            assert there == _answer(client, method, nowhere, body), (who, method, url)
    assert Season.objects.get().name == "Spring"  # nobody changed or removed it


def _director(world: ClubWorld) -> APIClient:
    client = APIClient()
    client.force_authenticate(world.director)
    return client


REFUSED = [
    {"name": ""},
    {"name": "   "},
    {"name": "x" * 201},
    {"name": "bell\x07"},
    {"rule": "elo"},
    {"points": []},
    {"points": [-1]},
    {"points": [10_001]},
    {"points": [1] * 65},
    {"rule": "wins", "points": [3, 2]},
    {"best": 0},
    {"best": -1},
    {"best": 1001},
    {"best": 10**30},
    {"ends_on": "2025-12-31"},
]


@pytest.mark.parametrize("change", REFUSED, ids=lambda c: repr(c)[:40])
def test_a_refused_season_value_is_422_bad_season(club_world: ClubWorld, change: Any) -> None:
    client, url = _director(club_world), f"/api/v1/clubs/{club_world.club.pk}/seasons/"
    made = client.post(url, {**SEASON, **change}, format="json")
    assert (made.status_code, made.json()["code"]) == (422, "bad_season"), made.json()
    season = client.post(url, SEASON, format="json").json()["id"]
    changed = client.patch(f"/api/v1/seasons/{season}/", change, format="json")
    assert (changed.status_code, changed.json()["code"]) == (422, "bad_season"), changed.json()
    assert Season.objects.get().name == "Spring"


@pytest.mark.parametrize(
    "change", [{"starts_on": "soon"}, {"points": "ten"}, {"best": "all"}, {"colour": "red"}]
)
def test_a_body_of_the_wrong_shape_stays_400_invalid(club_world: ClubWorld, change: Any) -> None:
    url = f"/api/v1/clubs/{club_world.club.pk}/seasons/"
    made = _director(club_world).post(url, {**SEASON, **change}, format="json")
    assert (made.status_code, made.json()["code"]) == (400, "invalid")


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    rule=st.sampled_from(["places", "wins"]),
    points=st.lists(st.integers(-5, 10_005), max_size=66),
    best=st.none() | st.integers(-3, 1003),
)
def test_a_season_is_made_or_refused_422_by_its_values(
    club_world: ClubWorld, rule: str, points: list[int], best: int | None
) -> None:
    url = f"/api/v1/clubs/{club_world.club.pk}/seasons/"
    body = {**SEASON, "rule": rule, "points": points, "best": best}
    answer = _director(club_world).post(url, body, format="json")
    fine = (
        1 <= len(points) <= 64
        and all(0 <= p <= 10_000 for p in points)
        and (rule == "places" or len(points) == 1)
        and (best is None or 1 <= best <= 1000)
    )
    if fine:
        assert answer.status_code == 201, answer.json()
        Season.objects.filter(pk=answer.json()["id"]).delete()
    else:
        assert (answer.status_code, answer.json()["code"]) == (422, "bad_season"), answer.json()
