"""Exactly one beat sends: a second one stands by, takes over when the first dies, and a beat
that stalled past its lock does not send once it wakes up (deploy/beat.py).

Real ``celery beat`` processes on a private Redis, with no worker: every catch-up a beat sends
stays in the queue, so the queue counts what was sent (the scoring catch-up, due every
second here; the schedule's other entries are left out of the count).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.scoring.worker import REPO, RedisServer, private_redis, wait_until

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.process]

QUEUE = "seep-test-beat"
LOCK_SECONDS = 3


@dataclass
class Beat:
    name: str
    redis: RedisServer
    log_dir: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def log_path(self) -> Path:
        return self.log_dir / f"{self.name}.log"

    def start(self) -> Beat:
        env = {
            **os.environ,
            "REDIS_URL": self.redis.url,
            "CELERY_QUEUE": QUEUE,
            "SCORING_CATCH_UP_SECONDS": "1",
            "BEAT_LOCK_SECONDS": str(LOCK_SECONDS),
            "LOG_FORMAT": "json",
            "DATABASE_URL": "sqlite:///:memory:",  # beat reads no database
            "PYTHONUNBUFFERED": "1",
        }
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "deploy", "beat", "--loglevel=INFO"],
                cwd=REPO,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        wait_until(lambda: "beat: Starting..." in self.output(), 30, f"{self.name} to start")
        return self

    def output(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def messages(self) -> list[str]:
        return [
            json.loads(line)["message"]
            for line in self.output().splitlines()
            if line.startswith("{")
        ]

    def sent(self) -> int:
        return sum(m.startswith("Scheduler: Sending due task") for m in self.messages())

    def holds_the_lock(self) -> bool:
        return any("took the beat lock" in m for m in self.messages())

    def signal(self, signum: int) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signum)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)


def catch_ups(server: RedisServer) -> int:
    """Return how many scoring catch-ups wait in the queue (what the beats sent)."""
    messages = server.client().lrange(QUEUE, 0, -1)
    return sum(json.loads(m)["headers"]["task"] == "scoring.tasks.catch_up" for m in messages)


@pytest.fixture
def beats(tmp_path: Path) -> Iterator[tuple[Beat, Beat, RedisServer]]:
    with private_redis(tmp_path) as server:
        first = Beat("beat-1", server, tmp_path).start()
        wait_until(first.holds_the_lock, 10, "the first beat to take the lock")
        second = Beat("beat-2", server, tmp_path).start()
        try:
            yield first, second, server
        finally:
            for beat in (first, second):
                with_signal = beat.process is not None and beat.process.poll() is None
                if with_signal:
                    beat.signal(signal.SIGCONT)  # in case a test left it stopped
                beat.stop()
                print(f"--- {beat.name} ---\n{beat.output()[-3000:]}")


def lock_check(server: RedisServer) -> int:
    """Run the beat's container health check (``python -m deploy.beat``); return its status."""
    return subprocess.run(
        [sys.executable, "-m", "deploy.beat"],
        cwd=REPO,
        env={**os.environ, "REDIS_URL": server.url, "CELERY_QUEUE": QUEUE},
        capture_output=True,
        timeout=30,
        check=False,
    ).returncode


def test_a_second_beat_stands_by_and_takes_over_when_the_first_dies(
    beats: tuple[Beat, Beat, RedisServer],
) -> None:
    first, second, server = beats
    queued = server.client()
    began, sent_before = time.monotonic(), catch_ups(server)
    time.sleep(4)
    sent = catch_ups(server) - sent_before
    elapsed = time.monotonic() - began
    assert 2 <= sent <= elapsed + 1, f"{sent} catch-ups in {elapsed:.1f} s: one beat sends"
    assert second.sent() == 0 and not second.holds_the_lock()
    assert lock_check(server) == 0

    first.process.kill()  # type: ignore[union-attr]  # SIGKILL: the lock is not released
    first.process.wait(timeout=10)  # type: ignore[union-attr]
    killed = time.monotonic()
    wait_until(second.holds_the_lock, LOCK_SECONDS + 5, "the standby to take over")
    assert time.monotonic() - killed <= LOCK_SECONDS + LOCK_SECONDS / 3 + 1.5
    wait_until(lambda: second.sent() >= 2, 10, "the standby to send")

    second.stop()  # a warm stop gives the lock back at once
    assert queued.get("seep:beat:" + QUEUE) is None
    assert lock_check(server) == 1


def test_a_beat_that_stalled_past_its_lock_does_not_send_when_it_wakes(
    beats: tuple[Beat, Beat, RedisServer],
) -> None:
    first, second, server = beats
    first.signal(signal.SIGSTOP)  # a stall longer than the lock's life
    wait_until(second.holds_the_lock, LOCK_SECONDS + 5, "the standby to take over")
    sent_by_first = first.sent()
    first.signal(signal.SIGCONT)
    wait_until(
        lambda: any("lost the beat lock" in m for m in first.messages()),
        LOCK_SECONDS + 5,
        "the first beat to find its lock gone",
    )
    time.sleep(2)
    # At most one catch-up was due at the instant it woke (sent before its next renewal).
    assert first.sent() - sent_by_first <= 1
    before = catch_ups(server)
    time.sleep(3)
    assert catch_ups(server) - before <= 4, "one beat sends, not two"
    assert first.sent() - sent_by_first <= 1
