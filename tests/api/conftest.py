"""A small league to call the API in: two tournaments of two organizers, their people, tokens;
and two clubs with their members, a club's tournament and tokens of every scope."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import TestCase
from rest_framework.test import APIClient

from api.models import ApiToken
from competition import services as competition
from tournaments import clubs
from tournaments.access import SYSTEM
from tournaments.models import Club, Match, Player, Team, Tournament
from tournaments.services import match_append_event

from ..shared import Shared, built_once


class CommittingClient(APIClient):
    """An API client whose every request runs its on-commit work (projections, webhooks) as
    a committed request would: the test's own transaction never commits."""

    def request(self, *args: Any, **kwargs: Any) -> Any:
        with TestCase.captureOnCommitCallbacks(execute=True):
            return super().request(*args, **kwargs)


@dataclass
class League:
    """Tournament A (published) and B (private), each with a digital and a score match."""

    users: dict[str, Any]
    a: Tournament
    b: Tournament
    teams_a: list[Team]
    teams_b: list[Team]
    digital: Match  # in A: teams_a[0] v teams_a[1]
    score: Match  # in A: teams_a[2] v teams_a[3]
    private_match: Match  # in B
    tokens: dict[str, str] = field(default_factory=dict)

    def client(self, who: str | None = None, *, token: str | None = None) -> APIClient:
        """Return a client signed in as ``who`` (None: anonymous), or sending a token."""
        client = CommittingClient()
        if token is not None:
            client.credentials(HTTP_AUTHORIZATION=f"Bearer {self.tokens[token]}")
        elif who is not None:
            client.force_login(self.users[who])
        return client


def _teams(
    tournament: Tournament, organizer: Any, prefix: str, users: dict[str, Any]
) -> list[Team]:
    accounts = get_user_model().objects
    teams = []
    for t in range(4):
        players = []
        for p in range(2):
            name = f"{prefix}{t}{p}"
            users[name] = accounts.create_user(name)
            players.append(Player.objects.create(name=name, user=users[name]))
        teams.append(
            competition.team_register(
                actor=organizer,
                tournament=tournament,
                name=f"{prefix.upper()} team {t}",
                first_player=players[0],
                second_player=players[1],
                checked_in=True,
            )
        )
    return teams


def _build_league() -> League:
    accounts = get_user_model().objects
    users = {
        name: accounts.create_user(name)
        for name in ("organizer_a", "organizer_b", "director_a", "keeper_a", "keeper_b", "outsider")
    }
    a = Tournament.objects.create(
        name="Cup A", slug="cup-a", organizer=users["organizer_a"], published=True
    )
    a.directors.add(users["director_a"])
    b = Tournament.objects.create(name="Cup B", slug="cup-b", organizer=users["organizer_b"])
    teams_a = _teams(a, users["organizer_a"], "a", users)
    teams_b = _teams(b, users["organizer_b"], "b", users)

    def match(tournament: Tournament, teams: list[Team], mode: str, keeper: str) -> Match:
        m = Match.objects.create(
            tournament=tournament,
            team0=teams[0],
            team1=teams[1],
            mode=mode,
            rules=tournament.rules,
            match_format={"bazzis": 3},
        )
        m.scorekeepers.add(users[keeper])
        match_append_event(
            match=m, expected_seq=0, kind="match_started", payload={"first_dealer": 3}, actor=SYSTEM
        )
        return m

    league = League(
        users,
        a,
        b,
        teams_a,
        teams_b,
        digital=match(a, teams_a[:2], "digital", "keeper_a"),
        score=match(a, teams_a[2:], "score", "keeper_a"),
        private_match=match(b, teams_b[:2], "digital", "keeper_b"),
    )
    for name, owner, tournament, write in (
        ("a_write", "organizer_a", a, True),
        ("a_read", "organizer_a", a, False),
        ("b_write", "organizer_b", b, True),
    ):
        _, text = ApiToken.objects.create(
            user=users[owner],
            expiry=timedelta(days=1),
            name=name,
            tournament=tournament,
            write=write,
        )
        league.tokens[name] = text
    return league


@pytest.fixture(scope="module")
def _league_once(django_db_setup: None, django_db_blocker: Any) -> Iterator[Shared[League]]:
    yield from built_once(_build_league, django_db_blocker)


@pytest.fixture
def league(_league_once: Shared[League], request: pytest.FixtureRequest, db: None) -> League:
    """Tournaments A and B, their people and tokens: built once a module (tests/shared.py)."""
    return _league_once.for_test(request)


@pytest.fixture
def fresh_cache(settings: Any) -> None:
    """The cache under a key prefix of this test's own: counts start at zero, and nothing
    of another test (another xdist worker on the same Redis) is counted or wiped. Not
    ``cache.clear()``: on Redis that empties the whole database, the broker's queues too."""
    settings.CACHES = {
        name: {**config, "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}
        for name, config in settings.CACHES.items()
    }


@dataclass
class Clubs:
    """Two clubs, each with its director; club one with members (one with an account, a
    stranger's account on the site besides) and a tournament; tokens of every kind."""

    users: dict[str, Any]
    one: Club
    two: Club
    members: dict[str, Player]
    cup: Tournament
    tokens: dict[str, str]

    def client(self, who: str | None = None, *, token: str | None = None) -> CommittingClient:
        """Return a client signed in as ``who`` (None: anonymous), or sending a token."""
        client = CommittingClient()
        if token is not None:
            client.credentials(HTTP_AUTHORIZATION=f"Bearer {self.tokens[token]}")
        elif who is not None:
            client.force_login(self.users[who])
        return client


def _build_scene() -> Clubs:
    accounts = get_user_model().objects
    users = {n: accounts.create_user(n) for n in ("asha", "dev", "ravi", "kiran", "stranger")}
    one = clubs.club_create(actor=users["asha"], name="Friday club")
    two = clubs.club_create(actor=users["ravi"], name="Other club")
    members = {
        "bina": clubs.member_add(actor=users["asha"], club=one, name="Bina", contact="bina@x"),
        "chetan": clubs.member_add(actor=users["asha"], club=one, name="Chetan"),
        "dev": clubs.member_add(actor=users["asha"], club=one, name="Dev", user=users["dev"]),
        "kiran": clubs.member_add(
            actor=users["ravi"], club=two, name="Kiran", user=users["kiran"], contact="k@y"
        ),
    }
    cup = competition.tournament_create(actor=users["asha"], club=one, name="Cup")
    tokens = {}
    for name, owner, scope, write in (
        ("club_write", "asha", {"club": one}, True),
        ("club_read", "asha", {"club": one}, False),
        ("cup_write", "asha", {"tournament": cup}, True),
        ("two_write", "ravi", {"club": two}, True),
    ):
        _, tokens[name] = ApiToken.objects.create(
            user=users[owner], expiry=timedelta(days=1), name=name, write=write, **scope
        )
    return Clubs(users, one, two, members, cup, tokens)


@pytest.fixture(scope="module")
def _scene_once(django_db_setup: None, django_db_blocker: Any) -> Iterator[Shared[Clubs]]:
    yield from built_once(_build_scene, django_db_blocker)


@pytest.fixture
def scene(_scene_once: Shared[Clubs], request: pytest.FixtureRequest, db: None) -> Clubs:
    """The two clubs, their members, a tournament and tokens: built once a module."""
    return _scene_once.for_test(request)
