"""Stages: their settings, checked when saved, and their start (entrants, seeds, groups)."""

from __future__ import annotations

import copy
import logging
import random
import secrets
from collections.abc import Collection, Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from tournaments.models import Team, Tournament

from .. import formats
from ..errors import InvalidSettings, NotNow
from ..models import Registration, Stage, StageEntry
from . import _common, brackets, cut

log = logging.getLogger(__name__)


SETTINGS = (
    "name", "format", "rounds", "groups", "entry", "entry_count", "late_entry", "seeding",
    "seeding_seed", "swiss_method", "match_format", "mode", "points_win", "points_draw",
    "points_loss", "points_bye", "points_forfeit", "tiebreaks", "tiebreak_seed",
    "third_place", "grand_final_reset", "withdrawal", "start_matches", "confirmation",
    "review_draw",
)  # fmt: skip


def stage_create(
    *,
    actor: Any,
    tournament: Tournament,
    scorekeepers: Iterable[Any] | None = None,
    **settings: Any,
) -> Stage:
    """Add a stage after the tournament's last one, its settings checked by the formats, and
    its score-keepers (users who keep score at every match of it), all or nothing."""
    _common.require_director(actor, tournament)
    unknown = sorted(set(settings) - set(SETTINGS))
    if unknown:
        raise InvalidSettings(f"unknown stage setting(s): {', '.join(unknown)}", code="bad_stage")
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        last = tournament.stages.order_by("-order").values_list("order", flat=True).first() or 0
        stage = Stage(tournament=tournament, order=last + 1, **settings)
        check_settings(stage)
        stage.save()
        if scorekeepers is not None:
            stage.scorekeepers.set(scorekeepers)
    return stage


def stage_update(
    *, actor: Any, stage: Stage, scorekeepers: Iterable[Any] | None = None, **settings: Any
) -> Stage:
    """Change a stage's settings (and score-keepers), all or nothing; refused once it has
    started (its matches keep their terms)."""
    _common.require_director(actor, stage.tournament)
    unknown = sorted(set(settings) - set(SETTINGS))
    if unknown:
        raise InvalidSettings(f"unknown stage setting(s): {', '.join(unknown)}", code="bad_stage")
    with transaction.atomic():
        locked = _common.locked_or_gone(Stage.objects, stage.pk, "this stage")
        if locked.status != Stage.Status.PENDING:
            raise NotNow("a stage's settings are fixed once it starts", code="stage_started")
        for name, value in settings.items():
            setattr(locked, name, value)
        if locked.elimination and "match_format" not in settings:
            # the stage's own format, not the caller's: made to play on, as one left out is
            # (a stage turned into a knockout keeps its format but never draws)
            locked.match_format = _never_drawn(locked.match_format)
        check_settings(locked)
        locked.save()
        if scorekeepers is not None:
            locked.scorekeepers.set(scorekeepers)
    return locked


def _never_drawn(match_format: Any) -> Any:
    """Return a stored match format with ``draws`` false (anything else as it is: the checks
    refuse it in their own words)."""
    return {**match_format, "draws": False} if isinstance(match_format, dict) else match_format


#: the code of a refusal of each setting; a refusal naming several takes the code of the
#: first of them in this order (any other setting: bad_stage)
SETTING_CODES = {
    "format": "bad_format", "mode": "bad_mode", "confirmation": "bad_confirmation",
    "rounds": "bad_rounds", "groups": "bad_groups", "entry": "bad_entry",
    "entry_count": "bad_entry", "tiebreaks": "bad_tiebreaks", "match_format": "bad_format",
    "late_entry": "bad_entry",
}  # fmt: skip


def check_settings(stage: Stage) -> None:
    """Refuse settings the formats cannot take: raise InvalidSettings naming each refused
    setting (``fields``); otherwise store the match format complete (M1) on ``stage``.

    The rules of the row itself are ``Stage.clean``'s (run here by ``full_clean``, so the
    admin, the API, the desk and a management command refuse the same things in the same
    words); the rules that read other rows are here: what a stage after another takes from
    it (``_entry_problems``) and what its field allows (``_field_problems``), where the field
    is known. ``stage_start`` checks the field again, with the teams that enter.
    """
    errors: dict[str, list[str]] = {}
    try:
        stage.full_clean()
    except ValidationError as exc:
        for field, messages in exc.message_dict.items():
            errors.setdefault(field, []).extend(messages)
    if not errors.keys() & {"format", "entry", "entry_count", "rounds", "groups"}:
        for field, message in _entry_problems(stage):
            errors.setdefault(field, []).append(message)
    _refuse(errors)


