"""Registration: teams entered (from the club's roster), checked in, withdrawn, and changed."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from tournaments.access import is_club_director
from tournaments.clubs import club_members, name_key
from tournaments.models import (
    INTEGER_MAX,
    INTEGER_MIN,
    Club,
    Match,
    Player,
    Team,
    Tournament,
    refuse_control_characters,
)

from ..errors import InvalidSettings, NotNow
from ..models import Fixture, Registration, Round, Stage, StageEntry
from ..teamlines import TeamLine
from . import _common, brackets, rounds


def team_register(
    *,
    actor: Any,
    tournament: Tournament,
    name: str,
    first_player: Player,
    second_player: Player,
    rating: int | None = None,
    seed: int | None = None,
    checked_in: bool = False,
) -> Team:
    """Register a team of two players in ``tournament`` (checked in at once if asked).

    After a stage has started the team can play only in a stage that allows late entry.
    """
    _common.require_director(actor, tournament)
    team = Team(
        tournament=tournament, name=name, first_player=first_player, second_player=second_player
    )
    with transaction.atomic():
        # The tournament's row is the lock every registration takes: two at once could
        # otherwise both find a player free and seat them in two teams.
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        try:
            team.full_clean()
        except ValidationError as exc:
            raise InvalidSettings(" ".join(exc.messages), code="bad_team") from exc
        team.save()
        now = timezone.now()
        Registration.objects.create(
            team=team,
            tournament=tournament,
            rating=rating,
            seed=seed,
            checked_in_at=now if checked_in else None,
        )
        if checked_in:
            _late_entry(team)
    return team


def team_check_in(*, actor: Any, team: Team) -> Registration:
    """Check a registered team in: it plays in the next stage that starts (or joins a Swiss
    stage that allows late entry at its next round)."""
    _common.require_director(actor, team.tournament)
    with transaction.atomic():
        registration = _registration(team)
        if registration.withdrawn_at is not None:
            raise NotNow(f"{team} has withdrawn", code="team_withdrawn")
        if registration.checked_in_at is None:
            registration.checked_in_at = timezone.now()
            registration.save(update_fields=["checked_in_at"])
            _late_entry(team)
    return registration


def team_withdraw(*, actor: Any, team: Team) -> Registration:
    """Withdraw a team: it is paired no more, and its fixtures not yet played become
    forfeits or byes for its opponents, as each running stage says."""
    _common.require_director(actor, team.tournament)
    with transaction.atomic():
        registration = _registration(team)
        if registration.withdrawn_at is not None:
            return registration
        registration.withdrawn_at = timezone.now()
        registration.save(update_fields=["withdrawn_at"])
        pending = Fixture.objects.select_related("stage", "match").filter(
            Q(team_a=team) | Q(team_b=team), result=Fixture.Result.PENDING
        )
        stages = set()
        for fixture in pending:
            if fixture.match is not None and fixture.match.status != Match.Status.SCHEDULED:
                continue  # a match under way is played out (or forfeited by a director)
            withdrawn_from(fixture, team)
            stages.add(fixture.stage_id)
        for stage_id in sorted(stages):
            stage = Stage.objects.get(pk=stage_id)
            if stage.elimination:
                brackets.reconcile_bracket(stage)
            for round_ in stage.round_set.filter(status=Round.Status.PUBLISHED):
                rounds.complete_round_if_done(round_)
    return registration


def _registration(team: Team) -> Registration:
    registration, _ = Registration.objects.select_for_update().get_or_create(
        team=team, defaults={"tournament_id": team.tournament_id}
    )
    return registration


def withdrawn_from(fixture: Fixture, team: Team) -> None:
    """Apply the stage's withdrawal rule to a fixture of a withdrawn team not yet played."""
    side = "a" if fixture.team_a_id == team.pk else "b"
    other = fixture.team_b if side == "a" else fixture.team_a
    if fixture.match is not None:  # scheduled, never started: it will not be played
        fixture.match = None
    if other is None:  # its opponent is not known yet (a bracket slot): decided later
        fixture.save(update_fields=["match"])
        return
    if fixture.stage.withdrawal == Stage.Withdrawal.BYE and not fixture.stage.elimination:
        fixture.team_a, fixture.team_b, fixture.result = other, None, Fixture.Result.BYE
    else:
        fixture.result = Fixture.Result.FORFEIT_A if side == "a" else Fixture.Result.FORFEIT_B
    fixture.save(update_fields=["team_a", "team_b", "result", "match"])


