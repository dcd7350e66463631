"""Registration: teams registered, checked in (late: where a stage can still take them),
checked out, renamed, re-seeded and re-rated.

A withdrawal and its undoing are ``withdrawals``; teams typed from the club's roster are
``roster``. The tournament's row is the lock every registration takes.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from tournaments import quotas
from tournaments.models import INTEGER_MAX, INTEGER_MIN, Player, Team, Tournament

from .. import happenings as told
from ..errors import InvalidSettings, NotNow
from ..models import Registration, Round, Stage, StageEntry
from . import _common


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
    Refused (``QuotaExceeded``) past the club's quota of teams a tournament.
    """
    _common.require_director(actor, tournament)
    team = Team(
        tournament=tournament, name=name, first_player=first_player, second_player=second_player
    )
    with transaction.atomic():
        _common.shown(tournament.pk)
        # The tournament's row is the lock every registration takes: two at once could
        # otherwise both find a player free and seat them in two teams.
        Tournament.objects.select_for_update(no_key=True).filter(pk=tournament.pk).first()
        quotas.require_team_room(tournament=tournament)  # counted under that lock
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
                enter_late(team)
            except NotNow as exc:
                raise NotNow(
                    gettext("%(refusal)s (registered without checking in, it is kept on the list)")
                    % {"refusal": exc.message},
                    code=exc.code,
                ) from exc
        told.team_changed(team, "registered")
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
        _common.shown(team.tournament_id)
        registration = locked_registration(team)
        if registration.withdrawn_at is not None:
            raise NotNow(gettext("%(team)s has withdrawn") % {"team": team}, code="team_withdrawn")
        if registration.checked_in_at is None:
            registration.checked_in_at = timezone.now()
            registration.save(update_fields=["checked_in_at"])
            enter_late(team)
            told.team_changed(team, "checked_in")
    return registration


def locked_registration(team: Team) -> Registration:
    registration, _ = Registration.objects.select_for_update(no_key=True).get_or_create(
        team=team, defaults={"tournament_id": team.tournament_id}
    )
    return registration


