"""When a match ends: its fixture takes the result, and what follows from it."""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import Q

from scoring.models import MatchResult

from ..models import Fixture, Round, Stage
from . import _common, follow, notices

log = logging.getLogger(__name__)


def fixture_result_of(result: MatchResult | None) -> str:
    """The fixture result a match's scoring projection says (pending while it is not over)."""
    if result is None or result.completed_at is None:
        return Fixture.Result.PENDING
    if result.forfeited_by is not None:
        return Fixture.Result.FORFEIT_A if result.forfeited_by == 0 else Fixture.Result.FORFEIT_B
    if result.winner is None:
        return Fixture.Result.DRAW
    return Fixture.Result.A if result.winner == 0 else Fixture.Result.B


def fixture_match_completed(*, match_id: int) -> Fixture | None:
    """Bring the fixture of a match up to the match's result, and what follows from it.

    Called when scoring records a match's result or a change to it (a signal, from its
    task), and by the catch-up for a message that was lost; safe to run twice or
    concurrently: the stage's row is locked and the fixture's result is the match's, read
    as it is now. A corrected result moves the bracket (``follow.reconcile_bracket``) and the
    standings; a reopened match makes its fixture pending again (and its round published).
    """
    fixture = Fixture.objects.filter(match_id=match_id).select_related("round").first()
    if fixture is None:
        return None  # a match that no stage scheduled
    with transaction.atomic():
        stage = Stage.objects.select_for_update(no_key=True).get(pk=fixture.stage_id)
        _common.shown(stage.tournament_id, stage.pk)
        fixture = Fixture.objects.select_related("round").get(pk=fixture.pk)
        outcome = fixture_result_of(MatchResult.objects.filter(match_id=match_id).first())
        was_complete = fixture.round.status == Round.Status.COMPLETE
        if fixture.result == outcome:
            if outcome == Fixture.Result.PENDING:
                return fixture  # not over yet, as the projection says
        else:
            if fixture.result != Fixture.Result.PENDING:
                log.info(
                    "fixture %s: match %s's result is now %r (was %r): a correction",
                    fixture.pk, match_id, outcome, fixture.result,
                )  # fmt: skip
                _notice_later_rounds(stage, fixture)
            Fixture.objects.filter(pk=fixture.pk).update(result=outcome)
            fixture.result = outcome
            if outcome == Fixture.Result.PENDING:
                Round.objects.filter(pk=fixture.round_id, status=Round.Status.COMPLETE).update(
                    status=Round.Status.PUBLISHED, completed_at=None
                )
                fixture.round.refresh_from_db(fields=["status", "completed_at"])
        if stage.elimination:
            follow.reconcile_bracket(stage)
        if was_complete and fixture.round.status == Round.Status.COMPLETE:
            # A correction in a completed round: its record of the heads follows the new events.
            Round.objects.filter(pk=fixture.round_id).update(
                receipts=follow.receipts(fixture.round)
            )
        else:
            follow.complete_round_if_done(fixture.round)  # writes the record when it completes
        transaction.on_commit(lambda: _common.schedule_standings(stage.pk))
    return fixture


def _notice_later_rounds(stage: Stage, fixture: Fixture) -> None:
    """A result changed after later rounds were paired on it: the directors should know."""
    later = list(
        stage.round_set.filter(number__gt=fixture.round.number)
        .exclude(status=Round.Status.DRAFT)
        .values_list("number", flat=True)
    )
    if later and not stage.elimination:
        notices.notice(
            stage, fixture, "paired_on_old_result",
            f"{fixture}: its result changed after round(s) {', '.join(map(str, later))} were "
            "paired on the earlier one; those pairings stand, the standings follow the new result",
        )  # fmt: skip


def unrecorded_completions() -> list[int]:
    """Return the matches whose fixture's result is not what the match's result says (catch-up).

    The same mapping as ``fixture_result_of``, as a query: a fixture agrees with its match
    when it is pending and the match is not over, or holds the result the match ended with.
    """
    done = Q(match__result__completed_at__isnull=False)
    played = done & Q(match__result__forfeited_by__isnull=True)
    agrees = (
        Q(result=Fixture.Result.PENDING, match__result__completed_at__isnull=True)
        | Q(result=Fixture.Result.FORFEIT_A, match__result__forfeited_by=0) & done
        | Q(result=Fixture.Result.FORFEIT_B, match__result__forfeited_by=1) & done
        | Q(result=Fixture.Result.DRAW, match__result__winner__isnull=True) & played
        | Q(result=Fixture.Result.A, match__result__winner=0) & played
        | Q(result=Fixture.Result.B, match__result__winner=1) & played
    )
    return list(
        Fixture.objects.filter(match__isnull=False, match__result__isnull=False)
        .exclude(agrees)
        .values_list("match_id", flat=True)
    )
