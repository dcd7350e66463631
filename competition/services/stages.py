"""Stages: made and changed (their settings checked: ``stage_settings``), started (their
entrants, seeds and groups from ``draw``; a bracket drawn), and removed."""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterable
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from tournaments.models import Team, Tournament

from .. import draw, standings
from ..errors import NotNow
from ..models import Round, Stage, StageEntry
from . import _common, rounds
from .stage_settings import (
    check_settings,
    field_problems,
    group_by_field,
    refuse,
    refuse_unknown,
)

log = logging.getLogger(__name__)


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
    refuse_unknown(settings)
    with transaction.atomic():
        _common.shown(tournament.pk)
        Tournament.objects.select_for_update(no_key=True).filter(pk=tournament.pk).first()
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
    refuse_unknown(settings)
    with transaction.atomic():
        _common.shown(stage.tournament_id, stage.pk)
        locked = _common.locked_or_gone(Stage.objects, stage.pk, _common.stage_gone())
        if locked.status != Stage.Status.PENDING:
            raise NotNow(
                gettext("a stage's settings are fixed once it starts"), code="stage_started"
            )
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
    with _common.stage_changing(
        actor,
        stage,
        status=Stage.Status.PENDING,
        refusal=gettext("the stage has started already"),
        code="stage_started",
    ) as locked:
        earlier = Stage.objects.filter(tournament=locked.tournament, order__lt=locked.order)
        if earlier.exclude(status=Stage.Status.COMPLETE).exists():
            raise NotNow(
                gettext("the stages before this one are not complete"), code="previous_running"
            )
        check_settings(locked)  # a row saved before its settings were checked, or past them
        teams = draw.entrants(locked)
        if not_checked_in is not None and locked.entry == Stage.Entry.REGISTERED:
            _refuse_left_out(locked, {t.pk for t in teams}, set(not_checked_in))
        if len(teams) < 2:
            raise NotNow(
                gettext(
                    "the stage needs at least 2 teams, and %(count)s are in (a registered team "
                    "is in once it has checked in)"
                )
                % {"count": len(teams)},
                code="too_few_teams",
            )
        refuse(group_by_field(field_problems(locked, len(teams))))
        groups = draw.groups_of(locked, [t.pk for t in teams])
        StageEntry.objects.bulk_create(
            StageEntry(stage=locked, team=team, seed=n, group=groups.get(team.pk))
            for n, team in enumerate(teams, start=1)
        )
        locked.status, locked.started_at = Stage.Status.RUNNING, timezone.now()
        locked.save(update_fields=["status", "started_at", "seeding_seed"])
        if locked.elimination:
            draw.draw_bracket(locked, [t.pk for t in teams])
            if not locked.review_draw:
                _publish_draw(actor=actor, stage=locked)
        # round 0: every team that entered, by seed
        standings.update_stage_standings(stage_id=locked.pk)
    return locked


def _publish_draw(*, actor: Any, stage: Stage) -> Round:
    """Publish a drawn bracket (its first round: the whole bracket), as a director would."""
    first = stage.round_set.order_by("number").first()
    assert first is not None  # drawn: a bracket has at least its final
    return rounds.round_publish(actor=actor, round=first)


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
        raise NotNow(gettext("1 team registered is not checked in: %(team)s: check it in, or "
                             "start without it") % {"team": names[0]},
                     code="not_checked_in")  # fmt: skip
    if names:
        raise NotNow(gettext("%(count)s teams registered are not checked in: %(teams)s: check "
                             "them in, or start without them")
                     % {"count": len(names), "teams": ", ".join(names)},
                     code="not_checked_in")  # fmt: skip


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
        _common.shown(stage.tournament_id, stage.pk)
        Tournament.objects.select_for_update(no_key=True).filter(pk=stage.tournament_id).first()
        locked = Stage.objects.filter(pk=stage.pk).first()
        if locked is None:
            return
        if locked.status != Stage.Status.PENDING or locked.round_set.exists():
            raise NotNow(
                gettext("a stage can be removed only before it starts"), code="stage_started"
            )
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
