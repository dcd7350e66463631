"""Fixtures for the tests that run real Celery workers against Redis and PostgreSQL."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from django.db import connection

from deploy.celery import app as celery_app

from .worker import Worker, database_url, forget_queue


@pytest.fixture(scope="session")
def run_queue() -> str:
    """This test run's own Celery queue (the Redis server is shared)."""
    return f"seep-test-scoring-{uuid.uuid4().hex[:12]}"


@pytest.fixture
def broker(run_queue: str, transactional_db: None) -> Iterator[str]:
    """Send this process's tasks to REDIS_URL on the run's queue; delete its keys afterwards.

    Needs committed data (the worker is another process): the test database is transactional.
    """
    assert not celery_app.conf.task_always_eager, "redis tests send tasks to a real broker"
    conf = celery_app.conf
    saved = conf.task_default_queue
    conf.task_default_queue = run_queue
    try:
        yield run_queue
    finally:
        conf.task_default_queue = saved
        client = redis.Redis.from_url(os.environ["REDIS_URL"])
        try:
            forget_queue(client, run_queue)
        finally:
            client.close()


@pytest.fixture
def workers(broker: str, tmp_path: Path) -> Iterator[Callable[..., Worker]]:
    """Start real workers on the run's queue and the test database; stop them at the end."""
    started: list[Worker] = []

    def start(**options: Any) -> Worker:
        options.setdefault("redis_url", os.environ["REDIS_URL"])
        worker = Worker(
            name=f"{broker}-{len(started) + 1}",
            queue=broker,
            database_url=database_url(connection.settings_dict),
            log_dir=tmp_path,
            **options,
        )
        started.append(worker)
        return worker.start()

    try:
        yield start
    finally:
        for worker in started:
            worker.stop()
        for worker in started:  # shown when the test fails
            print(f"--- {worker.name} ---\n{worker.output()[-6000:]}")