def _late_entry(team: Team) -> None:
    """A team checked in after a stage started joins the stages that take late entries."""
    for stage in Stage.objects.filter(
        tournament_id=team.tournament_id,
        status=Stage.Status.RUNNING,
        late_entry=True,
        format=Stage.Format.SWISS,
    ):
        if stage.entries.filter(team=team).exists():
            continue
        last = stage.round_set.order_by("-number").values_list("number", flat=True).first() or 0
        seed = (stage.entries.order_by("-seed").values_list("seed", flat=True).first() or 0) + 1
        StageEntry.objects.create(stage=stage, team=team, seed=seed, joined_round=last + 1)


# --- teams from the club's roster ---------------------------------------------------------


@dataclass(frozen=True)
class PlannedPlayer:
    """A typed name as registering would take it: an existing member, or a new one."""

    name: str
    member: Player | None  # None: a new member of that name is made
    contact: str = ""  # the member's contact, for a director of the club only

    @property
    def note(self) -> str:
        if self.member is None:
            return "new member"
        return f"member #{self.member.pk}" + (f", {self.contact}" if self.contact else "")


@dataclass(frozen=True)
class PlannedTeam:
    """One team of a registration: what it would create, and why it cannot (``problems``)."""

    line: TeamLine
    first: PlannedPlayer
    second: PlannedPlayer
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


_LABELLED = re.compile(r"^(?P<name>.*?)\s*(?:#(?P<id>\d{1,18})|\((?P<contact>[^()]*)\))$")


class _Roster:
    """A club's members by ``name_key``, read once for a whole registration."""

    def __init__(self, club: Club | None, *, contacts: bool) -> None:
        self.contacts = contacts
        self.by_key: dict[str, list[Player]] = {}
        if club is not None:
            for member in club_members(club=club):
                self.by_key.setdefault(name_key(member.name), []).append(member)
        self.club = club

    def named(self, name: str) -> list[Player]:
        return self.by_key.get(name_key(name), [])

    def label(self, member: Player) -> str:
        return f"#{member.pk}" + (
            f" ({member.contact})" if self.contacts and member.contact else ""
        )

    def member_for(self, text: str) -> tuple[Player | None, str | None]:
        """Return the member ``text`` names (None: a new one) or why it cannot tell.

        A name matches the one member of that name (any case and spacing); where several share
        it, "Mohan #12" (or, for the club's directors, "Mohan (98450 12345)") says which. A
        name that merely ends like a label ("Dev (junior)") is a name first.
        """
        if self.club is None:
            return None, None
        found = self.named(text)
        if len(found) == 1:
            return found[0], None
        labelled = _LABELLED.match(text)
        if not found and labelled and self.named(labelled["name"]):
            among = self.named(labelled["name"])
            if labelled["id"]:
                picked = [m for m in among if str(m.pk) == labelled["id"]]
            else:
                picked = [m for m in among if m.contact.strip() == labelled["contact"].strip()]
            if len(picked) == 1:
                return picked[0], None
            return None, f"no member is {text}"
        if len(found) > 1:
            ids = ", ".join(self.label(m) for m in found)
            return (
                None,
                f"{len(found)} members are called {text} ({ids}): write which, as {text} #id",
            )
        return None, None


