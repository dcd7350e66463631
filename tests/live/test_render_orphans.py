"""A push process that dies while its render processes are still starting leaves none behind:
each knows its parent by the id the parent gave it, not by asking once it is up (by then a
dead parent's child has been adopted, and it waited for that one for ever)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.process

REPO = Path(__file__).resolve().parents[2]

#: a push process's render pool started, and the process gone at once (killed outright)
SCRIPT = """
import multiprocessing, os, sys
from concurrent.futures import ProcessPoolExecutor
import django
django.setup()
from live import feeds
pool = ProcessPoolExecutor(
    2, mp_context=multiprocessing.get_context("spawn"),
    initializer=feeds._start_renderer, initargs=("unused", os.getpid()),
)
for _ in range(2):
    pool.submit(feeds._warm)
print(" ".join(str(pid) for pid in pool._processes), flush=True)
os._exit(0)
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    return state != "Z"  # (a zombie is gone, its adopter not yet told)


def test_render_processes_of_a_push_process_that_died_as_they_started_end() -> None:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "deploy.settings", "DEBUG": "1"}
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        check=False,
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,  # (the old way, the pipe stayed open in the children: for ever)
    )
    pids = [int(p) for p in out.stdout.split()]
    assert len(pids) == 2, out.stderr
    deadline = time.monotonic() + 30  # each starts Django (a second or two), then looks
    while time.monotonic() < deadline and any(alive(p) for p in pids):
        time.sleep(0.2)
    left = [p for p in pids if alive(p)]
    for pid in left:
        os.kill(pid, 9)
    assert not left, "render processes outlived their parent"
