"""Real worker processes, the real broker, the real database: the projections are right whatever
the broker and the workers do.

Each test starts ``celery worker`` processes (prefork) on the test database and a queue of its
own, appends through the real service in this process (so tasks are sent after each commit),
and in the end compares the projection with a rebuild from the logs alone. Fault cases: a
worker SIGKILLed in the middle of a task (the whole worker, or its pool process), a broker
flushed with tasks queued, a broker restarted, every task delivered twice, tasks delivered
newest first with stale copies late. Waits are polls with a deadline, never fixed sleeps.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import signal
import uuid
from collections.abc import Callable, Iterator
from typing import Any
from unittest import mock

import psycopg
import pytest
from django.core.management import call_command
from django.db import connection

from deploy.celery import app as celery_app
from scoring import tasks
from scoring.models import MatchResult
from tournaments.models import Match

from .helpers import enter, new_match, play, projection_rows, start, wipe_projections
from .worker import SUCCEEDED, Worker, private_redis, tasks_settled, wait_until

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.process,
    pytest.mark.django_db(transaction=True),
]

SCHEDULE = "tournaments.services._schedule_projection"  # what the append service sends


def is_projected(*matches: Match) -> bool:
    """Whether every match's projection has reached the head of its log."""
    heads = dict(Match.objects.filter(pk__in=[m.pk for m in matches]).values_list("pk", "last_seq"))
    checkpoints = dict(
        MatchResult.objects.filter(match__in=list(heads)).values_list("match_id", "seq")
    )
    return all(checkpoints.get(pk) == head for pk, head in heads.items())


def wait_projected(*matches: Match, timeout: float = 30) -> None:
    wait_until(lambda: is_projected(*matches), timeout, "the projections to reach the logs")


def assert_projection_equals_a_rebuild() -> None:
    rows = projection_rows()
    assert rows["matches"], "something was projected"
    wipe_projections()
    call_command("rebuild_projections", verbosity=0)
    assert projection_rows() == rows


def a_score_match(world: Any, teams: tuple[int, int], deals: list[list[int]]) -> Match:
    match = new_match(world, fmt={"bazzis": 3}, teams=teams)
    start(match)
    for points in deals:
        enter(match, points)
    return match


@contextlib.contextmanager
def result_row_locked(match: Match) -> Iterator[None]:
    """Hold a lock on the match's result row from another connection (a task will wait on it)."""
    settings = connection.settings_dict
    with psycopg.connect(
        dbname=settings["NAME"],
        user=settings["USER"],
        password=settings["PASSWORD"] or None,
        host=settings["HOST"],
        port=settings["PORT"] or None,
    ) as locker:
        locker.execute(
            "SELECT 1 FROM scoring_matchresult WHERE match_id = %s FOR UPDATE", [match.pk]
        )
        yield
        locker.rollback()


def a_task_waits_on_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND wait_event_type = 'Lock'",
            [connection.settings_dict["NAME"]],
        )
        return bool(cursor.fetchone()[0])


def test_appends_are_projected_by_a_worker_within_bounded_time(
    world: Any, workers: Callable[..., Worker]
) -> None:
    worker = workers()
    scored = a_score_match(world, (2, 3), [[70, 30], [8, 92], [55, 45]])
    digital = world.digital_match
    start(digital, first_dealer=1, seed=5)
    play(digital, random.Random(6), moves=100)
    wait_projected(scored, digital, timeout=30)
    enter(scored, [60, 40])
    wait_projected(scored, timeout=10)  # one append: projected within a bound
    # By the worker (this process sends, never runs), in no more runs than appends: an append
    # while its match's task waits in the queue sends none (scoring.tasks.schedule_projection).
    scored.refresh_from_db()
    digital.refresh_from_db()
    assert 2 <= worker.count(SUCCEEDED) <= digital.last_seq + scored.last_seq
    worker.stop()
    assert_projection_equals_a_rebuild()


