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
from tournaments.models import Club, Match, Player, Team, Tournament
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
    tournament, ladder = Tournament.objects.order_by("pk")
    assert (tournament.slug, ladder.slug) == ("club-evening", "tuesday-ladder")
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
    # the ladder: its first round waits for a score-keeper's entry and the other team's word
    waiting = Match.objects.filter(tournament=ladder)
    assert [(m.mode, m.status, m.confirmation, m.last_seq) for m in waiting] == [
        ("score", "in_progress", "other_team", 1)
    ] * 2  # started, no deal entered yet
    scorekeeper = authenticate(username="scorekeeper", password="scorekeeper")
    assert all(m.scorekeepers.filter(pk=scorekeeper.pk).exists() for m in waiting)
    for player in waiting[0].seat_players():  # every player signs in with the name, lower case
        user = authenticate(username=player.name.lower(), password=player.name.lower())
        assert user is not None and user == player.user
    assert "Tuesday ladder" in output


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_demo_is_one_clubs_and_its_players_are_members_met_again(settings: Any) -> None:
    settings.DEBUG = True
    seed()
    club = Club.objects.get()
    organizer = authenticate(username="organizer", password="organizer")
    assert (club.name, club.time_zone) == ("Friday Seep Club", "Asia/Kolkata")
    assert organizer in club.directors.all()
    assert not Tournament.objects.exclude(club=club).exists()
    assert not Player.objects.exclude(club=club).exists()
    members = Player.objects.count()
    seed()  # a second evening and ladder: the same people, the same members
    assert Club.objects.get() == club and Tournament.objects.filter(club=club).count() == 4
    assert Player.objects.count() == members
    asha = Player.objects.get(name="Asha")
    assert {t.tournament.slug for t in Team.objects.filter(first_player=asha)} == {
        "club-evening",
        "club-evening-2",
    }
    assert authenticate(username="asha", password="asha") == asha.user