def enter_late(team: Team) -> None:
    """Enter a team checked in after a stage started where it can still play, or refuse.

    A running Swiss stage that takes the registered teams and late entries takes it from its
    next round not yet published, with 0 points: the rounds before are not its (no loss, no
    bye: simply absent). A pending stage that takes the registered teams takes it when it
    starts. With neither while a stage has started, NotNow (``late_entry_refused``) says why.
    """
    stages = list(
        Stage.objects.select_for_update(no_key=True)
        .filter(tournament_id=team.tournament_id)
        .order_by("order")
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
            refusal = refusal or gettext(
                "%(stage)s has started: %(why)s; %(team)s cannot join it"
            ) % {"stage": stage.name, "why": why, "team": team}
            continue
        seed = (stage.entries.order_by("-seed").values_list("seed", flat=True).first() or 0) + 1
        StageEntry.objects.create(stage=stage, team=team, seed=seed, joined_round=first)
        transaction.on_commit(partial(_common.schedule_standings, stage.pk), robust=True)
        plays = True
    if plays or any(_takes_registered(s) for s in stages if s.status == Stage.Status.PENDING):
        return
    if not refusal:
        last = started[-1]
        refusal = gettext(
            "%(stage)s is complete and no stage to come takes the registered teams; %(team)s "
            "cannot play in it (add a stage that takes them first)"
        ) % {"stage": last.name, "team": team}
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
        return gettext("its draw is fixed")
    if not _takes_registered(stage):
        return gettext("it takes its teams from the stage before")
    if stage.format != Stage.Format.SWISS:
        return gettext("its schedule is fixed")
    if not stage.late_entry:
        return gettext(
            "it takes no late entries (its late-entry setting, fixed at the start, is off)"
        )
    if first > (stage.rounds or 0):
        return gettext("all %(rounds)s of its rounds are published") % {"rounds": stage.rounds}
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


# --- changing a registration --------------------------------------------------------------


def registration_fixed(tournament_id: int) -> bool:
    """Whether a stage of the tournament has started: seeds, ratings, check-ins and
    withdrawals are then fixed (undoing one is refused)."""
    return (
        Stage.objects.filter(tournament_id=tournament_id)
        .exclude(status=Stage.Status.PENDING)
        .exists()
    )


def _team_set(actor: Any, team: Team, field: str, value: str, *, key: bool = False) -> Team:
    """Set one of a team's own fields, checked as the model checks it (InvalidSettings
    ``bad_team`` in its words). ``key``: the field is a key, locked FOR UPDATE, which NO KEY
    UPDATE would have to upgrade to at the save."""
    _common.require_director(actor, team.tournament)
    with transaction.atomic():
        _common.shown(team.tournament_id)
        locked = Team.objects.select_for_update(no_key=not key).get(pk=team.pk)
        before = getattr(locked, field)
        setattr(locked, field, value)
        try:
            locked.full_clean()
        except ValidationError as exc:
            raise InvalidSettings(" ".join(exc.messages), code="bad_team") from exc
        locked.save(update_fields=[field])
        if field == "name" and locked.name != before:
            told.team_changed(locked, "renamed")
    return locked


def team_rename(*, actor: Any, team: Team, name: str) -> Team:
    """Rename a team (its matches and standings show the new name at once); the name is a key
    (unique in the tournament)."""
    return _team_set(actor, team, "name", " ".join((name or "").split()), key=True)


def team_language(*, actor: Any, team: Team, language: str) -> Team:
    """Set the language of a team's card and of the pages its link opens ("": the club's);
    one of ``settings.LANGUAGES``."""
    return _team_set(actor, team, "language", language)


def registration_update(
    *, actor: Any, team: Team, seed: int | None, rating: int | None
) -> Registration:
    """Change a team's seed and rating: only before the first stage starts (it seeds from them)."""
    _common.require_director(actor, team.tournament)
    with transaction.atomic():
        _common.shown(team.tournament_id)
        registration = locked_registration(team)
        if registration_fixed(team.tournament_id):
            raise NotNow(
                gettext("seeds and ratings are fixed once a stage has started"),
                code="stage_started",
            )
        for value in (seed, rating):
            if value is not None and not INTEGER_MIN <= value <= INTEGER_MAX:
                raise InvalidSettings(gettext("that number is too large"), code="bad_team")
        if seed is not None and seed < 1:
            raise InvalidSettings(gettext("a seed is 1 or more"), code="bad_team")
        registration.seed, registration.rating = seed, rating
        registration.save(update_fields=["seed", "rating"])
    return registration


def _undo(actor: Any, team: Team, field: str, refusal: str, change: str) -> Registration:
    """Clear a registration's check-in or withdrawal, only while no stage has started (else
    refused in the words of ``refusal``)."""
    _common.require_director(actor, team.tournament)
    with transaction.atomic():
        _common.shown(team.tournament_id)
        registration = locked_registration(team)
        if getattr(registration, field) is None:
            return registration
        if registration_fixed(team.tournament_id):
            raise NotNow(refusal, code="stage_started")
        setattr(registration, field, None)
        registration.save(update_fields=[field])
        told.team_changed(team, change)
    return registration


def team_check_out(*, actor: Any, team: Team) -> Registration:
    """Undo a check-in: only while no stage has started (a started stage took its teams)."""
    return _undo(
        actor,
        team,
        "checked_in_at",
        gettext("a check-in can be undone only before the first stage starts"),
        "checked_out",
    )


def team_update(
    *,
    actor: Any,
    team: Team,
    name: str,
    seed: int | None,
    rating: int | None,
    language: str | None = None,
) -> Team:
    """Rename a team and change its seed and rating, and the language of its card and link
    (``None``: unchanged; "": the club's), all or nothing (the seed and the rating only before
    the first stage starts, and only if they change)."""
    _common.require_director(actor, team.tournament)
    with transaction.atomic():
        _common.shown(team.tournament_id)
        registration = locked_registration(team)
        if name != team.name:
            team = team_rename(actor=actor, team=team, name=name)
        if language is not None and language != team.language:
            team = team_language(actor=actor, team=team, language=language)
        if (seed, rating) != (registration.seed, registration.rating):
            registration_update(actor=actor, team=team, seed=seed, rating=rating)
    return team