def test_every_task_delivered_twice_changes_nothing(
    world: Any, workers: Callable[..., Worker]
) -> None:
    worker = workers(concurrency=2)  # the two copies may run at the same time
    sent = []

    def twice(match_id: int) -> None:
        task_id = str(uuid.uuid4())
        for _ in range(2):
            tasks.project_match.apply_async((match_id,), task_id=task_id)
            sent.append(match_id)

    with mock.patch(SCHEDULE, side_effect=twice):
        scored = a_score_match(world, (2, 3), [[80, 20], [70, 30], [5, 95], [60, 40], [95, 5]])
        digital = world.digital_match
        start(digital, first_dealer=0, seed=8)
        play(digital, random.Random(9), moves=50)
    wait_projected(scored, digital)
    wait_until(
        lambda: worker.count(SUCCEEDED) == len(sent),
        30,
        f"all {len(sent)} copies to run",
        lambda: f"(ran: {worker.count(SUCCEEDED)})",
    )
    assert worker.count(rf"match {scored.pk} completed:") == 1  # written once, not twice
    worker.stop()
    assert_projection_equals_a_rebuild()


def test_tasks_delivered_newest_first_with_stale_copies_late(
    world: Any, workers: Callable[..., Worker]
) -> None:
    sent: list[int] = []
    with mock.patch(SCHEDULE, side_effect=sent.append):  # held back, in append order
        matches = [
            a_score_match(world, (0, 1), [[60, 40]]),
            a_score_match(world, (2, 3), [[30, 70]]),
        ]
        for points in ([95, 5], [45, 55], [8, 92]):
            for match in matches:
                enter(match, points)
    assert not MatchResult.objects.exists()
    newest_first = sent[::-1]
    late = len(newest_first) // 2
    for n, match_id in enumerate(newest_first):
        tasks.project_match.apply_async((match_id,), countdown=2 if n >= late else None)
    worker = workers()
    wait_projected(*matches)
    wait_until(lambda: worker.count(SUCCEEDED) == len(sent), 30, "the late copies to run")
    worker.stop()
    assert_projection_equals_a_rebuild()


def settled(worker: Worker) -> None:
    """Wait until the worker has run every task that a_score_match's two appends sent.

    The first task may fold both appends, so the match is projected before a second task
    runs; a row lock taken then would hold that late task, not the next append's.
    """
    wait_until(
        lambda: tasks_settled(worker.output, worker.redis_url, worker.queue),
        10,
        "the appends' tasks to run",
    )


CAUGHT_UP_ONE = r"catch-up: 1 match projection\(s\) behind their log"


def test_a_worker_killed_mid_task_loses_the_message_and_the_catch_up_recovers_it(
    world: Any, workers: Callable[..., Worker]
) -> None:
    first = workers()
    match = a_score_match(world, (0, 1), [[60, 40]])
    wait_projected(match)
    settled(first)
    with result_row_locked(match):
        enter(match, [30, 70])  # its task takes the message and waits for the row
        wait_until(a_task_waits_on_a_lock, 10, "the task to be in the middle of its work")
        first.kill()  # SIGKILL, the worker and its pool: the message is never acknowledged
    second = workers()
    # The message waits in Redis' unacked set for the visibility timeout (10 minutes):
    # nothing brings this match up to date...
    assert not is_projected(match)
    tasks.catch_up.delay(grace_seconds=0)  # ...but the catch-up, as beat would send it
    wait_projected(match)
    wait_until(lambda: second.count(CAUGHT_UP_ONE) >= 1, 10, "the catch-up's line in the log")
    assert second.count(CAUGHT_UP_ONE) == 1
    second.stop()
    assert_projection_equals_a_rebuild()


def test_a_pool_process_killed_mid_task_has_its_message_delivered_again(
    world: Any, workers: Callable[..., Worker]
) -> None:
    worker = workers()
    match = a_score_match(world, (0, 1), [[60, 40]])
    wait_projected(match)
    settled(worker)
    with result_row_locked(match):
        enter(match, [30, 70])
        wait_until(a_task_waits_on_a_lock, 10, "the task to be in the middle of its work")
        (pool_process,) = worker.pool_processes()
        os.kill(pool_process, signal.SIGKILL)
        wait_until(lambda: worker.count(r"WorkerLostError"), 10, "the worker to see the loss")
    # Acknowledged late and rejected on the lost process: re-queued, run by a new process.
    wait_projected(match)
    assert "catch-up" not in worker.output()
    worker.stop()
    assert_projection_equals_a_rebuild()


