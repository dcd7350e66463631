"""The demo's past evenings and season: something for the club's pages to show, on the days
their names say; and a rebuild leaves a club with no games alone (issue 47, finding 6)."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime
from io import StringIO
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import override_settings

from seasons import services
from seasons.models import ClubSeasons, EveningResult, MemberRating, RatingCheckpoint, Season
from tests.scoring.helpers import committed
from tournaments import clubs
from tournaments.models import Tournament

from .conftest import ClubWorld, frozen, make_club_world

pytestmark = pytest.mark.django_db


def test_seed_demo_seasons_plays_past_evenings_and_makes_a_public_season() -> None:
    organizer = get_user_model().objects.create_user("organizer")
    club = clubs.club_create(actor=organizer, name="Friday Seep Club")
    for name in ("Asha", "Bilal", "Chitra", "Dev", "Esha", "Farhan", "Gita", "Harpreet"):
        clubs.member_add(actor=organizer, club=club, name=name)
    with pytest.raises(CommandError, match="DEBUG"):
        call_command("seed_demo_seasons")
    with override_settings(DEBUG=True):
        with committed():  # the projections run after each commit, as they would
            call_command("seed_demo_seasons", "--if-empty", stdout=StringIO())
        assert Tournament.objects.filter(club=club).count() == 3
        assert MemberRating.objects.filter(club=club).count() == 8
        assert EveningResult.objects.filter(club=club, place__isnull=False).count() == 3 * 8
        assert Season.objects.filter(club=club).count() == 1
        assert ClubSeasons.objects.get(club=club).public
        said = StringIO()
        call_command("seed_demo_seasons", "--if-empty", stdout=said)
        assert "nothing to do" in said.getvalue()
        assert Tournament.objects.filter(club=club).count() == 3


@pytest.mark.parametrize(
    "now",
    [
        datetime(2026, 12, 3, 20, 0, tzinfo=UTC),  # Thursday in UTC, Friday 01:30 in Kolkata
        datetime(2026, 12, 5, 12, 0, tzinfo=UTC),  # Saturday both
    ],
    ids=["thursday-utc-friday-kolkata", "saturday"],
)
def test_the_demos_friday_evenings_are_on_fridays_where_the_club_plays(now: datetime) -> None:
    organizer = get_user_model().objects.create_user("organizer")
    club = clubs.club_create(actor=organizer, name="Friday Seep Club", time_zone="Asia/Kolkata")
    for name in ("Asha", "Bilal", "Chitra", "Dev", "Esha", "Farhan", "Gita", "Harpreet"):
        clubs.member_add(actor=organizer, club=club, name=name)
    with override_settings(DEBUG=True), frozen(now), committed():
        call_command("seed_demo_seasons", stdout=StringIO())
    today = now.astimezone(ZoneInfo("Asia/Kolkata")).date()
    days = sorted(Tournament.objects.filter(club=club).values_list("date", flat=True))
    assert [d.strftime("%A") for d in days] == ["Friday"] * 3
    assert days[-1] < today and (today - days[-1]).days <= 7
    assert [(b - a).days for a, b in itertools.pairwise(days)] == [7, 7]


def test_a_rebuild_writes_no_checkpoint_for_a_club_with_no_games(club_world: ClubWorld) -> None:
    club_world.evening()  # an evening, nothing played
    played = make_club_world(4)
    played.play(played.evening(), (0, 1, 2, 3), winner=0)
    services.rebuild_all_ratings()
    services.rebuild_all_evenings()
    assert list(RatingCheckpoint.objects.values_list("club_id", flat=True)) == [played.club.pk]
    assert RatingCheckpoint.objects.get().match_id_last is not None
