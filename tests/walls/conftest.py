"""Two clubs, each with one of everything a club holds: a director and a club token, members
(one invited), an evening with four teams (their links), a started stage whose round is
published, a draft stage, a digital match in play, a notice, a webhook, a season.

Club B's names carry ``ZEBRA``: an answer to club A that shows that word shows B's data.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client, TestCase
from rest_framework.test import APIClient

from api import services as api_services
from api.models import ApiToken, Webhook
from competition import demo
from competition import services as competition
from competition.models import Notice, Round, Stage
from seasons.models import Season
from seasons.services.seasons import season_create
from tournaments import clubs, invites, links, matchlog
from tournaments.access import SYSTEM
from tournaments.models import Club, Match, MemberInvite, Player, Team, TeamLink, Tournament
from tournaments.services import match_append_event, match_create

#: the word every name of club B holds
MARK = "ZEBRA"


class CommittingClient(APIClient):
    """A client whose requests run their on-commit work as a committed request would."""

    def request(self, *args: Any, **kwargs: Any) -> Any:
        with TestCase.captureOnCommitCallbacks(execute=True):
            return super().request(*args, **kwargs)


@dataclass
class Side:
    """One club and one of each of its rows."""

    director: Any
    club: Club
    tournament: Tournament
    teams: list[Team]
    stage: Stage
    draft_stage: Stage
    round: Round
    match: Match  # a match of the published round, started
    digital: Match  # a digital match, a deal in play
    member: Player
    invite: MemberInvite
    link: TeamLink
    notice: Notice
    webhook: Webhook
    token: ApiToken
    token_text: str
    season: Season

    @property
    def team(self) -> Team:
        return self.teams[0]


def build(tag: str, *, published: bool) -> Side:
    """Build one club; ``tag`` goes in every name and user name."""
    accounts = get_user_model().objects
    director = accounts.create_user(f"{tag.lower()}_director", is_staff=True)
    club = clubs.club_create(actor=director, name=f"{tag} club")
    members = []
    for n in range(8):
        user = accounts.create_user(f"{tag.lower()}_member{n}")
        members.append(clubs.member_add(actor=director, club=club, name=f"{tag} {n}", user=user))
    spare = clubs.member_add(actor=director, club=club, name=f"{tag} spare", contact="s@x")
    invite, _ = invites.member_invite(actor=director, member=spare)
    tournament = competition.tournament_create(
        actor=director, club=club, name=f"{tag} evening", published=published
    )
    teams = [
        competition.team_register(
            actor=director,
            tournament=tournament,
            name=f"{tag} team {t}",
            first_player=members[2 * t],
            second_player=members[2 * t + 1],
            seed=t + 1,
            checked_in=True,
        )
        for t in range(4)
    ]
    stage = competition.stage_create(
        actor=director,
        tournament=tournament,
        name=f"{tag} round robin",
        format=Stage.Format.ROUND_ROBIN,
        mode="score",
        match_format={"bazzis": 1, "deal_cap": 1},
        confirmation="other_team",
    )
    competition.stage_start(actor=director, stage=stage)
    round_ = competition.round_pair(actor=director, stage=stage)
    competition.round_publish(actor=director, round=round_)
    match = Match.objects.filter(fixture__round=round_).order_by("pk").first()
    assert match is not None
    draft_stage = competition.stage_create(
        actor=director,
        tournament=tournament,
        name=f"{tag} knockout",
        format=Stage.Format.ROUND_ROBIN,
        mode="score",
        match_format={"bazzis": 1, "deal_cap": 1},
    )
    digital = match_create(tournament=tournament, team0=teams[0], team1=teams[1], mode="digital")
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
    link, _ = links.team_link(actor=director, team=teams[0])
    notice = Notice.objects.create(
        stage=stage, fixture=match.fixture, code="walls", message=f"{tag} notice"
    )
    webhook = api_services.webhook_create(
        actor=director,
        tournament=tournament,
        url=f"https://{tag.lower()}.example.com/hook",
        kinds=["deal.recorded"],
    )
    token, token_text = api_services.token_create(
        user=director, name=f"{tag} token", club=club, expires_in_days=1, write=True
    )
    season = season_create(
        actor=director,
        club=club,
        name=f"{tag} season",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 12, 31),
    )
    side = Side(
        director=director,
        club=club,
        tournament=tournament,
        teams=teams,
        stage=stage,
        draft_stage=draft_stage,
        round=round_,
        match=match,
        digital=digital,
        member=members[0],
        invite=invite,
        link=link,
        notice=notice,
        webhook=webhook,
        token=token,
        token_text=token_text,
        season=season,
    )
    return side


@dataclass
class Walls:
    a: Side
    b: Side

    def api(self, *, token: bool) -> APIClient:
        """Return an API client of club A's director: signed in, or with A's club token."""
        client = CommittingClient()
        if token:
            client.credentials(HTTP_AUTHORIZATION=f"Bearer {self.a.token_text}")
        else:
            client.force_login(self.a.director)
        return client

    def browser(self) -> Client:
        """Return a page client signed in as club A's director."""
        client = Client()
        client.force_login(self.a.director)
        return client


@pytest.fixture
def walls(db: None, django_capture_on_commit_callbacks: Any) -> Walls:
    with django_capture_on_commit_callbacks(execute=True):
        return Walls(a=build("Lotus", published=True), b=build(MARK, published=False))


#: the apps whose tables hold a club's data
CLUB_APPS = ("tournaments", "competition", "scoring", "seasons", "api")


def snapshot() -> dict[str, list[tuple[Any, ...]]]:
    """Return every row of every table of the club apps (and the accounts), in order: what
    the walk must leave as it found it."""
    tables = [m._meta.db_table for a in CLUB_APPS for m in apps.get_app_config(a).get_models()]
    tables.append(get_user_model()._meta.db_table)
    rows: dict[str, list[tuple[Any, ...]]] = {}
    with connection.cursor() as cursor:
        for table in sorted(set(tables)):
            cursor.execute(f'SELECT * FROM "{table}"')  # the models' own names
            rows[table] = sorted(cursor.fetchall(), key=repr)
    return rows


def changed(before: dict[str, list[Any]], after: dict[str, list[Any]]) -> list[str]:
    """Return the tables whose rows differ."""
    return [t for t in before if before[t] != after[t]]