def test_a_flushed_broker_loses_the_queued_tasks_and_beat_catches_up(
    world: Any, workers: Callable[..., Worker], broker: str, tmp_path: Any
) -> None:
    with private_redis(tmp_path) as server, celery_app.connection_for_write(server.url) as conn:

        def to_private_redis(match_id: int) -> None:
            tasks.project_match.apply_async((match_id,), connection=conn)

        with mock.patch(SCHEDULE, side_effect=to_private_redis):
            matches = [
                a_score_match(world, (0, 1), [[60, 40], [5, 95]]),
                a_score_match(world, (2, 3), [[50, 50]]),
            ]
        assert server.client().llen(broker) == 5  # queued, no worker yet
        server.client().flushdb()
        worker = workers(redis_url=server.url, beat_every=1)
        wait_projected(*matches, timeout=30)  # nothing but beat's catch-up can do this now
        # Both were caught up by beat: in one catch-up, or in two when the later match's last
        # event was still within the grace period at the first.
        named = re.findall(
            r"catch-up: \d+ match projection\(s\) behind their log: \[(.*)\]", worker.output()
        )
        caught = {int(n) for line in named for n in line.split(",")}
        assert {match.pk for match in matches} <= caught
        worker.stop()
    assert_projection_equals_a_rebuild()


def test_a_broker_restarted_with_tasks_queued_loses_them_and_the_workers_recover(
    world: Any, workers: Callable[..., Worker], broker: str, tmp_path: Any
) -> None:
    with private_redis(tmp_path) as server, celery_app.connection_for_write(server.url) as conn:

        def to_private_redis(match_id: int) -> None:
            tasks.project_match.apply_async((match_id,), connection=conn)

        worker = workers(redis_url=server.url, beat_every=1)
        with mock.patch(SCHEDULE, side_effect=to_private_redis):
            first = a_score_match(world, (0, 1), [[60, 40]])
            second = a_score_match(world, (2, 3), [[50, 50]])
            wait_projected(first, second)
            with result_row_locked(first):
                enter(first, [45, 55])  # the worker takes this task and waits for the row
                wait_until(a_task_waits_on_a_lock, 10, "the task to be in the middle of its work")
                enter(second, [30, 70])  # these wait in Redis (prefetch 1, acknowledged late)
                enter(first, [30, 70])
                assert server.client().llen(broker) == 2
                server.kill()  # no persistence: the queued tasks are gone
        server.start()  # the same port, empty; the worker and beat reconnect
        wait_projected(first, second, timeout=60)
        assert worker.count(r"catch-up: \d match projection") >= 1
        worker.stop()
    assert_projection_equals_a_rebuild()


def test_an_append_while_the_broker_is_down_is_committed_and_caught_up_later(
    world: Any, workers: Callable[..., Worker], tmp_path: Any
) -> None:
    with private_redis(tmp_path) as server, celery_app.connection_for_write(server.url) as conn:

        def to_private_redis(match_id: int) -> None:
            tasks.project_match.apply_async((match_id,), connection=conn)

        worker = workers(redis_url=server.url, beat_every=1)
        with mock.patch(SCHEDULE, side_effect=to_private_redis):
            match = a_score_match(world, (0, 1), [[60, 40]])
            wait_projected(match)
            # every task sent has run: one the worker had taken, still to run when the broker
            # goes down, would project the append below before the test looks (seen once)
            settled(worker)
            server.kill()
            enter(match, [45, 55])  # committed; its message cannot be sent (logged)
        match.refresh_from_db()
        assert match.last_seq == 3 and not is_projected(match)
        server.start()
        wait_projected(match, timeout=60)
        worker.stop()
    assert_projection_equals_a_rebuild()


def worker_sessions() -> list[tuple[int, Any]]:
    """The database sessions on the test database other than this process's: the worker's."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid, backend_start FROM pg_stat_activity WHERE datname = %s "
            "AND pid <> pg_backend_pid() AND backend_type = 'client backend' ORDER BY pid",
            [connection.settings_dict["NAME"]],
        )
        return list(cursor.fetchall())


def test_a_worker_keeps_its_database_session_between_tasks_and_drops_it_after_a_failure(
    world: Any, workers: Callable[..., Worker]
) -> None:
    worker = workers()
    match = a_score_match(world, (2, 3), [[70, 30]])
    wait_projected(match)
    settled(worker)
    kept = worker_sessions()
    assert len(kept) == 1, kept  # the pool process's, open after its tasks
    enter(match, [60, 40])
    wait_projected(match)
    settled(worker)
    assert worker_sessions() == kept  # the same session: no new connection a task
    tasks.project_match.delay("not a match")  # fails in the database (not a bigint)
    wait_until(lambda: worker.count(r"raised unexpected: DataError") == 1, 10, "the failure")
    wait_until(lambda: not worker_sessions(), 10, "the failed task's session to be closed")
    worker.stop()
    assert_projection_equals_a_rebuild()
