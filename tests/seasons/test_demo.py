"""The demo's past evenings and season: something for the club's pages to show."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import override_settings

from seasons.models import ClubSeasons, EveningResult, MemberRating, Season
from tests.scoring.helpers import committed
from tournaments import clubs
from tournaments.models import Tournament

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
