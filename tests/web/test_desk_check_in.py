"""The desk's check-ins, starts and withdrawals once a stage may have started (issue 38): a start
names the registered teams not checked in and asks first; a late check-in is told where the
team plays, or refused in words; a withdrawal is undone by its button while it can be."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings

from competition import services as competition
from competition.models import Registration, Stage
from tournaments.models import Player, Team, Tournament

from .conftest import Club

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(club: Club) -> Tournament:
    """Friday: Ravens, Owls and Larks checked in; Wrens and Kites registered, not yet."""
    director = club.users["director"]
    t = Tournament.objects.create(name="Friday", slug="friday", organizer=director)
    for i, name in enumerate(["Ravens", "Owls", "Larks", "Wrens", "Kites"]):
        players = [Player.objects.create(name=f"{name} {n}") for n in (1, 2)]
        competition.team_register(
            actor=director, tournament=t, name=name, first_player=players[0],
            second_player=players[1], seed=i + 1, checked_in=i < 3,
        )  # fmt: skip
    return t


def stage(club: Club, t: Tournament, **settings: Any) -> Stage:
    settings.setdefault("name", "Swiss")
    settings.setdefault("format", "swiss")
    settings.setdefault("rounds", 2)
    return competition.stage_create(
        actor=club.users["director"], tournament=t, mode="score",
        match_format={"bazzis": 1}, **settings,
    )  # fmt: skip


def team(name: str) -> Team:
    return Team.objects.get(name=name)


def test_start_names_the_teams_not_checked_in_and_starts_only_when_told_to(
    club: Club, evening: Tournament
) -> None:
    director = club.client("director")
    swiss = stage(club, evening)
    url = f"/desk/friday/stages/{swiss.pk}/start/"
    asked = director.post(url)
    assert asked.status_code == 200
    text = asked.content.decode()
    assert "2 teams registered are not checked in: Kites, Wrens — start without them?" in text
    assert "Start Swiss without them" in text
    swiss.refresh_from_db()
    assert swiss.status == Stage.Status.PENDING  # asking changed nothing
    ids = f"{team('Kites').pk},{team('Wrens').pk}"
    assert f'name="without" value="{ids}"' in text
    started = director.post(url, {"confirmed": "yes", "without": ids})
    assert started.status_code == 302
    swiss.refresh_from_db()
    assert swiss.status == Stage.Status.RUNNING
    assert sorted(swiss.entries.values_list("team__name", flat=True)) == ["Larks", "Owls", "Ravens"]


def test_a_start_confirmed_before_another_team_was_checked_out_asks_again(
    club: Club, evening: Tournament
) -> None:
    director = club.client("director")
    swiss = stage(club, evening)
    ids = f"{team('Kites').pk},{team('Wrens').pk}"
    competition.team_check_out(actor=club.users["director"], team=team("Larks"))
    asked = director.post(
        f"/desk/friday/stages/{swiss.pk}/start/", {"confirmed": "yes", "without": ids}
    )
    assert asked.status_code == 200
    assert "3 teams registered are not checked in: Kites, Larks, Wrens" in asked.content.decode()
    swiss.refresh_from_db()
    assert swiss.status == Stage.Status.PENDING


@pytest.mark.parametrize("without", ["", "x,y", "²", "1" * 5000, ",,,", "-3"])
def test_a_start_naming_no_team_it_leaves_out_changes_nothing(
    club: Club, evening: Tournament, without: str
) -> None:
    swiss = stage(club, evening)
    answer = club.client("director").post(
        f"/desk/friday/stages/{swiss.pk}/start/", {"confirmed": "yes", "without": without}
    )
    assert answer.status_code == 200  # asked again, naming them
    swiss.refresh_from_db()
    assert swiss.status == Stage.Status.PENDING


def test_a_late_check_in_is_refused_in_words_where_the_stage_cannot_take_it(
    club: Club, evening: Tournament
) -> None:
    knockout = stage(club, evening, name="Knockout", format="single_elimination", rounds=None)
    competition.stage_start(actor=club.users["director"], stage=knockout)
    page = club.client("director").post(
        "/desk/friday/teams/act/", {"check_in": team("Wrens").pk}, follow=True
    )
    assert "Knockout has started: its draw is fixed; Wrens cannot join it." in (
        page.content.decode()
    )
    assert Registration.objects.get(team__name="Wrens").checked_in_at is None


def test_a_late_check_in_is_told_the_round_it_joins(club: Club, evening: Tournament) -> None:
    swiss = stage(club, evening, late_entry=True)
    competition.stage_start(actor=club.users["director"], stage=swiss)
    page = club.client("director").post(
        "/desk/friday/teams/act/", {"check_in": team("Wrens").pk}, follow=True
    )
    assert "Wrens checked in. Wrens plays in Swiss." in page.content.decode()
    assert swiss.entries.filter(team__name="Wrens", joined_round=1).exists()


def test_a_late_check_in_is_told_the_round_it_joins_in_the_directors_language(
    club: Club, evening: Tournament
) -> None:
    """(docs/languages.md: the desk's messages are in the page's language, the names as typed)"""
    swiss = stage(club, evening, late_entry=True)
    competition.stage_start(actor=club.users["director"], stage=swiss)
    director = club.client("director")
    director.cookies[settings.LANGUAGE_COOKIE_NAME] = "hi"
    page = director.post("/desk/friday/teams/act/", {"check_in": team("Wrens").pk}, follow=True)
    assert "Wrens का चेक-इन हो गया। Wrens Swiss में खेलती है।" in page.content.decode()


def test_a_withdrawal_is_undone_by_its_button_until_its_forfeit_counts(
    club: Club, evening: Tournament
) -> None:
    director = club.client("director")
    league = stage(club, evening, name="League", format="round_robin", rounds=None,
                   start_matches=False)  # fmt: skip
    competition.stage_start(actor=club.users["director"], stage=league)
    draft = competition.round_pair(actor=club.users["director"], stage=league)
    gone = draft.fixtures.get(team_b__isnull=False).team_a  # three teams: a match and a bye
    assert gone is not None
    withdraw = {"withdraw": gone.pk, "confirmed": "yes"}
    assert director.post("/desk/friday/teams/act/", withdraw).status_code == 302
    assert "Undo withdrawal" in director.get("/desk/friday/").content.decode()
    page = director.post("/desk/friday/teams/act/", {"reinstate": gone.pk}, follow=True)
    assert f"{gone.name} is back in the tournament." in page.content.decode()
    assert Registration.objects.get(team=gone).withdrawn_at is None
    # withdrawn again, and its round published: its forfeit and the bye decide it, it is
    # complete, and the forfeit counts
    director.post("/desk/friday/teams/act/", withdraw)
    director.post(f"/desk/friday/rounds/{draft.pk}/publish/")
    draft.refresh_from_db()
    assert draft.status == "complete"
    assert "Undo withdrawal" not in director.get("/desk/friday/").content.decode()
    page = director.post("/desk/friday/teams/act/", {"reinstate": gone.pk}, follow=True)
    assert f"{gone.name}&#x27;s withdrawal can no longer be undone: it forfeited round 1 of " in (
        page.content.decode()
    )
    assert Registration.objects.get(team=gone).withdrawn_at is not None


@pytest.mark.parametrize("who", ["outsider", "scorekeeper"])
def test_only_a_director_starts_checks_in_or_undoes_a_withdrawal_at_the_desk(
    club: Club, evening: Tournament, who: str
) -> None:
    swiss = stage(club, evening)
    competition.team_withdraw(actor=club.users["director"], team=team("Owls"))
    client = club.client(who)
    for url, data in (
        (f"/desk/friday/stages/{swiss.pk}/start/", {"confirmed": "yes", "without": "1,2"}),
        ("/desk/friday/teams/act/", {"check_in": team("Wrens").pk}),
        ("/desk/friday/teams/act/", {"reinstate": team("Owls").pk}),
    ):
        assert client.post(url, data).status_code == 404
    swiss.refresh_from_db()
    assert swiss.status == Stage.Status.PENDING
    assert Registration.objects.get(team__name="Wrens").checked_in_at is None
    assert Registration.objects.get(team__name="Owls").withdrawn_at is not None
