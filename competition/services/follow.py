"""What follows a decided fixture: a match made once both teams are known, a round complete
once every fixture of it is decided, a stage complete after its last round or its champion,
a bracket's later slots filled, and a withdrawn team's fixtures settled.

Called by the services that decide fixtures (a result, a publish, a withdrawal, an undone
one) inside their transaction, with the stage's row locked; nothing here checks the actor.
Each step is safe to take twice: a match is made once, a round or a stage completes once, a
bracket's slot is filled by a conditional update.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments import matchlog
from tournaments.access import SYSTEM
from tournaments.errors import MatchStateConflict
from tournaments.models import MatchReceipt, Team
from tournaments.services import match_append_event, match_create, match_reassign

from .. import happenings as told
from ..draw import bracket_state, schedule, stage_points
from ..models import Fixture, Registration, Round, Stage
from . import _common, notices

log = logging.getLogger(__name__)


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


def create_match(stage: Stage, fixture: Fixture) -> None:
    """Create (once) the match of a fixture whose teams are known, and start it if asked."""
    if Fixture.objects.filter(pk=fixture.pk, match__isnull=False).exists():
        return
    assert fixture.team_a_id is not None and fixture.team_b_id is not None  # both known
    match = match_create(
        tournament=stage.tournament,
        team0=Team.objects.get(pk=fixture.team_a_id),
        team1=Team.objects.get(pk=fixture.team_b_id),
        mode=stage.mode,
        match_format=stage.match_format,
        confirmation=stage.confirmation,
    )
    match.scorekeepers.set(stage.scorekeepers.all())
    Fixture.objects.filter(pk=fixture.pk).update(match=match, terms=stage_terms(stage))
    fixture.match = match
    told.match_made(stage, fixture.pk, match.pk)
    if stage.start_matches:
        match_append_event(
            match=match, expected_seq=0, kind=matchlog.MATCH_STARTED, payload={}, actor=SYSTEM
        )


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


def complete_round_if_done(round_: Round) -> None:
    """Mark a published round complete once every fixture of it is decided."""
    if round_.status != Round.Status.PUBLISHED:
        round_.refresh_from_db(fields=["status"])
        if round_.status != Round.Status.PUBLISHED:
            return
    if round_.fixtures.filter(result="").exists():
        return
    written = Round.objects.filter(pk=round_.pk, status=Round.Status.PUBLISHED).update(
        status=Round.Status.COMPLETE, completed_at=timezone.now(), receipts=receipts(round_)
    )
    if not written:
        return
    stage = Stage.objects.get(pk=round_.stage_id)
    if stage.elimination:
        return  # a bracket is complete when its champion is known (reconcile_bracket)
    total = stage.rounds if stage.format == Stage.Format.SWISS else len(schedule(stage))
    if not stage.round_set.exclude(status=Round.Status.COMPLETE).exists() and (
        stage.round_set.count() >= (total or 0)
    ):
        complete_stage(stage)


def receipts(round_: Round) -> list[dict[str, Any]]:
    """Return the round's matches' heads (seq, hash) and receipts, for the stage's record."""
    out = []
    for fixture in round_.fixtures.filter(match__isnull=False).select_related("match"):
        match = fixture.match
        assert match is not None
        receipt = MatchReceipt.objects.filter(match=match).order_by("-seq").first()
        out.append(
            {
                "match": match.pk,
                "events": match.last_seq,
                "head_hash": match.last_hash,
                "receipt": None
                if receipt is None
                else {"receipt": receipt.body, "signature": receipt.signature},
            }
        )
    return out


def complete_stage(stage: Stage) -> None:
    Stage.objects.filter(pk=stage.pk, status=Stage.Status.RUNNING).update(
        status=Stage.Status.COMPLETE, completed_at=timezone.now()
    )


