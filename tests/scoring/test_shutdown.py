"""Stopping a worker the way the stack stops it loses no task: a warm shutdown finishes it.

The worker runs as deploy/Procfile runs it (``python -m deploy.supervise celery ... worker``,
in a process group of its own, as honcho starts it) and is stopped as honcho stops it:
SIGTERM to that whole process group. The task in hand at that moment is held up on a row
lock; it must finish once the lock goes, the projection must reach the log, and the worker
must exit by itself without any catch-up.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from .test_worker import (
    a_score_match,
    a_task_waits_on_a_lock,
    assert_projection_equals_a_rebuild,
    enter,
    is_projected,
    result_row_locked,
    wait_projected,
)
from .worker import REPO, SUCCEEDED, database_url, tasks_settled, wait_until

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.process,
    pytest.mark.django_db(transaction=True),
]


def start_supervised_worker(queue: str, log: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url(connection.settings_dict),
        "CELERY_QUEUE": queue,
        "PYTHONUNBUFFERED": "1",
        "LOG_FORMAT": "plain",
    }
    with open(log, "ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "deploy.supervise", sys.executable, "-m", "celery", "-A",
             "deploy", "worker", "--loglevel=INFO", "--pool=prefork", "--concurrency=1",
             f"--hostname={queue}@%h",
             "--without-gossip", "--without-mingle"],
            cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,  # as honcho starts each process
        )  # fmt: skip


def test_sigterm_to_the_process_group_is_a_warm_shutdown_that_finishes_the_task(
    world: Any, broker: str, tmp_path: Path
) -> None:
    log = tmp_path / "worker.log"
    supervise = start_supervised_worker(broker, log)
    try:
        wait_until(lambda: " ready." in log.read_text(), 30, "the worker", log.read_text)
        match = a_score_match(world, (0, 1), [[60, 40]])
        wait_projected(match)
        # The first task may fold both appends: wait for a second task too, if one was sent,
        # or it (not the next append's) would be the one held on the lock below.
        wait_until(
            lambda: tasks_settled(log.read_text, os.environ["REDIS_URL"], broker),
            10,
            "the appends' tasks",
        )
        before = len(re.findall(SUCCEEDED, log.read_text()))
        with result_row_locked(match):
            enter(match, [30, 70])  # its task takes the message and waits for the row
            wait_until(a_task_waits_on_a_lock, 10, "the task to be in the middle of its work")
            os.killpg(supervise.pid, signal.SIGTERM)  # what honcho does to stop a process
            wait_until(lambda: "Warm shutdown" in log.read_text(), 10, "a warm shutdown")
            with pytest.raises(subprocess.TimeoutExpired):
                supervise.wait(timeout=2)  # it waits for the task in hand
            assert not is_projected(match)
        # The lock is gone: the task finishes, then the worker exits, by itself.
        assert supervise.wait(timeout=30) == 0
        assert is_projected(match)
        output = log.read_text()
        assert "WorkerLostError" not in output and "restarting" not in output
        assert len(re.findall(SUCCEEDED, output)) == before + 1  # and then the one held
    finally:
        if supervise.poll() is None:
            os.killpg(supervise.pid, signal.SIGKILL)
        print(log.read_text()[-5000:])
    assert_projection_equals_a_rebuild()


def test_without_supervise_the_same_sigterm_kills_the_task_in_hand(
    world: Any, broker: str, tmp_path: Path
) -> None:
    """Why supervise exists: the pool process gets the group's SIGTERM and dies mid-task."""
    log = tmp_path / "worker.log"
    env = {
        **os.environ,
        "DATABASE_URL": database_url(connection.settings_dict),
        "CELERY_QUEUE": broker,
        "PYTHONUNBUFFERED": "1",
        "LOG_FORMAT": "plain",
    }
    with open(log, "ab") as out:
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "deploy", "worker", "--loglevel=INFO",
             "--pool=prefork", "--concurrency=1", f"--hostname={broker}@%h",
             "--without-gossip", "--without-mingle"],
            cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    try:
        wait_until(lambda: " ready." in log.read_text(), 30, "the worker", log.read_text)
        match = a_score_match(world, (0, 1), [[60, 40]])
        wait_projected(match)
        with result_row_locked(match):
            enter(match, [30, 70])
            wait_until(a_task_waits_on_a_lock, 10, "the task to be in the middle of its work")
            os.killpg(worker.pid, signal.SIGTERM)
            wait_until(
                lambda: "WorkerLostError" in log.read_text() or worker.poll() is not None,
                15,
                "the pool process to die",
            )
        worker.wait(timeout=30)
        assert "WorkerLostError" in log.read_text()
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
        print(log.read_text()[-5000:])
