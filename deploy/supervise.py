"""``python -m deploy.supervise COMMAND...``: run a Celery process under a Procfile runner.

Two things a Procfile runner does not do for Celery, done here:

- **Warm shutdown.** honcho (like foreman, and many platforms) stops a process by sending
  SIGTERM to its whole process group. A Celery worker's pool processes would get it too and
  die in the middle of their tasks. The command runs in a session of its own, and SIGTERM
  (or SIGINT) is passed to its main process only, which stops taking tasks, lets the ones
  in hand finish, and exits. If this process dies anyhow, the command gets SIGTERM too.
- **Restart.** honcho stops every process once one exits. A command that dies without
  being asked (a worker killed, out of memory) is started again after a second, as systemd
  or a container runtime would, unless it died ``MAX_RESTARTS`` times within a minute:
  then this exits with its status and the runner sees the failure.
"""

from __future__ import annotations

import ctypes
import logging
import os
import signal
import subprocess
import sys
import time
from types import FrameType

from deploy.logs import JsonFormatter

log = logging.getLogger("deploy.supervise")

MAX_RESTARTS = 5  # within WINDOW seconds
WINDOW = 60.0
PAUSE = 1.0  # before a restart
_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    os.setsid()
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        pass  # not Linux: a supervisor that dies leaves the command running


def supervise(command: list[str]) -> int:
    """Run ``command`` until it is asked to stop (or crashes too often); return its status."""
    stopping = False
    child: subprocess.Popen[bytes] | None = None

    def forward(signum: int, _frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True
        if child is not None and child.poll() is None:
            os.kill(child.pid, signum)  # the main process only: it stops its own pool

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT):
        signal.signal(signum, forward)
    crashes: list[float] = []
    while True:
        child = subprocess.Popen(command, preexec_fn=_die_with_parent)  # noqa: PLW1509
        log.info("supervise: started %s (pid %d)", command[0], child.pid)
        status = child.wait()
        if stopping:
            return status
        now = time.monotonic()
        crashes = [t for t in crashes if now - t < WINDOW] + [now]
        if len(crashes) > MAX_RESTARTS:
            log.error(
                "supervise: %s died %d times in a minute; giving up", command[0], MAX_RESTARTS
            )
            return status or 1
        log.warning("supervise: %s exited with %s unasked; restarting", command[0], status)
        time.sleep(PAUSE)
        if stopping:  # asked to stop during the pause
            return status


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit("usage: python -m deploy.supervise COMMAND [ARG...]")
    handler = logging.StreamHandler(sys.stdout)
    debug = os.environ.get("DEBUG", "").strip().lower() in {"1", "true", "yes", "on"}
    if (
        os.environ.get("LOG_FORMAT", "").strip().lower() or ("plain" if debug else "json")
    ) == "plain":
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    else:
        handler.setFormatter(JsonFormatter())
    logging.basicConfig(level=logging.INFO, handlers=[handler])
    status = supervise(sys.argv[1:])
    sys.exit(status if status >= 0 else 128 - status)


if __name__ == "__main__":
    main()
