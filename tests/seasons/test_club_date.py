"""One date for a club: its ratings' drift, its lists' ranks and its undated evenings read the
club's date (its time zone), in the API and on the pages alike (issue 47, finding 1).

The clock is frozen where UTC's date and the club's differ (Asia/Kolkata, +05:30, is a day
ahead from 18:30 UTC to midnight), so a figure read by the server's date would differ.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from seasons import services
from seasons.models import EveningResult, RatingChange
from tournaments import matchlog
from tournaments.clubdate import club_today
from tournaments.models import MatchEvent, Tournament

from .conftest import ClubWorld, frozen

pytestmark = pytest.mark.django_db

#: 18:30 to 24:00 UTC: Kolkata is already on the next day
KOLKATA_AHEAD = datetime(2026, 3, 2, 20, 0, tzinfo=UTC)


@pytest.fixture
def kolkata(club_world: ClubWorld) -> ClubWorld:
    """A Kolkata club whose members last played on two evenings weeks apart (drifting)."""
    club_world.club.time_zone = "Asia/Kolkata"
    club_world.club.save()
    first, second = club_world.evening(date(2026, 1, 2)), club_world.evening(date(2026, 1, 9))
    club_world.play(first, (0, 1, 2, 3), winner=0)
    club_world.play(first, (4, 5, 6, 7), winner=1)
    club_world.play(second, (0, 4, 2, 6), winner=0)
    return club_world


def _page(world: ClubWorld, url: str) -> Any:
    client = Client()
    client.force_login(world.director)
    answer = client.get(url)
    assert answer.status_code == 200
    return answer.context


def _api(world: ClubWorld, url: str) -> Any:
    client = APIClient()
    client.force_authenticate(world.director)
    answer = client.get(url)
    assert answer.status_code == 200
    return answer.json()


def _figures(r: Any) -> tuple[float, float, float]:
    return (r.mu, r.sigma, r.conservative)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    hours=st.integers(0, 24 * 120),
    zone=st.sampled_from(["Asia/Kolkata", "Pacific/Kiritimati", "America/Los_Angeles", "UTC"]),
)
def test_the_api_and_the_pages_show_the_same_figures_and_ranks_at_any_hour(
    kolkata: ClubWorld, hours: int, zone: str
) -> None:
    club = kolkata.club
    club.time_zone = zone
    club.save()
    with frozen(datetime(2026, 1, 10, tzinfo=UTC) + timedelta(hours=hours)):
        listed = _api(kolkata, f"/api/v1/clubs/{club.pk}/ratings/")["results"]
        shown = _page(kolkata, f"/c/{club.slug}/")["ratings"]
        assert [(r["rank"], r["member"]["id"]) for r in listed] == [
            (r.rank, r.player.pk) for r in shown
        ]
        assert [
            (r["rating"]["mu"], r["rating"]["sigma"], r["rating"]["conservative"]) for r in listed
        ] == [_figures(r.rating) for r in shown]
        for member in kolkata.members[:2]:
            mine = _api(kolkata, f"/api/v1/members/{member.pk}/rating/")["rating"]
            page = _page(kolkata, f"/c/{club.slug}/m/{member.pk}/")["rating"]
            assert (mine["mu"], mine["sigma"], mine["conservative"]) == _figures(page)


def test_at_an_hour_the_dates_differ_the_drift_is_to_the_clubs_date(kolkata: ClubWorld) -> None:
    club = kolkata.club
    with frozen(KOLKATA_AHEAD):
        assert club_today(club) == date(2026, 3, 3)
        listed = _api(kolkata, f"/api/v1/clubs/{club.pk}/ratings/")["results"]
        shown = _page(kolkata, f"/c/{club.slug}/")["ratings"]
    assert [r["rating"]["sigma"] for r in listed] == [r.rating.sigma for r in shown]


def test_an_undated_evening_is_the_clubs_date_when_its_match_ended(club_world: ClubWorld) -> None:
    club_world.club.time_zone = "Asia/Kolkata"
    club_world.club.save()
    evening = club_world.evening()
    Tournament.objects.filter(pk=evening.pk).update(date=None, created_at=KOLKATA_AHEAD)
    with frozen(KOLKATA_AHEAD):
        match = club_world.play(evening, (0, 1, 2, 3), winner=0)
    ended = MatchEvent.objects.get(match=match, kind=matchlog.MATCH_ENDED).recorded_at
    assert ended == KOLKATA_AHEAD
    services.rebuild_all_ratings()
    services.rebuild_all_evenings()
    assert set(RatingChange.objects.values_list("day", flat=True)) == {date(2026, 3, 3)}
    assert set(EveningResult.objects.values_list("date", flat=True)) == {date(2026, 3, 3)}
