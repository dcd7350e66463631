"""Two copies of the projection task at the same time, on PostgreSQL's real row locks: the
second waits for the first and then finds nothing to do, even when both race to create the
match's result row."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from scoring import tasks
from scoring.services import ProjectionUpdate, update_match_projection

from .helpers import enter, new_match, play, projection_rows, result_of, start, wipe_projections
from .worker import wait_until

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def someone_waits_on_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND wait_event_type = 'Lock'",
            [connection.settings_dict["NAME"]],
        )
        return bool(cursor.fetchone()[0])


def in_thread(work: Callable[[], ProjectionUpdate], results: dict[str, Any], key: str) -> Any:
    def run() -> None:
        try:
            results[key] = work()
        except BaseException as exc:  # reported by the test, not lost in the thread
            results[key] = exc
        finally:
            connection.close()

    thread = threading.Thread(target=run, name=key)
    thread.start()
    return thread


def test_a_second_copy_waits_for_the_first_and_writes_nothing(world: Any) -> None:
    with mock.patch("tournaments.services._schedule_projection"):  # no projection yet
        match = new_match(world)
        start(match)
        for points in ([60, 40], [30, 70], [95, 5]):
            enter(match, points)
    results: dict[str, Any] = {}
    first_in = threading.Event()
    release_first = threading.Event()

    def first() -> ProjectionUpdate:
        with transaction.atomic():  # holds the new row's lock until released
            update = update_match_projection(match_id=match.pk)
            first_in.set()
            assert release_first.wait(30)
        return update

    with mock.patch.object(tasks.on_match_completed, "delay") as hook:
        threads = [in_thread(first, results, "first")]
        assert first_in.wait(30)
        threads.append(
            in_thread(lambda: update_match_projection(match_id=match.pk), results, "second")
        )
        wait_until(someone_waits_on_a_lock, 10, "the second copy to wait for the first")
        release_first.set()
        for thread in threads:
            thread.join(30)
    assert results["first"].outcome == "recomputed" and results["first"].completed
    assert results["second"].outcome == "current" and not results["second"].completed
    hook.assert_called_once_with(match.pk)
    rows = projection_rows()
    wipe_projections()
    update_match_projection(match_id=match.pk, rebuild=True)
    assert projection_rows() == rows


def _second_copy_after_the_first(
    match: Any, between: Callable[[], None]
) -> tuple[ProjectionUpdate, ProjectionUpdate, int]:
    """Run a first copy that holds the result row's lock in its transaction, append more with
    ``between``, run a second copy while the first holds on (it waits for that lock), let the
    first go. Returns both updates and how many statements the second one made."""
    results: dict[str, Any] = {}
    first_in, release_first = threading.Event(), threading.Event()

    def first() -> ProjectionUpdate:
        with transaction.atomic():
            update = update_match_projection(match_id=match.pk)
            first_in.set()
            assert release_first.wait(30)
        return update

    def second() -> ProjectionUpdate:
        with CaptureQueriesContext(connection) as queries:
            update = update_match_projection(match_id=match.pk)
        results["statements"] = len(queries.captured_queries)
        return update

    threads = [in_thread(first, results, "first")]
    assert first_in.wait(30)
    with mock.patch("tournaments.services._schedule_projection"):
        between()
    threads.append(in_thread(second, results, "second"))
    wait_until(someone_waits_on_a_lock, 10, "the second copy to wait for the first")
    release_first.set()
    for thread in threads:
        thread.join(30)
    return results["first"], results["second"], results["statements"]


def a_projected_match_with_moves_since(world: Any) -> Any:
    """A digital match whose projection has a row, then moves it has not seen."""
    match = world.digital_match
    start(match, first_dealer=0)  # projected (in-process), so the result row exists
    with mock.patch("tournaments.services._schedule_projection"):
        play(match, random.Random(1), moves=2)
    match.refresh_from_db()
    return match


def test_a_checkpoint_move_that_waited_goes_on_from_where_the_first_copy_left_it(
    world: Any,
) -> None:
    match = a_projected_match_with_moves_since(world)
    moved_to = match.last_seq
    # The first copy moves the checkpoint in its one statement and holds the row; moves come
    # in meanwhile; the second copy's statement waits, then checks again from the first's.
    first, second, statements = _second_copy_after_the_first(
        match, lambda: play(match, random.Random(2), moves=3)
    )
    match.refresh_from_db()
    assert (first.outcome, first.seq) == ("advanced", moved_to)
    assert (second.outcome, second.seq, statements) == ("advanced", match.last_seq, 1)
    assert result_of(match).seq == match.last_seq
    rows = projection_rows()
    wipe_projections()
    update_match_projection(match_id=match.pk, rebuild=True)
    assert projection_rows() == rows


def test_a_checkpoint_move_that_waited_for_a_copy_at_the_same_head_does_nothing(
    world: Any,
) -> None:
    match = a_projected_match_with_moves_since(world)
    first, second, statements = _second_copy_after_the_first(match, lambda: None)
    assert (first.outcome, first.seq) == ("advanced", match.last_seq)
    # checked again against the first's row, the statement moves nothing; then one read
    assert (second.outcome, second.seq, statements) == ("current", match.last_seq, 2)


def test_a_copy_queued_behind_another_folds_a_deal_the_first_copy_did_not_see(
    world: Any,
) -> None:
    with mock.patch("tournaments.services._schedule_projection"):
        match = new_match(world)
        start(match)
        enter(match, [60, 40])
    # No row yet: both copies take the locked path (the second waits to make the row); the
    # second sees the deal entered meanwhile, so it folds it rather than moving past it.
    first, second, _ = _second_copy_after_the_first(match, lambda: enter(match, [30, 70]))
    match.refresh_from_db()
    assert first.outcome == "recomputed" and first.seq == match.last_seq - 1
    assert (second.outcome, second.seq) == ("recomputed", match.last_seq)
    rows = projection_rows()
    assert [d["running_difference"] for d in rows["deals"]] == [20, -20]
    wipe_projections()
    update_match_projection(match_id=match.pk, rebuild=True)
    assert projection_rows() == rows
