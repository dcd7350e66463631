"""The push processes as deploy/Procfile starts them (its ``push`` line, run by a shell as
honcho runs it): ``PUSH_PROCESSES`` of them on one port, never ``WEB_CONCURRENCY`` (gunicorn's,
which reaches every Procfile process); one that dies leaves the other answering at once, and
is started again."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.scoring.worker import REPO, free_port
from tests.stack.stack import children, command_line

pytestmark = pytest.mark.process


def procfile_command(name: str) -> str:
    """The command of the Procfile's process ``name``."""
    for line in (REPO / "deploy" / "Procfile").read_text().splitlines():
        if line.startswith(f"{name}:"):
            return line.split(":", 1)[1].strip()
    raise AssertionError(f"no {name} in deploy/Procfile")


def workers(supervisor: int) -> list[int]:
    """The push processes under uvicorn's supervisor (its spawned children)."""
    return [pid for pid in children(supervisor) if "spawn_main" in command_line(pid)]


def answers(url: str) -> bool:
    with contextlib.suppress(httpx.HTTPError):
        return httpx.get(url, timeout=2).status_code == 200
    return False


def wait_for(test: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not test():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


@contextlib.contextmanager
def procfile_push(tmp_path: Path, env: dict[str, str]) -> Iterator[tuple[int, str]]:
    """The Procfile's ``push`` line, run by a shell as honcho runs it; yield the
    supervisor's pid and the processes' one address."""
    port = free_port()
    environment = {
        **os.environ,
        "DEBUG": "1",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'push.sqlite3'}",
        "PUSH_RENDER_PROCESSES": "0",
        "PUSH_PORT": str(port),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        **env,
    }
    environment.pop("REDIS_URL", None)
    process = subprocess.Popen(
        ["sh", "-c", procfile_command("push")],
        cwd=REPO,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: answers(f"{url}/healthz"), 60, "the push processes did not answer")
        yield process.pid, url
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def test_the_push_line_runs_push_processes_not_web_concurrency(tmp_path: Path) -> None:
    env = {"WEB_CONCURRENCY": "3", "PUSH_PROCESSES": "2"}
    with procfile_push(tmp_path, env) as (supervisor, _):
        wait_for(lambda: len(workers(supervisor)) >= 2, 30, "two push processes")
        time.sleep(1)  # and no third one coming
        assert len(workers(supervisor)) == 2


def test_a_push_process_that_dies_leaves_the_other_answering_at_once_and_comes_back(
    tmp_path: Path,
) -> None:
    with procfile_push(tmp_path, {"PUSH_PROCESSES": "2"}) as (supervisor, url):
        wait_for(lambda: len(workers(supervisor)) == 2, 30, "two push processes")
        first, second = workers(supervisor)
        os.kill(first, signal.SIGKILL)
        wait_for(lambda: first not in children(supervisor), 10, "the killed one gone")
        # the other accepts on the same socket: not one request refused meanwhile
        for _ in range(20):
            assert httpx.get(f"{url}/healthz", timeout=2).status_code == 200
        # and uvicorn's supervisor starts a new one
        wait_for(lambda: len(workers(supervisor)) == 2, 60, "a new push process")
        assert second in workers(supervisor)


def test_make_stack_lets_its_own_pages_read_the_streams_from_the_web_port_exactly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from deploy import stack

    for name in ("PORT", "PUSH_PORT", "LIVE_PUSH_ORIGIN", "PUSH_CORS_ORIGINS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SECRET_KEY", "s" * 50)
    monkeypatch.setenv("RECEIPT_SIGNING_KEY", "k")
    monkeypatch.setenv("PORT", "8100")
    env = stack._environment()
    assert env["LIVE_PUSH_ORIGIN"] == "http://127.0.0.1:8101"
    assert env["PUSH_CORS_ORIGINS"] == "http://127.0.0.1:8100,http://localhost:8100"
