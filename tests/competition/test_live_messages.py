"""Every change a tournament's live pages show publishes a live message naming that tournament,
from the service that made it: no ORM receiver (a ``QuerySet.update`` passes every receiver
by), so each service says so itself (docs/architecture.md, "Live pages").

The witness is the database itself: before and after each service call, every row of what the
pages show is read; any tournament whose rows differ must have been named by a message sent
after the commit (``live.listen``), whatever way the service wrote them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db.models import F, Model

import live
from competition import demo, services
from competition.models import (
    CutDecision,
    Fixture,
    Notice,
    Registration,
    Round,
    Stage,
    StageEntry,
    StandingRow,
    StandingsCheckpoint,
)
from live.messages import OF_A_TOURNAMENT
from tests.scoring.helpers import committed
from tournaments.access import SYSTEM
from tournaments.models import Club as ClubRow
from tournaments.models import Player, Team, Tournament
from tournaments.privacy import erase_member

from .helpers import Club, make_club

pytestmark = pytest.mark.django_db

#: each model the pages show, and the path from one of its rows to its tournament
WATCHED: list[tuple[type[Model], str]] = [
    (Tournament, "pk"),
    (Team, "tournament_id"),
    (Registration, "team__tournament_id"),
    (Stage, "tournament_id"),
    (StageEntry, "stage__tournament_id"),
    (Round, "stage__tournament_id"),
    (Fixture, "stage__tournament_id"),
    (StandingsCheckpoint, "stage__tournament_id"),
    (StandingRow, "stage__tournament_id"),
    (CutDecision, "stage__tournament_id"),
    (Notice, "stage__tournament_id"),
]


def _rows() -> dict[tuple[str, Any], tuple[int, tuple[Any, ...]]]:
    """Every watched row: (model, pk) -> (its tournament, its values)."""
    out = {}
    for model, path in WATCHED:
        names = [f.attname for f in model._meta.concrete_fields]
        for row in model.objects.values(*names, owner=F(path)):
            owner = row.pop("owner")
            out[(model.__name__, row[model._meta.pk.attname])] = (owner, tuple(row.values()))
    return out


def _told(messages: list[str]) -> set[int]:
    """The tournaments the messages name."""
    named = set()
    for raw in messages:
        message = live.Message.decode(raw)
        assert message is not None, raw
        if message.topic in OF_A_TOURNAMENT:
            named.add(message.id)
        elif message.tournament is not None:
            named.add(message.tournament)
    return named


@contextmanager
def watched(what: str) -> Iterator[None]:
    """Run the block as one committed change, and fail unless each tournament whose shown
    rows it changed was named by a message once it committed."""
    before = _rows()
    heard: list[str] = []
    undo = live.listen(heard.append)
    try:
        with committed():
            yield
    finally:
        undo()
    after = _rows()
    changed = {
        owner
        for key in before.keys() | after.keys()
        if before.get(key) != after.get(key)
        for owner, _ in filter(None, (before.get(key), after.get(key)))
    }
    assert changed, f"{what}: changed nothing the pages show (the script is wrong)"
    missing = changed - _told(heard)
    assert not missing, f"{what}: tournaments {missing} changed, no message named them: {heard}"


def _step(what: str, call: Callable[[], Any]) -> Any:
    with watched(what):
        return call()


def test_every_service_that_changes_what_the_pages_show_names_its_tournament() -> None:
    club = make_club(8, slug="told-cup")
    organizer, t = club.organizer, club.tournament
    rng = random.Random(7)
    _step(
        "tournament_create",
        lambda: services.tournament_create(actor=organizer, club=None, name="Told Two"),
    )
    _step(
        "tournament_update",
        lambda: services.tournament_update(actor=organizer, tournament=t, name="Told Cup"),
    )
    players = [Player.objects.create(name=f"told extra {i}") for i in range(2)]
    extra = _step(
        "team_register",
        lambda: services.team_register(
            actor=organizer,
            tournament=t,
            name="Latecomers",
            first_player=players[0],
            second_player=players[1],
        ),
    )
    _step("team_rename", lambda: services.team_rename(actor=organizer, team=extra, name="Late"))
    _step(
        "team_language", lambda: services.team_language(actor=organizer, team=extra, language="hi")
    )
    _step("team_check_in", lambda: services.team_check_in(actor=organizer, team=extra))
    _step("team_check_out", lambda: services.team_check_out(actor=organizer, team=extra))
    _step(
        "registration_update",
        lambda: services.registration_update(actor=organizer, team=extra, seed=9, rating=1500),
    )
    _step(
        "team_enter",
        lambda: services.team_enter(
            actor=organizer,
            tournament=t,
            name="Walk-ins",
            people=[("Walk One", None), ("Walk Two", None)],
        ),
    )

    swiss = _step("stage_create", lambda: club.stage(format="swiss", rounds=2))
    spare = _step("stage_create (a second)", lambda: club.stage(format="swiss", rounds=1))
    _step("stage_remove", lambda: services.stage_remove(actor=organizer, stage=spare))
    _step(
        "stage_update",
        lambda: services.stage_update(actor=organizer, stage=swiss, name="Swiss rounds"),
    )
    _step("stage_start", lambda: services.stage_start(actor=organizer, stage=swiss))
    draft = _step("round_pair", lambda: club.pair(swiss))
    _step(
        "round_edit",
        lambda: services.round_edit(actor=organizer, round=draft, swap_tables=(1, 2)),
    )
    draft = _step(
        "round_discard",
        lambda: services.round_discard(actor=organizer, round=draft, pair_again=True),
    )
    _step("round_publish", lambda: services.round_publish(actor=organizer, round=draft))
    _step("round_unpublish", lambda: services.round_unpublish(actor=organizer, round=draft))
    _step("round_publish (again)", lambda: services.round_publish(actor=organizer, round=draft))
    _play_one(club, draft, rng)

    late = Team.objects.get(name="Walk-ins")
    _step("team_withdraw", lambda: services.team_withdraw(actor=organizer, team=club.teams[7]))
    _step("team_reinstate", lambda: services.team_reinstate(actor=organizer, team=club.teams[7]))
    _step("team_update", lambda: _update(club, late))


def _play_one(club: Club, round_: Round, rng: random.Random) -> None:
    """A match of the round played to its end: its result, its fixture, the standings."""
    fixture = Fixture.objects.filter(round=round_, match__isnull=False).first()
    assert fixture is not None and fixture.match is not None
    _step("a match played (its result followed)", lambda: demo.play(fixture.match, rng))


def _update(club: Club, team: Team) -> Any:
    return services.team_update(
        actor=club.organizer,
        team=team,
        name="Walk-ins United",
        seed=team.registration.seed,
        rating=team.registration.rating,
    )


def test_a_team_renamed_in_the_admin_names_its_tournament(client: Any) -> None:
    club = make_club(2, slug="admin-told")
    team = club.teams[0]
    admin = get_user_model().objects.create_superuser("told-admin", password="pw")
    client.force_login(admin)
    form = {
        "name": "Renamed Here",
        "first_player": team.first_player_id,
        "second_player": team.second_player_id,
    }
    with watched("the admin's team change"):
        response = client.post(f"/admin/tournaments/team/{team.pk}/change/", form)
    assert response.status_code == 302, response.content[:2000]
    team.refresh_from_db()
    assert team.name == "Renamed Here"


def test_a_member_erased_names_the_tournaments_whose_teams_held_their_name() -> None:
    club = make_club(2, slug="erased-told")
    member = club.teams[0].first_player
    member.club = ClubRow.objects.create(name="Erased Told Club", slug="erased-told-club")
    member.save(update_fields=["club"])
    name = member.name
    Team.objects.filter(pk=club.teams[0].pk).update(name=f"{name} and partner")
    with watched("an erasure"):
        erase_member(actor=SYSTEM, member=member)  # as the erasure command does
    assert name not in Team.objects.get(pk=club.teams[0].pk).name