def teams_plan(
    *, tournament: Tournament, lines: Sequence[TeamLine], actor: Any = None
) -> list[PlannedTeam]:
    """Return what registering ``lines`` in ``tournament`` would do, team by team (reads only).

    A typed name matches the club's member of that name; a new name makes a new member. A
    team is refused (its ``problems``) when its name is taken in the tournament or used twice
    in the lines, or when a player already plays for a team of the tournament or is named in
    two lines. Members' contacts are shown to the club's directors only (``actor``).
    """
    taken_names: set[str] = set()
    playing: dict[int, str] = {}
    for name, first, second in Team.objects.filter(tournament=tournament).values_list(
        "name", "first_player_id", "second_player_id"
    ):
        taken_names.add(name.casefold())
        playing[first] = playing[second] = name
    club = tournament.club
    roster = _Roster(club, contacts=club is not None and is_club_director(actor, club))
    seen_names: dict[str, int] = {}
    seen_people: dict[object, int] = {}
    plan = []
    for line in lines:
        problems: list[str] = []
        for text in (line.name, line.first, line.second):
            try:
                refuse_control_characters(text)
            except ValidationError as exc:
                problems.append(f"{text!r}: {' '.join(exc.messages)}")
        key = line.name.casefold()
        if key in taken_names:
            problems.append(f"a team called {line.name} is registered already")
        elif key in seen_names:
            problems.append(f"the team name {line.name} is on line {seen_names[key]} too")
        seen_names.setdefault(key, line.line)
        people = []
        for typed in (line.first, line.second):
            member, why = roster.member_for(typed)
            if why:
                problems.append(why)
            person: object = member.pk if member else name_key(typed)
            if member is not None and member.pk in playing:
                problems.append(f"{member.name} already plays for {playing[member.pk]}")
            elif person in seen_people:
                problems.append(f"{typed} is on line {seen_people[person]} too")
            seen_people.setdefault(person, line.line)
            contact = member.contact if member is not None and roster.contacts else ""
            people.append(PlannedPlayer(member.name if member else typed, member, contact))
        if people[0].member is not None and people[0].member == people[1].member:
            problems.append("a team is two different players")
        plan.append(PlannedTeam(line, people[0], people[1], tuple(problems)))
    return plan


def teams_register(
    *, actor: Any, tournament: Tournament, lines: Sequence[TeamLine], checked_in: bool = False
) -> list[Team]:
    """Register every team of ``lines``, all or nothing, making the new members they name.

    Refused (InvalidSettings, code ``bad_team``, every problem in its message) if any team of
    the plan has a problem; nothing is written then.
    """
    _common.require_director(actor, tournament)
    if not lines:
        raise InvalidSettings("name at least one team", code="bad_team")
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        plan = teams_plan(tournament=tournament, lines=lines, actor=actor)
        problems = [f"line {p.line.line}: {why}" for p in plan for why in p.problems]
        if problems:
            raise InvalidSettings("; ".join(problems), code="bad_team")
        teams = []
        for planned in plan:
            players = []
            for person in (planned.first, planned.second):
                players.append(
                    person.member
                    or _new_member(tournament, person.name, where=f"line {planned.line.line}: ")
                )
            teams.append(
                team_register(
                    actor=actor,
                    tournament=tournament,
                    name=planned.line.name,
                    first_player=players[0],
                    second_player=players[1],
                    seed=planned.line.seed,
                    rating=planned.line.rating,
                    checked_in=checked_in,
                )
            )
    return teams


def _new_member(tournament: Tournament, name: str, *, user: Any = None, where: str = "") -> Player:
    """Make a new member of the tournament's club, checked as every member is (InvalidSettings,
    ``where`` before the reason, if the name is refused)."""
    member = Player(name=name, user=user, club_id=tournament.club_id)
    try:
        member.full_clean()
    except ValidationError as exc:
        raise InvalidSettings(where + " ".join(exc.messages), code="bad_team") from exc
    member.save()
    return member


# --- changing a registration --------------------------------------------------------------


def registration_fixed(tournament_id: int) -> bool:
    """Whether a stage of the tournament has started: seeds, ratings, check-ins and
    withdrawals are then fixed (undoing one is refused)."""
    return (
        Stage.objects.filter(tournament_id=tournament_id)
        .exclude(status=Stage.Status.PENDING)
        .exists()
    )


