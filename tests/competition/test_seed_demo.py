"""``seed_demo`` sets up a club evening run by the competition services and played by bots, with
every result computed by the real tasks (eager here, as on the embedded default)."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import authenticate
from django.core.management import CommandError, call_command

from competition.models import Fixture, Round, Stage, StandingRow
from scoring.models import MatchResult
from tournaments.models import Match, Team, Tournament
from tournaments.verify import verify_match

pytestmark = pytest.mark.django_db


def seed(*args: str) -> str:
    out = StringIO()
    call_command("seed_demo", *args, stdout=out)
    return out.getvalue()


def test_the_demo_is_refused_without_debug(settings: Any) -> None:
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG"):
        seed()
    assert not Tournament.objects.exists()


def test_if_empty_leaves_a_database_with_tournaments_alone(settings: Any, world: Any) -> None:
    settings.DEBUG = True
    assert "nothing to do" in seed("--if-empty")
    assert list(Tournament.objects.all()) == [world.tournament]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)  # it commits, and its tasks run then
def test_the_demo_is_a_club_evening_of_stages_played_and_scored(settings: Any) -> None:
    settings.DEBUG = True
    output = seed("--if-empty")  # what `make run` does on a fresh database
    assert "password 'organizer'" in output
    organizer = authenticate(username="organizer", password="organizer")
    assert organizer is not None and organizer.is_staff
    (tournament,) = Tournament.objects.all()
    assert Team.objects.filter(tournament=tournament).count() == 12
    swiss, knockout = Stage.objects.filter(tournament=tournament).order_by("order")
    assert (swiss.format, swiss.status, swiss.round_set.count()) == ("swiss", "complete", 4)
    assert StandingRow.objects.filter(stage=swiss, as_of_round=4).count() == 12
    assert knockout.status == "running" and knockout.entries.count() == 8
    live = Fixture.objects.filter(stage=knockout, result="", match__isnull=False)
    assert live.count() == 1 and live.get().match.status == "in_progress"  # the final: live
    assert not Round.objects.filter(stage__tournament=tournament, status="draft").exists()
    for match in Match.objects.filter(tournament=tournament):
        result = MatchResult.objects.get(match=match)
        assert result.seq == match.last_seq  # computed by the tasks, up to the end of the log
        assert verify_match(match) == []
    assert Match.objects.filter(tournament=tournament, status="finished").count() == 30
    assert "the final is being played" in output
