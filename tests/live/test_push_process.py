"""The push process as the stack runs it (``uvicorn deploy.push:application``, its own
process), on PostgreSQL and Redis: a confirmation published by this process reaches a viewer
of the push process through Redis; a killed push process's viewer connects to the next one
with the version it holds and catches up on what changed in between."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from django.db import connection

from deploy.celery import app as celery_app
from tests.conftest import redis_reachable
from tests.scoring.worker import REPO, free_port
from tests.web.conftest import make_club

from .server import reading
from .test_push import Screen, end_deal, part_now, shows

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.process,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture(autouse=True)
def _tasks_in_process() -> Iterator[None]:
    """The projections run in this process (no worker here): only the push side is real."""
    saved = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    try:
        yield
    finally:
        celery_app.conf.task_always_eager = saved


def _database_url() -> str:
    s = connection.settings_dict
    password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
    where = f"{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}"
    return f"postgres://{s['USER']}{password}@{where}/{s['NAME']}"


@contextlib.contextmanager
def push_process(port: int) -> Iterator[subprocess.Popen[bytes]]:
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "ALLOWED_HOSTS": "127.0.0.1",
        "DEBUG": "1",
        "PYTHONUNBUFFERED": "1",
        "PUSH_RENDER_PROCESSES": "2",  # as deployed: the parts rendered in processes of its own
    }
    command = [sys.executable, "-m", "uvicorn", "deploy.push:application", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--lifespan", "off", "--no-access-log"]
    process = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            assert process.poll() is None, "the push process exited"
            assert time.monotonic() < deadline, "the push process did not answer"
            time.sleep(0.1)
        yield process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def test_a_viewer_of_the_push_process_follows_and_catches_up_after_a_kill(settings: Any) -> None:
    assert redis_reachable() and settings.REDIS_URL
    club = make_club()
    port = free_port()
    url = f"http://127.0.0.1:{port}/push/t/{club.tournament.slug}/"
    screen = Screen()
    with push_process(port) as first, reading(url) as viewer:
        assert viewer.wait(shows(screen, part_now(club.tournament)), timeout=20)
        end_deal(club.matches[0])  # published here, heard there through Redis
        assert viewer.wait(shows(screen, part_now(club.tournament)), timeout=10)
        held = [e.id for e in viewer.events if e.id][-1]
        first.kill()  # SIGKILL: no goodbye
        assert viewer.wait_ended(timeout=10)
    end_deal(club.matches[1])  # while no push process runs
    now = part_now(club.tournament)
    assert screen.text != now
    with push_process(port), reading(url, {"Last-Event-ID": held}) as again:
        assert again.wait(shows(screen, now), timeout=10), again.events
        # once: the whole part (a new process holds no render the viewer's could patch)
        assert [e.kind for e in again.events] == ["part"]