def team_rename(*, actor: Any, team: Team, name: str) -> Team:
    """Rename a team (its matches and standings show the new name at once)."""
    _common.require_director(actor, team.tournament)
    with transaction.atomic():
        locked = Team.objects.select_for_update().get(pk=team.pk)
        locked.name = " ".join((name or "").split())
        try:
            locked.full_clean()
        except ValidationError as exc:
            raise InvalidSettings(" ".join(exc.messages), code="bad_team") from exc
        locked.save(update_fields=["name"])
    return locked


def registration_update(
    *, actor: Any, team: Team, seed: int | None, rating: int | None
) -> Registration:
    """Change a team's seed and rating: only before the first stage starts (it seeds from them)."""
    _common.require_director(actor, team.tournament)
    with transaction.atomic():
        registration = _registration(team)
        if registration_fixed(team.tournament_id):
            raise NotNow(
                "seeds and ratings are fixed once a stage has started", code="stage_started"
            )
        for value in (seed, rating):
            if value is not None and not INTEGER_MIN <= value <= INTEGER_MAX:
                raise InvalidSettings("that number is too large", code="bad_team")
        if seed is not None and seed < 1:
            raise InvalidSettings("a seed is 1 or more", code="bad_team")
        registration.seed, registration.rating = seed, rating
        registration.save(update_fields=["seed", "rating"])
    return registration


def _undo(actor: Any, team: Team, field: str, what: str) -> Registration:
    """Clear a registration's check-in or withdrawal, only while no stage has started."""
    _common.require_director(actor, team.tournament)
    with transaction.atomic():
        registration = _registration(team)
        if getattr(registration, field) is None:
            return registration
        if registration_fixed(team.tournament_id):
            raise NotNow(
                f"{what} can be undone only before the first stage starts", code="stage_started"
            )
        setattr(registration, field, None)
        registration.save(update_fields=[field])
    return registration


def team_reinstate(*, actor: Any, team: Team) -> Registration:
    """Undo a withdrawal: only while no stage has started (nothing was forfeited yet)."""
    return _undo(actor, team, "withdrawn_at", "a withdrawal")


def team_check_out(*, actor: Any, team: Team) -> Registration:
    """Undo a check-in: only while no stage has started (a started stage took its teams)."""
    return _undo(actor, team, "checked_in_at", "a check-in")


def team_update(*, actor: Any, team: Team, name: str, seed: int | None, rating: int | None) -> Team:
    """Rename a team and change its seed and rating, all or nothing (the seed and the rating
    only before the first stage starts, and only if they change)."""
    _common.require_director(actor, team.tournament)
    with transaction.atomic():
        registration = _registration(team)
        if name != team.name:
            team = team_rename(actor=actor, team=team, name=name)
        if (seed, rating) != (registration.seed, registration.rating):
            registration_update(actor=actor, team=team, seed=seed, rating=rating)
    return team


def team_enter(
    *,
    actor: Any,
    tournament: Tournament,
    name: str,
    people: Sequence[tuple[str, Any] | Player],
    rating: int | None = None,
    seed: int | None = None,
    checked_in: bool = False,
) -> Team:
    """Register a team of the two people named, all or nothing. Each is a member of the
    tournament's club (a ``Player``: refused, like any line-up, if they play for another team
    of the tournament or belong to another club), or a name and an account or None: a person
    with an account is the club's member with that account when there is one; anyone else
    becomes a new member of the tournament's club."""
    _common.require_director(actor, tournament)
    if len(people) != 2:
        raise InvalidSettings("a team is two players", code="bad_team")
    with transaction.atomic():
        players = []
        for person in people:
            if isinstance(person, Player):
                players.append(person)
                continue
            person_name, user = person
            member = None
            if user is not None and tournament.club_id is not None:
                member = (
                    Player.objects.filter(club_id=tournament.club_id, user=user)
                    .order_by("pk")
                    .first()
                )
            players.append(member or _new_member(tournament, person_name, user=user))
        return team_register(
            actor=actor, tournament=tournament, name=name, first_player=players[0],
            second_player=players[1], rating=rating, seed=seed, checked_in=checked_in,
        )  # fmt: skip
