"""A small club evening for the web pages: four teams whose players have accounts, a
round-robin stage in score mode asking the other team's confirmation (round 1 published, its
two matches started), a digital match in play, a director, a score-keeper and an outsider."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.test import Client, TestCase

from competition import demo
from competition import services as competition
from competition.models import Round, Stage
from tournaments import matchlog
from tournaments.access import SYSTEM
from tournaments.models import Match, Player, Tournament
from tournaments.services import match_append_event, match_create

TEAMS = ["North", "South", "East", "West"]


class CommittingClient(Client):
    """A client whose requests run their on-commit work (the projections) as a committed
    request would: the test's own transaction never commits."""

    def request(self, *args: Any, **kwargs: Any) -> Any:
        with TestCase.captureOnCommitCallbacks(execute=True):
            return super().request(*args, **kwargs)


@dataclass
class Club:
    users: dict[str, Any]
    tournament: Tournament
    stage: Stage
    round: Round
    matches: list[Match]  # the round's two score matches, in progress
    digital: Match  # a digital match with a deal in play

    def client(self, who: str | None = None) -> Client:
        client = CommittingClient()
        if who is not None:
            client.force_login(self.users[who])
        return client

    def player_of(self, match: Match, team: int, n: int = 0) -> str:
        """Return the user name (a key of ``users``) of a player of team 0 or 1 of ``match``."""
        side = match.team0 if team == 0 else match.team1
        player = side.first_player if n == 0 else side.second_player
        return player.user.username


def with_password(user: Any, raw: str) -> Any:
    """Give ``user`` the password ``raw``, hashed with few iterations (a fast test set-up;
    Django's check reads the count the hash holds)."""
    user.password = PBKDF2PasswordHasher().encode(raw, "testsalt", 1000)
    user.save(update_fields=["password"])
    return user


def friendly(club: Club) -> Match:
    """A score match outside the stage, started, the other team's confirmation asked."""
    match = match_create(
        tournament=club.tournament,
        team0=club.matches[0].team0,
        team1=club.matches[1].team1,
        mode="score",
        match_format={"bazzis": 1, "deal_cap": 3},
    )
    Match.objects.filter(pk=match.pk).update(confirmation="other_team")
    match.scorekeepers.add(club.users["scorekeeper"])
    match_append_event(
        match=match,
        expected_seq=0,
        kind=matchlog.MATCH_STARTED,
        payload={"first_dealer": 0},
        actor=SYSTEM,
    )
    match.refresh_from_db()
    return match


def make_club(
    *,
    teams: list[str] = TEAMS,
    published: bool = True,
    tag: str = "",
    start_matches: bool = True,
    confirmation: str = "other_team",
) -> Club:
    """Build the club evening; ``tag`` prefixes the slug and the user names (a second club);
    ``start_matches=False``: the round's matches wait to be started at their tables;
    ``confirmation``: how the stage's results are confirmed."""
    accounts = get_user_model().objects
    users = {
        name: with_password(
            accounts.create_user(tag + name, is_staff=name == "director"), tag + name
        )
        for name in ("director", "scorekeeper", "outsider")
    }
    director = users["director"]
    tournament = Tournament.objects.create(
        name=f"Club night {tag}".strip(),
        slug=f"{tag}club-night",
        organizer=director,
        published=published,
    )
    registered = []
    for i, name in enumerate(teams):
        players = []
        for n in (1, 2):
            username = f"{tag}{name.lower()}{n}"
            users[username] = with_password(accounts.create_user(username), username)
            players.append(Player.objects.create(name=f"{name} {n}", user=users[username]))
        registered.append(
            competition.team_register(
                actor=director,
                tournament=tournament,
                name=name,
                first_player=players[0],
                second_player=players[1],
                seed=i + 1,
                checked_in=True,
            )
        )
    stage = competition.stage_create(
        actor=director,
        tournament=tournament,
        name="Round robin",
        format=Stage.Format.ROUND_ROBIN,
        mode="score",
        match_format={"bazzis": 1, "deal_cap": 1},
        confirmation=confirmation,
        start_matches=start_matches,
    )
    stage.scorekeepers.add(users["scorekeeper"])
    competition.stage_start(actor=director, stage=stage)
    round_ = competition.round_pair(actor=director, stage=stage)
    competition.round_publish(actor=director, round=round_)
    matches = list(
        Match.objects.filter(fixture__round=round_).select_related("team0", "team1").order_by("pk")
    )
    digital = match_create(
        tournament=tournament, team0=registered[0], team1=registered[1], mode="digital"
    )
    rng = random.Random(7)
    match_append_event(
        match=digital,
        expected_seq=0,
        kind=matchlog.MATCH_STARTED,
        payload={"first_dealer": 0},
        actor=SYSTEM,
        shuffle=matchlog.repeatable_decks(rng),
    )
    demo.play(digital, rng, moves=6)
    digital.refresh_from_db()
    return Club(users, tournament, stage, round_, matches, digital)


@pytest.fixture
def club(db: None, django_capture_on_commit_callbacks: Any) -> Club:
    with django_capture_on_commit_callbacks(execute=True):
        return make_club()


# --- The browser tests' fixtures -----------------------------------------------------------
# (tests/web/browser.py, imported when a test asks for one: importing it skips a module when
# Chromium, axe-core or Playwright is missing, which must not skip every test of this folder)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's headless Chromium, one a test module (asking for it marks a test ``browser``)."""
    from .browser import launched

    yield from launched()


@pytest.fixture
def live_club(transactional_db: None) -> Club:
    """The small club, written where the live server's thread reads it."""
    from .browser import database

    with database():
        return make_club()


@pytest.fixture
def contexts(browser: Any) -> Iterator[list[Any]]:
    """The browser contexts a test opens, closed at its end (no page polls the next test)."""
    from .browser import closing

    yield from closing([])
