"""An evening's date is read and set over the API, at creation too, and it decides the order
its matches are rated in: by date, then by when they ended (issue 47, finding 2)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from rest_framework.test import APIClient

from seasons.models import EveningResult, RatingChange
from tournaments.models import Match, Tournament

from .conftest import ClubWorld, frozen

pytestmark = pytest.mark.django_db

#: one night in Kolkata (+05:30): 23:58 and, four minutes later, 00:02 the next day
LATE = datetime(2026, 3, 6, 18, 28, tzinfo=UTC)
LATER = LATE + timedelta(minutes=4)


def _director(world: ClubWorld) -> APIClient:
    client = APIClient()
    client.force_authenticate(world.director)
    return client


def _evening(world: ClubWorld, name: str, day: str | None) -> Tournament:
    slug = f"{world.club.slug}-{len(world.evenings) + 1}"
    body: dict[str, Any] = {"name": name, "slug": slug, "club": world.club.pk, "published": True}
    if day is not None:
        body["date"] = day
    made = _director(world).post("/api/v1/tournaments/", body, format="json")
    assert made.status_code == 201, made.json()["errors"]
    assert made.json()["date"] == day
    tournament = Tournament.objects.get(pk=made.json()["id"])
    world.evenings.append(tournament)
    return tournament


def _order(world: ClubWorld) -> list[int]:
    """The matches of member A, in the order they were rated."""
    changes = RatingChange.objects.filter(player=world.members[0]).order_by("matches")
    return list(changes.values_list("match_id", flat=True))


def _play(world: ClubWorld, evening: Tournament, at: datetime) -> Match:
    with frozen(at):
        return world.play(evening, (0, 1, 2, 3), winner=0)


@pytest.fixture
def kolkata(club_world: ClubWorld) -> ClubWorld:
    club_world.club.time_zone = "Asia/Kolkata"
    club_world.club.save()
    return club_world


def test_two_evenings_of_one_night_dated_over_the_api_are_rated_in_date_then_end_order(
    kolkata: ClubWorld,
) -> None:
    first, second = (
        _evening(kolkata, "Early table", "2026-03-06"),
        _evening(kolkata, "Late table", "2026-03-06"),
    )
    late = _play(kolkata, first, LATE)
    later = _play(kolkata, second, LATER)  # past midnight where the club plays: same evening
    assert _order(kolkata) == [late.pk, later.pk]
    assert set(RatingChange.objects.values_list("day", flat=True)) == {date(2026, 3, 6)}
    # the night before's evening, entered afterwards with its date, is rated before both
    before = _evening(kolkata, "Thursday", "2026-03-05")
    earlier = _play(kolkata, before, LATER + timedelta(hours=1))
    assert _order(kolkata) == [earlier.pk, late.pk, later.pk]


def test_undated_evenings_of_one_night_are_rated_in_the_order_they_ended(
    kolkata: ClubWorld,
) -> None:
    first, second = _evening(kolkata, "Early table", None), _evening(kolkata, "Late", None)
    late, later = _play(kolkata, first, LATE), _play(kolkata, second, LATER)
    assert _order(kolkata) == [late.pk, later.pk]
    days = dict(RatingChange.objects.values_list("match_id", "day"))
    assert (days[late.pk], days[later.pk]) == (date(2026, 3, 6), date(2026, 3, 7))


def test_an_evenings_date_set_over_the_api_moves_its_ratings_and_ladder_rows_at_once(
    kolkata: ClubWorld,
) -> None:
    first, second = _evening(kolkata, "One", "2026-03-06"), _evening(kolkata, "Two", "2026-03-13")
    one, two = _play(kolkata, first, LATE), _play(kolkata, second, LATER)
    assert _order(kolkata) == [one.pk, two.pk]
    client = _director(kolkata)
    moved = client.patch(f"/api/v1/tournaments/{first.pk}/", {"date": "2026-03-20"}, format="json")
    assert moved.status_code == 200 and moved.json()["date"] == "2026-03-20"
    assert client.get(f"/api/v1/tournaments/{first.pk}/").json()["date"] == "2026-03-20"
    assert _order(kolkata) == [two.pk, one.pk]
    assert set(EveningResult.objects.filter(tournament=first).values_list("date", flat=True)) == {
        date(2026, 3, 20)
    }
    bad = client.patch(f"/api/v1/tournaments/{first.pk}/", {"date": "Friday"}, format="json")
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid")
    undated = client.patch(f"/api/v1/tournaments/{first.pk}/", {"date": None}, format="json")
    assert undated.status_code == 200 and undated.json()["date"] is None
    assert _order(kolkata) == [one.pk, two.pk]  # by the club's date it ended: 7 March
