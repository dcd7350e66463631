"""The projection service and tasks: checkpointed, idempotent, safe out of order, caught up,
and completion written once. Eager tasks on the test database (SQLite by default)."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.db import InterfaceError, OperationalError, connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring import services, tasks
from scoring.models import DealResult, MatchResult
from scoring.projections import ProjectionError
from scoring.selectors import deal_results, lagging_matches, match_result
from scoring.services import update_match_projection
from tournaments.models import Match, MatchEvent

from .helpers import (
    committed,
    deals_of,
    enter,
    new_match,
    play,
    projection_rows,
    result_of,
    start,
    wipe_projections,
)

pytestmark = pytest.mark.django_db

# The append service's hook: patched out, appends leave the projection behind, as a lost
# message would.
NO_PROJECTION = "tournaments.services._schedule_projection"


def score_match_with_deals(world: Any, deals: list[list[int]], **kw: Any) -> Match:
    match = new_match(world, **kw)
    start(match)
    for points in deals:
        enter(match, points)
    match.refresh_from_db()
    return match


def test_every_append_moves_the_checkpoint_to_the_head_of_the_log(world: Any) -> None:
    match = new_match(world)
    start(match)
    for points in ([60, 40], [45, 55]):
        enter(match, points)
        match.refresh_from_db()
        assert result_of(match).seq == match.last_seq


def test_a_second_run_finds_the_checkpoint_and_writes_nothing(world: Any) -> None:
    match = score_match_with_deals(world, [[60, 40], [30, 70]])
    before = MatchResult.objects.get(match=match).updated_at
    update = update_match_projection(match_id=match.pk)
    assert (update.outcome, update.rows_changed, update.completed) == ("current", 0, False)
    assert MatchResult.objects.get(match=match).updated_at == before


def test_events_that_cannot_change_a_result_only_move_the_checkpoint(world: Any) -> None:
    match = world.digital_match
    start(match, first_dealer=0)
    with mock.patch(NO_PROJECTION):
        play(match, random.Random(1), moves=3)
    match.refresh_from_db()
    rows = projection_rows()["deals"]
    before = result_of(match).updated_at
    with CaptureQueriesContext(connection) as queries:  # one statement moves it
        update = update_match_projection(match_id=match.pk)
    assert (update.outcome, update.seq, update.rows_changed) == ("advanced", match.last_seq, 0)
    assert len(queries.captured_queries) == 1, [q["sql"] for q in queries.captured_queries]
    assert result_of(match).seq == match.last_seq and result_of(match).updated_at > before
    assert projection_rows()["deals"] == rows


def test_a_scored_event_after_the_checkpoint_is_folded_not_stepped_over(world: Any) -> None:
    match = score_match_with_deals(world, [[60, 40]])
    with mock.patch(NO_PROJECTION):
        enter(match, [30, 70])
    match.refresh_from_db()
    update = update_match_projection(match_id=match.pk)
    assert (update.outcome, update.seq) == ("recomputed", match.last_seq)
    assert [d.running_difference for d in deal_results(match=match)] == [20, -20]


def test_a_lagging_projection_catches_up_in_one_run(world: Any) -> None:
    with mock.patch(NO_PROJECTION):
        match = score_match_with_deals(world, [[60, 40], [30, 70], [95, 5]])
    assert match_result(match=match) is None
    update = update_match_projection(match_id=match.pk)
    assert (update.outcome, update.seq, update.rows_changed) == ("recomputed", match.last_seq, 4)
    assert update.completed
    assert [d.running_difference for d in deal_results(match=match)] == [20, -20, 0]
    assert result_of(match).winner == 0


def test_a_match_that_does_not_exist_is_nothing_to_project(world: Any) -> None:
    update = update_match_projection(match_id=987654)
    assert update.outcome == "missing"
    assert not MatchResult.objects.filter(match_id=987654).exists()


def test_stale_and_out_of_order_runs_change_nothing(world: Any) -> None:
    first = score_match_with_deals(world, [[60, 40], [70, 30]])
    second = score_match_with_deals(world, [[40, 60]], teams=(2, 3))
    rows = projection_rows()
    for match in (second, first, second, first):  # late copies, newest match first
        assert tasks.project_match.delay(match.pk).get() == "current"
    assert projection_rows() == rows


def test_completion_is_written_once_and_sends_the_hook_once(world: Any) -> None:
    with mock.patch.object(tasks.on_match_completed, "delay") as hook:
        match = score_match_with_deals(world, [[60, 40], [95, 5]])
        completed_at = result_of(match).completed_at
        assert completed_at == MatchEvent.objects.get(match=match, seq=3).recorded_at
        with committed():
            update_match_projection(match_id=match.pk)
            update_match_projection(match_id=match.pk, rebuild=True)
    hook.assert_called_once_with(match.pk)
    assert result_of(match).completed_at == completed_at


def test_the_completion_hook_waits_for_the_commit(world: Any) -> None:
    with mock.patch(NO_PROJECTION):
        match = score_match_with_deals(world, [[95, 5]])
    with mock.patch.object(tasks.on_match_completed, "delay") as hook, committed():
        update_match_projection(match_id=match.pk)
        hook.assert_not_called()
    hook.assert_called_once_with(match.pk)


def test_a_broker_down_when_the_hook_is_sent_does_not_fail_the_projection(world: Any) -> None:
    with mock.patch(NO_PROJECTION):
        match = score_match_with_deals(world, [[95, 5]])
    down = OperationalError("Error 111 connecting to the broker")
    with mock.patch.object(tasks.on_match_completed, "delay", side_effect=down) as hook:
        with committed():
            update = update_match_projection(match_id=match.pk)
        hook.assert_called_once_with(match.pk)
    assert update.completed and result_of(match).completed_at is not None


def test_a_rebuild_corrects_a_tampered_row_and_says_so(world: Any) -> None:
    match = score_match_with_deals(world, [[60, 40], [30, 70]])
    rows = projection_rows()
    DealResult.objects.filter(match=match, deal=1).update(running_difference=55, bazzi=None)
    MatchResult.objects.filter(match=match).update(bazzis1=3)
    assert update_match_projection(match_id=match.pk).outcome == "current"  # trusts the checkpoint
    update = update_match_projection(match_id=match.pk, rebuild=True)
    assert (update.outcome, update.rows_changed) == ("recomputed", 2)
    assert projection_rows() == rows


def test_a_rebuild_removes_rows_the_log_does_not_score(world: Any) -> None:
    match = score_match_with_deals(world, [[60, 40]])
    stray = DealResult.objects.get(match=match, deal=1)
    stray.pk, stray.deal = None, 7
    stray.save()
    update = update_match_projection(match_id=match.pk, rebuild=True)
    assert update.rows_changed == 1
    assert [d.deal for d in deals_of(match)] == [1]


def test_a_log_that_does_not_fold_is_refused_and_nothing_is_written(world: Any) -> None:
    match = score_match_with_deals(world, [[60, 40]])
    rows = projection_rows()
    # Written past the append service (inserts are all the table allows): a deal that
    # both teams lose under the minimum cannot be scored (L3).
    MatchEvent.objects.create(
        match=match, seq=3, kind="deal_ended", hash="0" * 64,
        payload={"deal": 2, "dealer": 1, "points": [4, 5], "sweeps": [[], []], "total": [4, 5]},
    )  # fmt: skip
    Match.objects.filter(pk=match.pk).update(last_seq=3)
    with pytest.raises(ProjectionError, match="event 3: deal 2"):
        update_match_projection(match_id=match.pk)
    assert projection_rows() == rows


# --- catching up ----------------------------------------------------------------------------


def test_lagging_matches_are_those_behind_their_log(world: Any) -> None:
    never_projected = new_match(world, teams=(2, 3))
    with mock.patch(NO_PROJECTION):
        start(never_projected)
    current = score_match_with_deals(world, [[60, 40]])
    behind = score_match_with_deals(world, [[60, 40]], teams=(1, 2))
    with mock.patch(NO_PROJECTION):
        enter(behind, [50, 50])
    not_started = new_match(world, teams=(3, 0))
    lagging = set(lagging_matches().values_list("pk", flat=True))
    assert lagging == {never_projected.pk, behind.pk}
    assert current.pk not in lagging and not_started.pk not in lagging
    an_hour_ago = timezone.now() - timedelta(hours=1)
    assert not lagging_matches(recorded_before=an_hour_ago).exists()


def test_catch_up_sends_every_lagging_match_and_brings_it_up_to_date(world: Any) -> None:
    with mock.patch(NO_PROJECTION):
        first = score_match_with_deals(world, [[60, 40], [30, 70]])
        second = score_match_with_deals(world, [[95, 5]], teams=(2, 3))
    assert tasks.catch_up.delay(grace_seconds=3600).get() == 0  # appended just now
    assert tasks.catch_up.delay(grace_seconds=0).get() == 2
    for match in (first, second):
        assert result_of(match).seq == match.last_seq
    assert tasks.catch_up.delay(grace_seconds=0).get() == 0
    rows = projection_rows()
    wipe_projections()
    for match in (first, second):
        update_match_projection(match_id=match.pk, rebuild=True)
    assert projection_rows() == rows


def test_catch_up_messages_expire_so_a_backed_up_queue_holds_few_copies(
    world: Any, settings: Any
) -> None:
    settings.SCORING_CATCH_UP_SECONDS = 15
    with mock.patch(NO_PROJECTION):
        match = score_match_with_deals(world, [[60, 40]])
    with mock.patch.object(tasks.project_match, "apply_async") as send:
        assert tasks.catch_up(grace_seconds=0) == 1
    send.assert_called_once_with((match.pk,), expires=60)


# --- the tasks' delivery guarantees ---------------------------------------------------------


@pytest.mark.parametrize("task", [tasks.project_match, tasks.catch_up, tasks.on_match_completed])
def test_tasks_are_acknowledged_late_and_have_time_limits(task: Any) -> None:
    assert task.acks_late and task.reject_on_worker_lost and task.ignore_result
    assert 0 < task.soft_time_limit < task.time_limit <= 60


def test_a_database_error_is_retried_with_backoff(world: Any) -> None:
    match = score_match_with_deals(world, [[60, 40]])
    assert tasks.project_match.autoretry_for == (OperationalError, InterfaceError)
    assert tasks.project_match.retry_backoff and tasks.project_match.max_retries
    real = services.update_match_projection
    with mock.patch.object(
        services,
        "update_match_projection",
        side_effect=[OperationalError("server closed the connection"), real(match_id=match.pk)],
    ) as update:
        result = tasks.project_match.apply(args=(match.pk,), throw=False)
    assert result.successful() and result.get() == "current"
    assert update.call_count == 2
