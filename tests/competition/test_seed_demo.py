"""``seed_demo`` sets up a club evening run by the competition services and played by bots, with
every result computed by the real tasks (eager here, as on the embedded default)."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import authenticate
from django.core.management import CommandError, call_command
from django.db.models import Q

from competition import presets
from competition.management.commands import seed_demo
from competition.models import Fixture, Round, Stage, StandingRow
from scoring.models import MatchResult
from tournaments.models import (
    Club,
    Match,
    MatchEvent,
    Player,
    Team,
    Tournament,
    checked_match_format,
)
from tournaments.selectors import match_state
from tournaments.verify import verify_match

pytestmark = pytest.mark.django_db


def seed(*args: str) -> str:
    out = StringIO()
    call_command("seed_demo", *args, stdout=out)
    return out.getvalue()


def made_as(stage: Stage, settings: dict[str, Any], **changed: Any) -> None:
    """Assert ``stage`` has the preset's ``settings``, but for those ``changed`` on the desk."""
    for name, value in {**settings, **changed}.items():
        # a match format is stored complete (M1)
        expected = checked_match_format(value) if name == "match_format" else value
        assert getattr(stage, name) == expected, name


def players(tournament: Tournament) -> set[int]:
    teams = Team.objects.filter(tournament=tournament)
    return {pk for pair in teams.values_list("first_player", "second_player") for pk in pair}


def test_the_demo_is_refused_without_debug(settings: Any) -> None:
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG"):
        seed()
    assert not Tournament.objects.exists()


def test_if_empty_leaves_a_database_with_tournaments_alone(settings: Any, world: Any) -> None:
    settings.DEBUG = True
    assert "nothing to do" in seed("--if-empty")
    assert list(Tournament.objects.all()) == [world.tournament]


def played_and_scored(output: str) -> None:
    """Assert the demo just seeded (``output``: what it printed) is a club evening of stages
    played and scored, and a ladder whose players are members met again."""
    assert "password 'organizer'" in output
    organizer = authenticate(username="organizer", password="organizer")
    assert organizer is not None and organizer.is_staff
    tournament = Tournament.objects.get(slug="club-evening")
    ladder = Tournament.objects.get(slug="tuesday-ladder")
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
    # the Online friendly: one digital match, dealt, waiting for its bid on the seat pages
    (online,) = Match.objects.filter(tournament__slug="online-friendly")
    deal = match_state(online).deal
    assert (online.mode, online.status) == ("digital", "in_progress")
    assert deal is not None and deal.phase == "bid"
    for player in online.seat_players():
        user = authenticate(username=player.name.lower(), password=player.name.lower())
        assert user is not None and user == player.user
    assert f"/play/{online.pk}/" in output
    # the Table night: one match played with real cards, waiting for its score-keeper
    (table,) = Match.objects.filter(tournament__slug="table-night")
    assert (table.mode, table.status) == ("table", "scheduled")
    assert table.scorekeepers.filter(username="scorekeeper").exists()
    assert f"/record/{table.pk}/" in output
    # made as a director makes an evening on the desk: a club's, dated and placed, its stages
    # those of a preset (changed before they started where the demo differs)
    club = Club.objects.get(name="Friday Seep Club")
    for t in (tournament, ladder):
        assert (t.club, t.date is not None, t.place) == (club, True, "The community hall")
    evening_stages = presets.stages_for(seed_demo.EVENING)
    assert [s["format"] for s in evening_stages] == ["swiss", "single_elimination"]
    made_as(swiss, evening_stages[0], start_matches=False)
    made_as(
        knockout, evening_stages[1], mode="digital", start_matches=False,
        match_format=seed_demo.KNOCKOUT_FORMAT,
    )  # fmt: skip
    assert list(swiss.scorekeepers.all()) == [scorekeeper]
    (round_robin,) = Stage.objects.filter(tournament=ladder)
    made_as(round_robin, *presets.stages_for(seed_demo.LADDER))
    assert (round_robin.confirmation, round_robin.mode) == ("other_team", "score")
    # members of the club's roster met again: two people play both evenings (each one row,
    # with one account), each with another partner on the ladder
    both = Player.objects.filter(pk__in=players(tournament) & players(ladder))
    assert len(both) >= 2
    for member in both:
        assert Player.objects.filter(club=club, name=member.name).count() == 1
        assert authenticate(username=member.name.lower(), password=member.name.lower())
        partners = [
            {team.first_player_id, team.second_player_id} - {member.pk}
            for team in Team.objects.filter(Q(first_player=member) | Q(second_player=member))
        ]
        assert len(partners) == 2 and partners[0] != partners[1]


# One test seeds the demo twice, since seeding is the slow part: the first run is checked as
# `make run` leaves it, the second as a second evening of the same club.
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)  # it commits, and its tasks run then
def test_the_demo_is_one_clubs_evenings_played_and_scored_and_its_members_meet_again(
    settings: Any,
) -> None:
    settings.DEBUG = True
    played_and_scored(seed("--if-empty"))  # what `make run` does on a fresh database
    club = Club.objects.get()
    organizer = authenticate(username="organizer", password="organizer")
    assert (club.name, club.time_zone) == ("Friday Seep Club", "Asia/Kolkata")
    assert organizer in club.directors.all()
    assert not Tournament.objects.exclude(club=club).exists()
    assert not Player.objects.exclude(club=club).exists()
    members = Player.objects.count()
    seed()  # a second evening and ladder: the same people, the same members
    assert Club.objects.get() == club and Tournament.objects.filter(club=club).count() == 8
    assert Player.objects.count() == members
    asha = Player.objects.get(name="Asha")
    assert {t.tournament.slug for t in Team.objects.filter(first_player=asha)} == {
        "club-evening",
        "club-evening-2",
    }
    assert {t.tournament.slug for t in Team.objects.filter(second_player=asha)} == {
        "tuesday-ladder",  # with another partner
        "tuesday-ladder-2",
    }
    assert authenticate(username="asha", password="asha") == asha.user
    # the same seed, yet other decks: they come from secrets, as every match's do, so the
    # seed tells nobody the hands of the final's deal in play
    first, second = (
        {
            tuple(event.payload["deck"])
            for event in MatchEvent.objects.filter(
                match__tournament__slug=slug, kind="deal_started"
            )
        }
        for slug in ("club-evening", "club-evening-2")
    )
    assert len(first) >= 7 and len(second) >= 7  # a deal in each knockout match at least
    assert not first & second
