"""Teams typed from the club's roster: the plan of a registration (who each name is), its
teams registered all or nothing, and a team of two people entered (members or new ones)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext

from tournaments import quotas
from tournaments.access import is_club_director
from tournaments.clubs import club_members, name_key
from tournaments.models import Club, Player, Team, Tournament, refuse_control_characters

from ..errors import InvalidSettings
from ..teamlines import TeamLine
from . import _common
from .registration import team_register


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
            return None, gettext("no member is %(name)s") % {"name": text}
        if len(found) > 1:
            ids = ", ".join(self.label(m) for m in found)
            return (
                None,
                gettext(
                    "%(count)s members are called %(name)s (%(ids)s): write which, as %(name)s #id"
                )
                % {"count": len(found), "name": text, "ids": ids},
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
                problems.append(f"{text!r}: {' '.join(exc.messages)}")  # the model's words
        key = line.name.casefold()
        if key in taken_names:
            problems.append(
                gettext("a team called %(team)s is registered already") % {"team": line.name}
            )
        elif key in seen_names:
            problems.append(
                gettext("the team name %(team)s is on line %(line)s too")
                % {"team": line.name, "line": seen_names[key]}
            )
        seen_names.setdefault(key, line.line)
        people = []
        for typed in (line.first, line.second):
            member, why = roster.member_for(typed)
            if why:
                problems.append(why)
            person: object = member.pk if member else name_key(typed)
            if member is not None and member.pk in playing:
                problems.append(
                    gettext("%(member)s already plays for %(team)s")
                    % {"member": member.name, "team": playing[member.pk]}
                )
            elif person in seen_people:
                problems.append(
                    gettext("%(name)s is on line %(line)s too")
                    % {"name": typed, "line": seen_people[person]}
                )
            seen_people.setdefault(person, line.line)
            contact = member.contact if member is not None and roster.contacts else ""
            people.append(PlannedPlayer(member.name if member else typed, member, contact))
        if people[0].member is not None and people[0].member == people[1].member:
            problems.append(gettext("a team is two different players"))
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
        raise InvalidSettings(gettext("name at least one team"), code="bad_team")
    with transaction.atomic():
        _common.shown(tournament.pk)
        Tournament.objects.select_for_update(no_key=True).filter(pk=tournament.pk).first()
        plan = teams_plan(tournament=tournament, lines=lines, actor=actor)
        problems = [
            gettext("line %(line)s: %(problem)s") % {"line": p.line.line, "problem": why}
            for p in plan
            for why in p.problems
        ]
        if problems:
            raise InvalidSettings("; ".join(problems), code="bad_team")
        teams = []
        for planned in plan:
            players = []
            for person in (planned.first, planned.second):
                players.append(
                    person.member
                    or _new_member(
                        tournament,
                        person.name,
                        where=gettext("line %(line)s: ") % {"line": planned.line.line},
                    )
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
    ``where`` before the reason, if the name is refused; ``QuotaExceeded`` past the club's
    quota of members)."""
    member = Player(name=name, user=user, club_id=tournament.club_id)
    quotas.require_member_room(club_id=tournament.club_id)
    try:
        member.full_clean()
    except ValidationError as exc:
        raise InvalidSettings(where + " ".join(exc.messages), code="bad_team") from exc
    member.save()
    return member


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
        raise InvalidSettings(gettext("a team is two players"), code="bad_team")
    with transaction.atomic():
        _common.shown(tournament.pk)
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