def reconcile_bracket(stage: Stage) -> list[tuple[str, str]]:
    """Bring the stored bracket up to the formats' placement of the results so far.

    Call with the stage's row locked (so two completions are placed one after the other).
    Each team is placed by a conditional update of an empty slot, so a placement is made
    once, whoever asks again; a match is created for a fixture once both teams are known.
    A corrected result that sends another team to a slot (or none, while its match is open
    again) changes the slot's entrant if that fixture's match has not begun; otherwise the
    directors get a notice saying why it cannot. Returns what could not be done, as
    (fixture key, message) pairs.
    """
    fixtures = {f.key: f for f in Fixture.objects.filter(stage=stage).select_related("match")}
    state = bracket_state(stage, fixtures.values())
    problems = []
    filled: set[int] = set()
    published = stage.round_set.filter(status=Round.Status.DRAFT).count() == 0
    for placed in state.fixtures:
        fixture = fixtures[placed.key]
        for side, team_id in (("a", placed.a), ("b", placed.b)):
            current = getattr(fixture, f"team_{side}_id")
            if current == team_id:
                continue
            if current is None:
                written = Fixture.objects.filter(
                    pk=fixture.pk, **{f"team_{side}__isnull": True}
                ).update(**{f"team_{side}_id": team_id})
                if written:
                    setattr(fixture, f"team_{side}_id", team_id)
                    filled.add(fixture.pk)
            else:  # a corrected result sends another team here, or none yet (reopened)
                problem = _replace_entrant(fixture, side, team_id)
                if problem:
                    problems.append(problem)
                else:
                    filled.add(fixture.pk)
        if published and fixture.pk in filled:  # a draft's are told with its publication
            told.fixture_filled(stage, fixture.pk)
        if placed.status == "void" and fixture.result == Fixture.Result.PENDING:
            Fixture.objects.filter(pk=fixture.pk, result="").update(result=Fixture.Result.VOID)
            fixture.result = Fixture.Result.VOID
        elif placed.status == "ready" and published and fixture.result == "":
            _settle_or_start(stage, fixture)
    for fixture_key, message in problems:
        log.warning("stage %s bracket: %s", stage.pk, message)
        notices.notice(stage, fixtures[fixture_key], "bracket_entrant_fixed", message)
    if state.finished:
        complete_stage(stage)
    return problems


def _replace_entrant(fixture: Fixture, side: str, team_id: int | None) -> tuple[str, str] | None:
    """Put ``team_id`` (None: nobody yet) in a slot that holds another team, if still possible."""
    current = getattr(fixture, f"team_{side}_id")
    what = f"team {team_id}" if team_id is not None else "no team until its source is decided"
    if fixture.result != Fixture.Result.PENDING:
        return fixture.key, (
            f"{fixture.key} was decided with team {current}; the corrected results send {what}"
        )
    if fixture.match_id is not None:
        assert fixture.match is not None
        teams = {"a": fixture.team_a_id, "b": fixture.team_b_id, side: team_id}
        discarded = teams["a"] is None or teams["b"] is None
        if discarded:  # the fixture lets go of a match that is discarded (it protects it)
            Fixture.objects.filter(pk=fixture.pk).update(match=None)
        try:
            kept = match_reassign(
                match=fixture.match,
                team0=None if teams["a"] is None else Team.objects.get(pk=teams["a"]),
                team1=None if teams["b"] is None else Team.objects.get(pk=teams["b"]),
            )
        except MatchStateConflict:
            if discarded:
                Fixture.objects.filter(pk=fixture.pk).update(match=fixture.match_id)
            return fixture.key, (
                f"{fixture.key}: match {fixture.match_id} has begun with team {current}; the "
                f"corrected results send {what}. Its teams are fixed: let it stand, or forfeit "
                f"it and settle the bracket by hand"
            )
        fixture.match = kept
    setattr(fixture, f"team_{side}_id", team_id)
    fixture.save(update_fields=[f"team_{side}", "match"])
    log.info("fixture %s: entrant %s replaced by %s after a correction", fixture.key, current, what)
    return None


def _settle_or_start(stage: Stage, fixture: Fixture) -> None:
    """A fixture whose two teams are known: a forfeit if one has withdrawn, else its match."""
    teams = [t for t in (fixture.team_a_id, fixture.team_b_id) if t is not None]
    withdrawn = set(
        Registration.objects.filter(team_id__in=teams, withdrawn_at__isnull=False).values_list(
            "team_id", flat=True
        )
    )
    if withdrawn:
        side = "a" if fixture.team_a_id in withdrawn else "b"
        result = Fixture.Result.FORFEIT_A if side == "a" else Fixture.Result.FORFEIT_B
        gone = fixture.team_a_id if side == "a" else fixture.team_b_id
        record = {"team": gone, "side": side, "match": fixture.match_id}
        Fixture.objects.filter(pk=fixture.pk, result="").update(result=result, withdrawal=record)
        fixture.result, fixture.withdrawal = result, record
        _reconcile_after_result(stage, fixture)
        return
    if fixture.match_id is None:
        create_match(stage, fixture)


def _reconcile_after_result(stage: Stage, fixture: Fixture) -> None:
    transaction.on_commit(lambda: _common.schedule_standings(stage.pk))
    complete_round_if_done(fixture.round)
