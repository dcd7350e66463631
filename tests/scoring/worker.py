"""Real Celery workers, private Redis servers and polling, for the integration and fault tests.

Other test runs (and pytest-xdist workers) share the Redis server at REDIS_URL, so every run
sends its tasks to a queue of its own (``CELERY_QUEUE``, read by deploy/settings.py, and
``task_default_queue`` in this process) and, when done, deletes its own keys and nothing
else. A test that flushes or restarts Redis does it to a private ``redis-server``.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import redis

from scoring.tasks import PENDING_PREFIX

REPO = Path(__file__).resolve().parents[2]


def wait_until(
    predicate: Callable[[], Any], timeout: float, what: str, details: Callable[[], str] = str
) -> Any:
    """Poll ``predicate`` until it returns something truthy; fail after ``timeout`` seconds.

    ``details`` says what was seen instead, in the failure message.
    """
    deadline = time.monotonic() + timeout
    interval = 0.01
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(
                f"timed out after {timeout} s waiting for {what} {details()}", pytrace=False
            )
        time.sleep(interval)
        interval = min(interval * 2, 0.2)


def database_url(settings_dict: dict[str, Any]) -> str:
    """Return a DATABASE_URL for the database Django is connected to (the test database)."""
    user = quote(settings_dict.get("USER") or "", safe="")
    password = settings_dict.get("PASSWORD") or ""
    auth = f"{user}:{quote(password, safe='')}" if password else user
    host = settings_dict.get("HOST") or "localhost"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{auth}@{host}:{port}/{quote(settings_dict['NAME'], safe='')}"


RECEIVED = r"Task scoring\.tasks\.project_match\[[-\w]+\] received"
SUCCEEDED = r"Task scoring\.tasks\.project_match\[[-\w]+\] succeeded"  # one per task run


def tasks_settled(read_output: Callable[[], str], redis_url: str, queue: str) -> bool:
    """Whether every ``project_match`` sent to ``queue`` has run: none waits in Redis, none is
    still flagged as sent and not started, and each one the worker's log says it received
    has succeeded.

    Appends may share a task (``scoring.tasks.schedule_projection``), so how many run depends
    on timing; a test that holds the next task on a lock waits for this first, or the task it
    holds could be an earlier append's, sent late. The log is read last: a task takes its
    match's flag down when it starts, after the worker logged it received, so once no flag is
    up every task sent is in the log (a message the worker has taken from the list but not
    yet logged is still flagged).
    """
    client = redis.Redis.from_url(redis_url)
    try:
        waiting = client.llen(queue)
        flagged = next(iter(client.scan_iter(f"{PENDING_PREFIX}:{queue}:*")), None)
    finally:
        client.close()
    output = read_output()
    received, succeeded = (len(re.findall(p, output)) for p in (RECEIVED, SUCCEEDED))
    return waiting == 0 and flagged is None and received == succeeded


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Worker:
    """A ``celery worker`` process (prefork pool), optionally with an embedded beat."""

    name: str
    queue: str
    database_url: str
    redis_url: str
    log_dir: Path
    concurrency: int = 1
    queues: str | None = None  # -Q: the queues it reads (None: the default queue)
    beat_every: int | None = None  # seconds between catch-ups; None: no beat
    env: dict[str, str] = field(default_factory=dict)  # more environment for the worker
    process: subprocess.Popen[bytes] | None = None
    log_path: Path = field(init=False)

    def __post_init__(self) -> None:
        self.log_path = self.log_dir / f"{self.name}.log"

    def start(self, timeout: float = 30) -> Worker:
        env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis_url,
            "CELERY_QUEUE": self.queue,
            "PYTHONUNBUFFERED": "1",
            "LOG_LEVEL": "INFO",
            **self.env,
        }
        command = [
            sys.executable, "-m", "celery", "-A", "deploy", "worker", "--pool=prefork",
            f"--concurrency={self.concurrency}", f"--hostname={self.name}@%h", "--loglevel=INFO",
            "--without-gossip", "--without-mingle", "--without-heartbeat",
        ]  # fmt: skip
        if self.queues is not None:
            command.append(f"--queues={self.queues}")
        if self.beat_every is not None:
            env["SCORING_CATCH_UP_SECONDS"] = str(self.beat_every)
            command += ["--beat", f"--schedule={self.log_dir / (self.name + '.beat')}"]
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                command,
                cwd=REPO,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: killed with its children
            )
        wait_until(self._ready, timeout, f"worker {self.name} to start:\n{self.output()}")
        return self

    def _ready(self) -> bool:
        assert self.process is not None
        if self.process.poll() is not None:
            pytest.fail(f"worker {self.name} exited:\n{self.output()}", pytrace=False)
        return f"{self.name}@" in self.output() and " ready." in self.output()

    def output(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def count(self, pattern: str) -> int:
        """How many times the regular expression ``pattern`` matches the worker's log."""
        return len(re.findall(pattern, self.output()))

    def pool_processes(self) -> list[int]:
        """Return the pids of the worker's child processes (its pool, with -B its beat too)."""
        assert self.process is not None
        pid = self.process.pid
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        return [int(child) for child in children]

    def kill(self) -> None:
        """SIGKILL the worker and all its processes at once: no warm shutdown, no requeue."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        """Warm shutdown (SIGTERM): finish the task in hand; SIGKILL if it takes too long."""
        if self.process is None or self.process.poll() is not None:
            return
        os.kill(self.process.pid, signal.SIGTERM)  # the main process: it stops its pool
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.kill()


@dataclass
class RedisServer:
    """A private ``redis-server`` without persistence: a restart loses everything in it."""

    port: int
    log_dir: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_connect_timeout=2, socket_timeout=5)

    def start(self) -> RedisServer:
        binary = shutil.which("redis-server")
        if binary is None:
            if os.environ.get("SEEP_CI") == "1":
                pytest.fail("SEEP_CI=1 and redis-server is not installed", pytrace=False)
            pytest.skip("needs redis-server for a private Redis")
        with open(self.log_dir / f"redis-{self.port}.log", "ab") as log:
            self.process = subprocess.Popen(
                [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no"],
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        wait_until(self._answers, 10, f"redis-server on port {self.port}")
        return self

    def _answers(self) -> bool:
        try:
            with contextlib.closing(self.client()) as client:
                return bool(client.ping())
        except (redis.RedisError, OSError):
            return False

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


def forget_queue(client: redis.Redis, queue: str) -> None:
    """Delete this run's keys from a shared Redis: its queue, bindings and unacked messages."""
    mark = queue.encode()
    for key in client.scan_iter(match=f"*{queue}*"):
        client.delete(key)
    for key in client.scan_iter(match="_kombu.binding*"):
        kind = client.type(key)
        if kind == b"set":
            members = [m for m in client.smembers(key) if mark in m]
            if members:
                client.srem(key, *members)
        elif kind == b"zset":
            members = [m for m in client.zrange(key, 0, -1) if mark in m]
            if members:
                client.zrem(key, *members)
    for tag, message in client.hscan_iter("unacked"):
        if mark in message:  # [message, exchange, routing key]: the routing key is our queue
            client.hdel("unacked", tag)
            client.zrem("unacked_index", tag)


@contextlib.contextmanager
def private_redis(log_dir: Path) -> Iterator[RedisServer]:
    server = RedisServer(free_port(), log_dir).start()
    try:
        yield server
    finally:
        server.kill()
