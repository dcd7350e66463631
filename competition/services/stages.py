"""Stages: their settings, checked when saved, and their start (entrants, seeds, groups)."""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from tournaments import matchlog
from tournaments.models import Team, Tournament, checked_match_format

from .. import formats
from ..errors import InvalidSettings, NotNow
from ..models import Registration, Stage, StageEntry
from . import _common, brackets

log = logging.getLogger(__name__)


SETTINGS = (
    "name", "format", "rounds", "groups", "entry", "entry_count", "late_entry", "seeding",
    "seeding_seed", "swiss_method", "match_format", "mode", "points_win", "points_draw",
    "points_loss", "points_bye", "points_forfeit", "tiebreaks", "tiebreak_seed",
    "third_place", "grand_final_reset", "withdrawal", "start_matches", "confirmation",
)  # fmt: skip


def stage_create(*, actor: Any, tournament: Tournament, **settings: Any) -> Stage:
    """Add a stage after the tournament's last one, its settings checked by the formats."""
    _common.require_director(actor, tournament)
    unknown = sorted(set(settings) - set(SETTINGS))
    if unknown:
        raise InvalidSettings(f"unknown stage setting(s): {', '.join(unknown)}", code="bad_stage")
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        last = tournament.stages.order_by("-order").values_list("order", flat=True).first() or 0
        stage = Stage(tournament=tournament, order=last + 1, **settings)
        _check_settings(stage)
        stage.save()
    return stage


def stage_update(*, actor: Any, stage: Stage, **settings: Any) -> Stage:
    """Change a stage's settings; refused once it has started (its matches keep their terms)."""
    _common.require_director(actor, stage.tournament)
    unknown = sorted(set(settings) - set(SETTINGS))
    if unknown:
        raise InvalidSettings(f"unknown stage setting(s): {', '.join(unknown)}", code="bad_stage")
    with transaction.atomic():
        locked = Stage.objects.select_for_update().get(pk=stage.pk)
        if locked.status != Stage.Status.PENDING:
            raise NotNow("a stage's settings are fixed once it starts", code="stage_started")
        for name, value in settings.items():
            setattr(locked, name, value)
        _check_settings(locked)
        locked.save()
    return locked


def _check_settings(stage: Stage) -> None:
    """Refuse settings the formats cannot take; complete the match format (M1)."""
    fmt = Stage.Format
    if stage.format not in fmt.values:
        raise InvalidSettings(f"unknown format {stage.format!r}", code="bad_format")
    if stage.mode not in {m.value for m in matchlog.Mode}:
        raise InvalidSettings(f"unknown play mode {stage.mode!r}", code="bad_mode")
    if stage.confirmation not in {c.value for c in matchlog.Confirmation}:
        raise InvalidSettings(
            f"confirmation is one of {', '.join(matchlog.Confirmation)}", code="bad_confirmation"
        )
    if stage.confirmation != matchlog.Confirmation.NONE and stage.mode != matchlog.SCORE:
        raise InvalidSettings(
            "confirmation is for deal results entered in score mode", code="bad_confirmation"
        )
    if stage.format == fmt.SWISS and not stage.rounds:
        raise InvalidSettings("a Swiss stage says how many rounds it has", code="bad_rounds")
    if stage.format == fmt.GROUPS and not stage.groups:
        raise InvalidSettings("a group stage says how many groups it has", code="bad_groups")
    if stage.entry != Stage.Entry.REGISTERED:
        if stage.order <= 1:
            raise InvalidSettings("the first stage takes the registered teams", code="bad_entry")
        if not stage.entry_count:
            raise InvalidSettings("say how many teams enter (N of the top N)", code="bad_entry")
        previous = Stage.objects.filter(tournament=stage.tournament, order=stage.order - 1).first()
        if stage.entry == Stage.Entry.TOP_PER_GROUP and (
            previous is None or previous.format != fmt.GROUPS
        ):
            raise InvalidSettings(
                "the top N of each group needs a group stage before it", code="bad_entry"
            )
    names = list(stage.tiebreaks or [])
    bad = [n for n in names if n not in formats.TIEBREAKS]
    if bad or len(set(names)) != len(names):
        raise InvalidSettings(
            f"tie-breaks are distinct names from {', '.join(formats.TIEBREAKS)}",
            code="bad_tiebreaks",
        )
    if "random" in names and names[-1] != "random":
        raise InvalidSettings(
            "the random draw can only be the last tie-break", code="bad_tiebreaks"
        )
    match_format = dict(stage.match_format or {})
    if stage.elimination:
        if match_format.get("draws"):
            raise InvalidSettings(
                "an elimination match cannot end drawn (M1: play goes on deal by deal)",
                code="bad_format",
            )
        match_format["draws"] = False
    try:
        stage.match_format = checked_match_format(match_format)
    except ValidationError as exc:
        raise InvalidSettings(" ".join(exc.messages), code="bad_format") from exc
    if stage.late_entry and stage.format != fmt.SWISS:
        raise InvalidSettings("only a Swiss stage can take late entries", code="bad_entry")


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


def stage_start(*, actor: Any, stage: Stage) -> Stage:
    """Start a stage: take its teams, seed them, and (for a bracket) draw the bracket.

    The teams: every checked-in team that has not withdrawn, or the top N of the previous
    stage (of each of its groups), which must be complete. Seeded by the stage's rule; a
    random seeding records its seed.
    """
    _common.require_director(actor, stage.tournament)
    with transaction.atomic():
        stage = Stage.objects.select_for_update().select_related("tournament").get(pk=stage.pk)
        if stage.status != Stage.Status.PENDING:
            raise NotNow("the stage has started already", code="stage_started")
        earlier = Stage.objects.filter(tournament=stage.tournament, order__lt=stage.order)
        if earlier.exclude(status=Stage.Status.COMPLETE).exists():
            raise NotNow("the stages before this one are not complete", code="previous_running")
        teams = _entrants(stage)
        minimum = 2 * (stage.groups or 1) if stage.format == Stage.Format.GROUPS else 2
        if len(teams) < minimum:
            raise NotNow(
                f"the stage needs at least {minimum} teams, and {len(teams)} are in",
                code="too_few_teams",
            )
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
    return stage


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
    from ..standings import final_standings  # standings read fixtures; no import cycle at load

    previous = Stage.objects.get(tournament=stage.tournament, order=stage.order - 1)
    # Teams still level when every tie-break is spent go through in their seed order there.
    seeds = dict(previous.entries.values_list("team_id", "seed"))
    rows = sorted(final_standings(previous), key=lambda r: (r.group or 0, r.rank, seeds[r.team_id]))
    withdrawn = set(
        Registration.objects.filter(
            tournament=stage.tournament, withdrawn_at__isnull=False
        ).values_list("team_id", flat=True)
    )
    count = stage.entry_count or 0
    if stage.entry == Stage.Entry.TOP:
        ids = [r.team_id for r in rows if r.team_id not in withdrawn][:count]
    else:
        by_group: dict[int, list[int]] = {}
        for row in rows:
            if row.team_id not in withdrawn:
                by_group.setdefault(row.group or 0, []).append(row.team_id)
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
