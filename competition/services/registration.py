"""Registration: teams entered (from the club's roster), checked in, withdrawn, and changed."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
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
            try:
                _late_entry(team)
            except NotNow as exc:
                raise NotNow(
                    f"{exc.message} (registered without checking in, it is kept on the list)",
                    code=exc.code,
                ) from exc
    return team


def team_check_in(*, actor: Any, team: Team) -> Registration:
    """Check a registered team in: it plays in the next stage that takes the registered teams.

    Once a stage has started, a check-in is taken only where the team can still play: it
    joins a running Swiss stage that takes late entries at its next round, or waits for a
    stage to come that takes the registered teams. Anywhere else (a knockout, a round robin,
    a Swiss without late entry, every round paired) it is refused in words (NotNow,
    ``late_entry_refused``) and nothing changes: never "checked in" and left out.
    """
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
    unlinked = fixture.match_id
    if fixture.match is not None:  # scheduled, never started: it will not be played
        fixture.match = None
    if other is None:  # its opponent is not known yet (a bracket slot): decided later
        fixture.save(update_fields=["match"])
        return
    if fixture.stage.withdrawal == Stage.Withdrawal.BYE and not fixture.stage.elimination:
        fixture.team_a, fixture.team_b, fixture.result = other, None, Fixture.Result.BYE
    else:
        fixture.result = Fixture.Result.FORFEIT_A if side == "a" else Fixture.Result.FORFEIT_B
    # what it did, for team_reinstate to undo
    fixture.withdrawal = {"team": team.pk, "side": side, "match": unlinked}
    fixture.save(update_fields=["team_a", "team_b", "result", "match", "withdrawal"])


def _late_entry(team: Team) -> None:
    """Enter a team checked in after a stage started where it can still play, or refuse.

    A running Swiss stage that takes the registered teams and late entries takes it from its
    next round not yet published, with 0 points: the rounds before are not its (no loss, no
    bye: simply absent). A pending stage that takes the registered teams takes it when it
    starts. With neither while a stage has started, NotNow (``late_entry_refused``) says why.
    """
    stages = list(
        Stage.objects.select_for_update().filter(tournament_id=team.tournament_id).order_by("order")
    )
    started = [s for s in stages if s.status != Stage.Status.PENDING]
    if not started:
        return
    plays = False
    refusal = ""
    for stage in started:
        if stage.status != Stage.Status.RUNNING:
            continue
        if stage.entries.filter(team=team).exists():
            plays = True
            continue
        first = _first_open_round(stage)
        why = _no_late_entry(stage, first)
        if why:
            refusal = refusal or f"{stage.name} has started: {why}; {team} cannot join it"
            continue
        seed = (stage.entries.order_by("-seed").values_list("seed", flat=True).first() or 0) + 1
        StageEntry.objects.create(stage=stage, team=team, seed=seed, joined_round=first)
        transaction.on_commit(partial(_common.schedule_standings, stage.pk), robust=True)
        plays = True
    if plays or any(_takes_registered(s) for s in stages if s.status == Stage.Status.PENDING):
        return
    if not refusal:
        last = started[-1]
        refusal = (
            f"{last.name} is complete and no stage to come takes the registered teams; "
            f"{team} cannot play in it (add a stage that takes them first)"
        )
    raise NotNow(refusal, code="late_entry_refused")


def _takes_registered(stage: Stage) -> bool:
    return stage.entry == Stage.Entry.REGISTERED


def _first_open_round(stage: Stage) -> int:
    """Return the number of the stage's first round not yet published (a draft's, or the next)."""
    last = stage.round_set.order_by("-number").values_list("number", "status").first()
    if last is None:
        return 1
    return last[0] if last[1] == Round.Status.DRAFT else last[0] + 1


def _no_late_entry(stage: Stage, first: int) -> str:
    """Return why a running stage cannot take a team that was not in it at the start ("": it
    can, from round ``first``)."""
    if stage.elimination:
        return "its draw is fixed"
    if not _takes_registered(stage):
        return "it takes its teams from the stage before"
    if stage.format != Stage.Format.SWISS:
        return "its schedule is fixed"
    if not stage.late_entry:
        return "it takes no late entries (its late-entry setting, fixed at the start, is off)"
    if first > (stage.rounds or 0):
        return f"all {stage.rounds} of its rounds are published"
    return ""


def teams_not_checked_in(stage: Stage) -> list[Team]:
    """Return the registered teams that have not withdrawn and are not checked in, by name,
    for a stage that takes the registered teams (none for any other): who its start leaves
    out, or left out."""
    if stage.entry != Stage.Entry.REGISTERED:
        return []
    return list(
        Team.objects.filter(
            registration__tournament_id=stage.tournament_id,
            registration__checked_in_at__isnull=True,
            registration__withdrawn_at__isnull=True,
        ).order_by("name", "pk")
    )


def team_plays_in(team: Team) -> list[tuple[Stage, int | None]]:
    """Return where a team plays from now: each running stage it is in, with the first round it
    plays there (a late entry's is its joining round), then the first pending stage that takes
    the registered teams, with None (it enters when that stage starts, if checked in)."""
    out: list[tuple[Stage, int | None]] = []
    for entry in StageEntry.objects.filter(
        team=team, stage__status=Stage.Status.RUNNING
    ).select_related("stage"):
        out.append((entry.stage, entry.joined_round))
    pending = (
        Stage.objects.filter(
            tournament_id=team.tournament_id,
            status=Stage.Status.PENDING,
            entry=Stage.Entry.REGISTERED,
        )
        .order_by("order")
        .first()
    )
    if pending is not None:
        out.append((pending, None))
    return out


def late_entry_words(team: Team) -> str:
    """Say where a team checked in after a stage started plays ("" while no stage has
    started: it plays in the first stage that starts), for the desk's message."""
    if not registration_fixed(team.tournament_id):
        return ""
    words = []
    for stage, first in team_plays_in(team):
        if first is None:
            words.append(f"{team} plays in {stage.name} when it starts")
            continue
        if first <= 1:
            words.append(f"{team} plays in {stage.name}")
            continue
        sentence = (
            f"{team} joins {stage.name} at round {first}, with 0 points (the rounds before "
            "are not its)"
        )
        if stage.round_set.filter(number=first, status=Round.Status.DRAFT).exists():
            sentence += (
                f"; round {first} is a draft paired without it: discard it and pair it again "
                f"to have {team} play in it"
            )
        words.append(sentence)
    return "; ".join(words)


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
    """Undo a withdrawal, all or nothing: the team is paired again from the next round, and
    each fixture its withdrawal decided (a forfeit, or a bye for its opponent) is its own
    again, pending, with its match (the one it had, or a new one) where its round is published.

    Refused (NotNow ``forfeit_counted``, nothing changed) once a forfeit counts: a round
    holding a fixture its withdrawal decided is complete, or, in a bracket, the team its
    forfeit sent on has begun (or finished) its next match. A round paired while it was
    withdrawn goes on without it (in Swiss it is simply absent from that round). A team
    checked in that is in no running stage is entered as a late check-in is
    (``team_check_in``), or the undo is refused as that check-in would be.
    """
    _common.require_director(actor, team.tournament)
    with transaction.atomic():
        registration = _registration(team)
        if registration.withdrawn_at is None:
            return registration
        # the stages' rows first: a result comes in under its stage's lock, so no round
        # completes between the look at it here and the fixtures given back
        list(Stage.objects.select_for_update().filter(tournament_id=team.tournament_id))
        decided = list(
            Fixture.objects.select_for_update(of=("self",))
            .filter(stage__tournament_id=team.tournament_id, withdrawal__team=team.pk)
            .select_related("stage", "round", "team_a", "team_b")
            .order_by("stage__order", "round__number", "table", "key", "pk")
        )
        for fixture in decided:
            _refuse_if_counted(team, fixture)
        registration.withdrawn_at = None
        registration.save(update_fields=["withdrawn_at"])
        stages = {f.stage_id: f.stage for f in decided}
        for fixture in decided:
            _give_back(team, fixture)
        for stage in stages.values():
            if stage.elimination:
                problems = brackets.reconcile_bracket(stage)
                if problems:  # rolled back whole, the notices with it
                    raise NotNow(
                        f"{team}'s withdrawal cannot be undone: "
                        + "; ".join(message for _, message in problems),
                        code="forfeit_counted",
                    )
            transaction.on_commit(partial(_common.schedule_standings, stage.pk), robust=True)
        if registration.checked_in_at is not None:
            _late_entry(team)
    return registration


def _refuse_if_counted(team: Team, fixture: Fixture) -> None:
    """Refuse to undo a withdrawal whose forfeit (or bye) in ``fixture`` counts already."""
    stage, round_ = fixture.stage, fixture.round
    where = f"{round_.name or f'round {round_.number}'} of {stage.name}"
    if fixture.result == Fixture.Result.BYE:
        what = f"its withdrawal gave {fixture.team_a} a bye in {where}"
    else:
        what = f"it forfeited {where}"
    if round_.status == Round.Status.COMPLETE or stage.status == Stage.Status.COMPLETE:
        raise NotNow(
            f"{team}'s withdrawal can no longer be undone: {what}, and that round is complete",
            code="forfeit_counted",
        )
    if not stage.elimination or not fixture.winner_to:
        return
    key, _, _side = fixture.winner_to.partition(":")
    following = Fixture.objects.filter(stage=stage, key=key).select_related("match").first()
    if following is None:
        return
    begun = following.match is not None and following.match.last_seq > 0
    if following.result != Fixture.Result.PENDING or begun:
        raise NotNow(
            f"{team}'s withdrawal can no longer be undone: {what}, and {fixture.winner()} has "
            f"played on in {following.round} since",
            code="forfeit_counted",
        )


def _give_back(team: Team, fixture: Fixture) -> None:
    """Make a fixture a withdrawal decided pending again, the team in it, its match made
    again where its round is published (a bracket's: by ``reconcile_bracket``)."""
    record = fixture.withdrawal
    if fixture.result == Fixture.Result.BYE and fixture.team_b_id is None:
        other = fixture.team_a_id
        if record.get("side") == "a":
            fixture.team_a_id, fixture.team_b_id = team.pk, other
        else:
            fixture.team_b_id = team.pk
    fixture.result = Fixture.Result.PENDING
    fixture.withdrawal = {}
    kept = record.get("match")
    if kept is not None and fixture.match_id is None:
        unlinked = Match.objects.filter(
            pk=kept, status=Match.Status.SCHEDULED, last_seq=0, fixture__isnull=True
        ).first()
        if unlinked is not None and {unlinked.team0_id, unlinked.team1_id} == {
            fixture.team_a_id,
            fixture.team_b_id,
        }:
            fixture.match = unlinked
    fixture.save(update_fields=["team_a", "team_b", "result", "match", "withdrawal"])
    published = fixture.round.status == Round.Status.PUBLISHED
    if published and not fixture.stage.elimination and fixture.match_id is None:
        rounds.create_match(fixture.stage, fixture)


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
