"""Registration: teams entered, checked in and withdrawn."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from tournaments.models import Match, Player, Team, Tournament

from ..errors import InvalidSettings, NotNow
from ..models import Fixture, Registration, Round, Stage, StageEntry
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
    try:
        team.full_clean()
    except ValidationError as exc:
        raise InvalidSettings(" ".join(exc.messages), code="bad_team") from exc
    with transaction.atomic():
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
