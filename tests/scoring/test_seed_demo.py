"""``seed_demo`` sets up a club evening played by bots through the real services, with every
result computed by the real scoring tasks (eager here, as on the embedded default)."""

from __future__ import annotations

from io import StringIO
from random import Random
from typing import Any

import pytest
from django.contrib.auth import authenticate
from django.core.management import CommandError, call_command

from scoring.management.commands.seed_demo import Command as SeedDemo
from scoring.models import DealResult, MatchResult
from tournaments.models import Match, MatchEvent, Team, Tournament

from .helpers import projection_rows, wipe_projections

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
@pytest.mark.django_db(transaction=True)  # it commits, and its projection tasks run then
def test_the_demo_is_a_club_evening_of_matches_played_and_scored(settings: Any) -> None:
    settings.DEBUG = True
    output = seed("--if-empty")  # what `make run` does on a fresh database
    assert "password 'organizer'" in output
    organizer = authenticate(username="organizer", password="organizer")
    assert organizer is not None and organizer.is_staff
    (tournament,) = Tournament.objects.all()
    assert (tournament.name, tournament.organizer) == ("Club evening", organizer)
    assert Team.objects.filter(tournament=tournament).count() == 6
    matches = list(Match.objects.filter(tournament=tournament).order_by("pk"))
    assert [m.mode for m in matches] == ["digital"] * 6
    assert [m.status for m in matches] == ["finished"] * 5 + ["in_progress"]
    for match in matches:
        result = MatchResult.objects.get(match=match)
        assert result.seq == match.last_seq  # computed by the tasks, up to the end of the log
        assert DealResult.objects.filter(match=match).count() == result.deals >= 1
        assert result.over == (match.status == "finished")
        if result.over:
            final = MatchEvent.objects.get(match=match, kind="match_ended").payload
            assert [result.winner, *result.bazzis] == [final["winner"], *final["bazzis"]]
            assert f"match {match.pk}: {match} ({match.last_seq} events): " in output
    assert output.count(" bazzis ") == 6 and "pending" not in output
    assert max(sum(MatchResult.objects.get(match=m).bazzis) for m in matches) >= 2
    rows = projection_rows()
    wipe_projections()
    call_command("rebuild_projections", stdout=StringIO())
    assert projection_rows() == rows


def test_the_bots_play_the_same_match_for_the_same_seed(settings: Any, world: Any) -> None:
    def events(seed: int) -> list[tuple[str, Any]]:
        match = SeedDemo()._play(
            world.tournament, *world.teams[:2], {"bazzis": 1}, Random(seed), 60
        )
        return list(
            MatchEvent.objects.filter(match=match).order_by("seq").values_list("kind", "payload")
        )

    first = events(5)
    assert len(first) > 60 and first == events(5) and first != events(6)