def check_stored_settings(stage: Stage) -> None:
    """Refuse to run a round under settings the formats cannot take (InvalidSettings, before
    anything is written): a row saved before they were checked when saved, or past the
    service. Checks the row's own rules on a copy (``stage`` is left as it is)."""
    errors: dict[str, list[str]] = {}
    try:
        copy.copy(stage).full_clean(validate_unique=False, validate_constraints=False)
    except ValidationError as exc:
        errors = exc.message_dict
    _refuse(errors)


def _refuse(errors: dict[str, list[str]]) -> None:
    if not errors:
        return
    fields = list(SETTING_CODES)
    first = min(errors, key=lambda f: fields.index(f) if f in fields else len(fields))
    raise InvalidSettings(
        "; ".join(m for messages in errors.values() for m in messages),
        code=SETTING_CODES.get(first, "bad_stage"),
        fields=errors,
    )


def _entry_problems(stage: Stage) -> list[tuple[str, str]]:
    """Return what the stages before this one (or the teams) refuse of its settings."""
    if stage.entry == Stage.Entry.REGISTERED:
        return _field_problems(stage, None)
    previous = Stage.objects.filter(
        tournament_id=stage.tournament_id, order=(stage.order or 0) - 1
    ).first()
    if previous is None:
        if (stage.order or 0) <= 1:
            return [("entry", "the first stage takes the registered teams")]
        return [
            (
                "entry",
                f"a stage that takes the top teams of the stage before needs one: there is no "
                f"stage {stage.order - 1}",
            )
        ]
    count = stage.entry_count or 0
    if stage.entry == Stage.Entry.TOP_PER_GROUP:
        if previous.format != Stage.Format.GROUPS:
            return [("entry", "the top N of each group needs a group stage before it")]
        groups = previous.groups or 1
        field = _field_size(previous)
        largest = -(-(field or 0) // groups)  # the most a group can hold
        if field is not None and count > largest:
            return [
                (
                    "entry_count",
                    f"the number of teams entering from each group ({count}) is more than a "
                    f"group of the stage before holds ({largest} at most)",
                )
            ]
        return _field_problems(stage, count * groups)
    field = _field_size(previous)
    if field is not None and count > field:
        return [
            (
                "entry_count",
                f"the number of teams entering (the top {count}) is more than the stage before "
                f"has ({field})",
            )
        ]
    return _field_problems(stage, count)


def _field_size(stage: Stage) -> int | None:
    """Return how many teams a stage plays with (at most): its entrants once it has started,
    else the N it takes from the stage before it, else the registered teams not withdrawn
    (None while no team is registered: a tournament set up before its registrations; the
    start checks the field it really has)."""
    if stage.status != Stage.Status.PENDING:
        return stage.entries.count()
    if stage.entry == Stage.Entry.TOP:
        return stage.entry_count or 0
    if stage.entry == Stage.Entry.TOP_PER_GROUP:
        previous = Stage.objects.filter(
            tournament_id=stage.tournament_id, order=stage.order - 1
        ).first()
        return (stage.entry_count or 0) * ((previous.groups if previous else None) or 1)
    registered = Registration.objects.filter(
        tournament_id=stage.tournament_id, withdrawn_at__isnull=True
    ).count()
    return registered or None


def _field_problems(stage: Stage, teams: int | None) -> list[tuple[str, str]]:
    """Return what a field of ``teams`` teams (None: not known yet) refuses of the stage's
    rounds and groups, and of a bracket."""
    if teams is None:
        return []
    problems = []
    if teams < 2:
        problems.append(("entry_count", f"a stage needs at least 2 teams, and {teams} would enter"))
    elif stage.format == Stage.Format.SWISS and stage.rounds and stage.rounds >= teams:
        problems.append(
            (
                "rounds",
                f"{stage.rounds} Swiss rounds need at least {stage.rounds + 1} teams (each "
                f"meets another at most once), and {teams} enter: at most {teams - 1} rounds",
            )
        )
    elif stage.format == Stage.Format.GROUPS and stage.groups and 2 * stage.groups > teams:
        problems.append(
            (
                "groups",
                f"{stage.groups} groups need at least {2 * stage.groups} teams (2 a group), and "
                f"{teams} enter: at most {teams // 2} groups",
            )
        )
    return problems


def stage_points(stage: Stage) -> formats.Points:
    """Return the stage's match points per outcome."""
    return formats.Points(
        win=stage.points_win,
        draw=stage.points_draw,
        loss=stage.points_loss,
        bye=stage.points_bye,
        forfeit=stage.points_forfeit,
    )


def stage_terms(stage: Stage) -> dict[str, Any]:
    """Return the terms every match of the stage is created under (recorded on its fixture)."""
    points = stage_points(stage)
    return {
        "points": {k: getattr(points, k) for k in ("win", "draw", "loss", "bye", "forfeit")},
        "tiebreaks": list(stage.tiebreaks),
        "match_format": stage.match_format,
        "mode": stage.mode,
        "confirmation": stage.confirmation,
    }


def stage_start(
    *, actor: Any, stage: Stage, not_checked_in: Collection[int] | None = None
) -> Stage:
    """Start a stage: take its teams, seed them, and (for a bracket) draw the bracket,
    published at once unless the stage says to review it (``review_draw``: its first round
    stays a draft, to be published as a round is).

    The teams: every checked-in team that has not withdrawn, or the top N of the previous
    stage (of each of its groups), which must be complete. Seeded by the stage's rule; a
    random seeding records its seed.

    ``not_checked_in``: the ids of the registered teams the caller starts without (the desk's
    confirmation named them); given, the start is refused (NotNow ``not_checked_in``, naming
    them) while any other registered team that has not withdrawn is left out. None: not
    asked (``registration.teams_not_checked_in`` says, after the start, who was left out).
    """
    _common.require_director(actor, stage.tournament)
    with transaction.atomic():
        stage = _common.locked_or_gone(
            Stage.objects.select_related("tournament"), stage.pk, "this stage"
        )
        if stage.status != Stage.Status.PENDING:
            raise NotNow("the stage has started already", code="stage_started")
        earlier = Stage.objects.filter(tournament=stage.tournament, order__lt=stage.order)
        if earlier.exclude(status=Stage.Status.COMPLETE).exists():
            raise NotNow("the stages before this one are not complete", code="previous_running")
        check_settings(stage)  # a row saved before its settings were checked, or past them
        teams = _entrants(stage)
        if not_checked_in is not None and stage.entry == Stage.Entry.REGISTERED:
            _refuse_left_out(stage, {t.pk for t in teams}, set(not_checked_in))
        if len(teams) < 2:
            raise NotNow(
                f"the stage needs at least 2 teams, and {len(teams)} are in", code="too_few_teams"
            )
        _refuse(_group_by_field(_field_problems(stage, len(teams))))
        groups: dict[int, int] = {}
        if stage.format == Stage.Format.GROUPS:
            assert stage.groups is not None
            dealt = formats.snake_groups([t.pk for t in teams], groups=stage.groups)
            groups = {team: g for g, members in enumerate(dealt) for team in members}
        StageEntry.objects.bulk_create(
            StageEntry(stage=stage, team=team, seed=n, group=groups.get(team.pk))
            for n, team in enumerate(teams, start=1)
        )
        stage.status, stage.started_at = Stage.Status.RUNNING, timezone.now()
        stage.save(update_fields=["status", "started_at", "seeding_seed"])
        if stage.elimination:
            brackets.draw_bracket(stage, [t.pk for t in teams])
            if not stage.review_draw:
                brackets.publish_draw(actor=actor, stage=stage)
        from ..standings import update_stage_standings  # no import cycle at load

        update_stage_standings(stage_id=stage.pk)  # round 0: every team that entered, by seed
    return stage


def _refuse_left_out(stage: Stage, entering: set[int], known: set[int]) -> None:
    """Refuse a start that would leave out a registered team the caller did not name (read
    after the entrants: a team checked out meanwhile is named here, one checked in plays)."""
    names = [
        name
        for pk, name in Team.objects.filter(
            registration__tournament_id=stage.tournament_id,
            registration__withdrawn_at__isnull=True,
        )
        .order_by("name", "pk")
        .values_list("pk", "name")
        if pk not in entering and pk not in known
    ]
    if len(names) == 1:
        raise NotNow(f"1 team registered is not checked in: {names[0]}: check it in, or start "
                     "without it", code="not_checked_in")  # fmt: skip
    if names:
        raise NotNow(f"{len(names)} teams registered are not checked in: {', '.join(names)}: "
                     "check them in, or start without them", code="not_checked_in")  # fmt: skip


def _group_by_field(problems: list[tuple[str, str]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for field, message in problems:
        out.setdefault(field, []).append(message)
    return out


def _entrants(stage: Stage) -> list[Team]:
    """Return the stage's teams in seed order."""
    if stage.entry == Stage.Entry.REGISTERED:
        registrations = list(
            Registration.objects.filter(
                tournament=stage.tournament, checked_in_at__isnull=False, withdrawn_at__isnull=True
            ).select_related("team")
        )
        if stage.seeding == Stage.Seeding.RATING:
            registrations.sort(
                key=lambda r: (r.rating is None, -(r.rating or 0), r.seed or 1 << 30, r.team.name)
            )
        else:
            registrations.sort(key=lambda r: (r.seed is None, r.seed or 0, r.registered_at, r.pk))
        teams = [r.team for r in registrations]
        if stage.seeding == Stage.Seeding.RANDOM:
            if stage.seeding_seed is None:
                stage.seeding_seed = secrets.randbits(48)
            random.Random(stage.seeding_seed).shuffle(teams)
        return teams
    previous = Stage.objects.get(tournament=stage.tournament, order=stage.order - 1)
    # Teams level on every tie-break go on in their seed order there, except across the cut
    # line: a tie there waits for a director's decision (``cut``), and the start is refused.
    found = cut.cut_for_stage(stage, previous=previous)
    assert found is not None
    lines = cut.qualified(found)
    count = stage.entry_count or 0
    if stage.entry == Stage.Entry.TOP:
        ids = lines[0][:count]
    else:
        by_group = {
            (line[0].group or 0): teams
            for line, teams in zip(found.lines, lines, strict=True)
            if line
        }
        groups = previous.groups or 1
        order = formats.knockout_seeds(groups=groups, advance=count)
        ids = [
            by_group[g][place - 1]
            for g, place in order
            if g in by_group and len(by_group[g]) >= place
        ]
    by_id = {t.pk: t for t in Team.objects.filter(pk__in=ids)}
    return [by_id[i] for i in ids]


def stage_teams(stage: Stage) -> Iterable[int]:
    """Return the ids of the stage's teams in seed order."""
    return stage.entries.order_by("seed").values_list("team_id", flat=True)


def stage_remove(*, actor: Any, stage: Stage) -> None:
    """Remove a stage that has no round yet (pending); the stages after it move up one.

    Refused when a later stage could no longer take its teams (the top N of each group,
    say, once the group stage before it is gone): nothing is removed then.
    """
    _common.require_director(actor, stage.tournament)
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=stage.tournament_id).first()
        locked = Stage.objects.filter(pk=stage.pk).first()
        if locked is None:
            return
        if locked.status != Stage.Status.PENDING or locked.round_set.exists():
            raise NotNow("a stage can be removed only before it starts", code="stage_started")
        later = list(
            Stage.objects.filter(
                tournament_id=locked.tournament_id, order__gt=locked.order
            ).order_by("order")
        )
        locked.delete()
        for s in later:  # one at a time, in order: the orders are unique
            Stage.objects.filter(pk=s.pk).update(order=s.order - 1)
            s.order -= 1
        for s in later:
            s.refresh_from_db()
            check_settings(s)
