"""``make stack`` as a test fixture: start it, find its processes, hurt them, stop it.

The stack runs on the test database and a private ``redis-server`` (so it can be restarted),
on a free port, with short periods (catch-up every second, heartbeats every second) so that
faults heal within a test's time. Its output (honcho's, every process prefixed) goes to a
file; ``lines(name)`` returns the JSON log lines of one process (``worker.1``, ``web.1``...).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import textwrap
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.scoring.worker import REPO, RedisServer, free_port, wait_until


def children(pid: int) -> list[int]:
    """Return the pids of the direct children of ``pid`` (none if it is gone)."""
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except FileNotFoundError:
        return []


def descendants(pid: int) -> list[int]:
    """Return every process under ``pid``, children first."""
    found = []
    for child in children(pid):
        found += [child, *descendants(child)]
    return found


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except FileNotFoundError:
        return ""


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


@dataclass
class Stack:
    database_url: str
    redis: RedisServer
    log_dir: Path
    port: int
    env: dict[str, str] = field(default_factory=dict)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log_path(self) -> Path:
        return self.log_dir / "stack.log"

    def environment(self) -> dict[str, str]:
        return {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis.url,
            "PORT": str(self.port),
            # SECRET_KEY and RECEIPT_SIGNING_KEY: the suite's (pytest-env), as every process
            # of a deployment shares them (the snapshots' proofs and the receipts use them).
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "STATIC_ROOT": str(self.log_dir / "static"),
            "WEB_CONCURRENCY": "3",
            "STACK_WORKERS": "2",
            "WORKER_CONCURRENCY": "2",
            "SCORING_CATCH_UP_SECONDS": "1",
            "WORKER_HEARTBEAT_SECONDS": "1",
            "BEAT_LOCK_SECONDS": "3",
            "LOG_FORMAT": "json",
            # The clients append flat out with one token each: no rate limit in the way.
            "API_THROTTLE_TOKEN": "1000000/min",
            "LOG_LEVEL": "INFO",
            # As in production behind a TLS proxy: the proxy says https, cookies are secure.
            "SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto",
            "SECURE_SSL_REDIRECT": "1",
            "SESSION_COOKIE_SECURE": "1",
            "CSRF_COOKIE_SECURE": "1",
            **self.env,
        }

    def start(self, timeout: float = 90) -> Stack:
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                ["make", "--no-print-directory", "stack"],
                cwd=REPO,
                env=self.environment(),
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        wait_until(self._ready, timeout, "the stack to be ready", lambda: self.output()[-3000:])
        return self

    def _ready(self) -> bool:
        assert self.process is not None
        if self.process.poll() is not None:
            raise AssertionError(f"make stack exited:\n{self.output()[-5000:]}")
        status, body = self.get("/readyz")
        return status == 200 and body.get("live_workers") == 2

    def get(self, path: str, timeout: float = 5) -> tuple[int, Any]:
        """GET ``path`` as the TLS proxy would pass it on; return (status, JSON body or text)."""
        request = urllib.request.Request(self.url + path, headers={"X-Forwarded-Proto": "https"})
        try:
            try:
                with urllib.request.urlopen(request, timeout=timeout) as response:
                    status, body, kind = response.status, response.read(), response.headers
            except urllib.error.HTTPError as exc:
                status, body, kind = exc.code, exc.read(), exc.headers
            if kind.get_content_type() == "application/json":
                return status, json.loads(body)
        # Refused, reset, timed out; or cut short (a killed worker's half-sent response:
        # a bad status line, an incomplete read, a truncated JSON body).
        except (OSError, http.client.HTTPException, ValueError):
            return 0, None
        return status, body.decode(errors="replace")

    # --- its processes ------------------------------------------------------------------

    def honcho(self) -> int:
        assert self.process is not None
        (pid,) = children(self.process.pid) or [self.process.pid]  # make's one child
        return pid

    def processes(self) -> dict[str, int]:
        """Return honcho's processes: web (the gunicorn master), and each supervise's child.

        honcho runs each Procfile process from a helper process of its own.
        """
        found: dict[str, int] = {}
        for pid in [p for helper in children(self.honcho()) for p in children(helper)]:
            line = command_line(pid)
            if "gunicorn" in line:
                found["web"] = pid
            elif "deploy.supervise" in line:
                kind = "beat" if " beat " in f"{line} " else "worker"
                if "--hostname=webhooks" in line:  # the webhook deliveries' own worker
                    kind = "webhooks"
                (child,) = children(pid) or [0]
                n = sum(name.startswith(kind) for name in found) + 1
                found[f"{kind}.{n}"] = child
        return found

    def gunicorn_workers(self) -> list[int]:
        return children(self.processes()["web"])

    def push_workers(self) -> list[int]:
        """Return the push process's workers: uvicorn's supervisor runs ``PUSH_PROCESSES``
        of them on the one port, and starts one again when it dies."""
        for pid in [p for helper in children(self.honcho()) for p in children(helper)]:
            if "uvicorn" in command_line(pid):
                return [c for c in children(pid) if "spawn_main" in command_line(c)]
        return []

    def kill_celery_worker(self, name: str = "worker.1") -> int:
        """SIGKILL a Celery worker, its main process and its pool at once; return the pid."""
        pid = self.processes()[name]
        os.killpg(pid, signal.SIGKILL)  # its own session (deploy.supervise): just this worker
        return pid

    def kill_gunicorn_worker(self) -> int:
        pid = self.gunicorn_workers()[0]
        os.kill(pid, signal.SIGKILL)
        return pid

    def restart_redis(self) -> None:
        self.redis.kill()  # no persistence: every queued message is gone
        self.redis.start()

    def stop(self, timeout: float = 60) -> int | None:
        """SIGTERM honcho (as Ctrl-C would) and wait for every process to exit."""
        if self.process is None or self.process.poll() is not None:
            return None if self.process is None else self.process.returncode
        honcho = self.honcho()
        everyone = [honcho, *descendants(honcho)]
        os.kill(honcho, signal.SIGTERM)
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
        wait_until(lambda: not any(alive(p) for p in everyone), 30, "every process to exit")
        return self.process.returncode

    def kill(self) -> None:
        """Last resort (a failed test): SIGKILL everything the stack started."""
        if self.process is None:
            return
        everyone = descendants(self.process.pid)
        for pid in [self.process.pid, *everyone]:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)

    # --- its output ---------------------------------------------------------------------

    def output(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def lines(self, prefix: str = "") -> list[dict[str, Any]]:
        """Return the JSON log lines of the processes whose honcho name starts with ``prefix``."""
        found = []
        for raw in self.output().splitlines():
            head, sep, rest = raw.partition(" | ")
            if not sep or not rest.startswith("{"):
                continue
            name = head.split()[-1] if head.split() else ""
            if name.startswith(prefix):
                with contextlib.suppress(json.JSONDecodeError):
                    found.append({"process_name": name, **json.loads(rest)})
        return found


def cpu_ticks(pid: int) -> int:
    """Return the CPU time ``pid`` has used so far, in clock ticks (0 if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0
    return int(fields[11]) + int(fields[12])  # utime, stime


def age(pid: int) -> float:
    """Return the seconds since ``pid`` started (0 if it is gone)."""
    try:
        started = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19])
    except FileNotFoundError:
        return 0.0
    uptime = float(Path("/proc/uptime").read_text().split()[0])
    return uptime - started / os.sysconf("SC_CLK_TCK")


def busy(pids: list[int], seconds: float = 0.05) -> list[int]:
    """Return those of ``pids`` that used the CPU in the next ``seconds`` (serving a request,
    running a task), in the order given."""
    before = {pid: cpu_ticks(pid) for pid in pids}
    time.sleep(seconds)
    return [pid for pid in pids if cpu_ticks(pid) > before[pid]]


def socket_holder(pids: list[int], port: int, peer_port: int) -> int | None:
    """Return which of ``pids`` holds the TCP connection on local ``port`` whose other end is
    at ``peer_port`` (a server's side of a client's connection), or None.

    The connection's inode is read from /proc/net/tcp (and tcp6), then looked for among each
    process's open files.
    """
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(FileNotFoundError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                local, remote, inode = fields[1], fields[2], fields[9]
                if int(local.rsplit(":", 1)[1], 16) == port and (
                    int(remote.rsplit(":", 1)[1], 16) == peer_port
                ):
                    inodes.add(f"socket:[{inode}]")
    for pid in pids:
        with contextlib.suppress(FileNotFoundError, PermissionError):
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                with contextlib.suppress(OSError):
                    if os.readlink(fd) in inodes:
                        return pid
    return None


@contextlib.contextmanager
def private_stack(tmp_path: Path, env: dict[str, str]) -> Iterator[Stack]:
    """``make stack`` on the test database and a Redis of its own (``env``: more settings; its
    push process on a port of its own), killed at the end, its output's tail printed."""
    from django.db import connection

    from tests.scoring.worker import database_url, private_redis

    with private_redis(tmp_path) as redis_server:
        running = Stack(
            database_url=database_url(connection.settings_dict),
            redis=redis_server,
            log_dir=tmp_path,
            port=free_port(),
            env={"PUSH_PORT": str(free_port()), **env},
        )
        try:
            yield running.start()
        finally:
            running.kill()
            print(running.output()[-8000:])


def a_tournament(slug: str, teams: int) -> tuple[Any, list[Any]]:
    """A tournament at ``slug`` and its ``teams`` teams (T0, T1, ...), written straight to the
    tables: what a stack test plays on, not what it tests."""
    from django.contrib.auth import get_user_model

    from tournaments.models import Player, Team, Tournament

    organizer = get_user_model().objects.create_user(f"{slug}-organizer")
    tournament = Tournament.objects.create(name=slug.title(), slug=slug, organizer=organizer)
    players = [Player.objects.create(name=f"P{n}") for n in range(2 * teams)]
    made = [
        Team.objects.create(
            tournament=tournament,
            name=f"T{i}",
            first_player=players[2 * i],
            second_player=players[2 * i + 1],
        )
        for i in range(teams)
    ]
    return tournament, made


def wait_seconds(until: float) -> None:
    """Sleep until ``time.monotonic()`` reaches ``until``."""
    time.sleep(max(0.0, until - time.monotonic()))


@contextlib.contextmanager
def private_pgbouncer(upstream_host: str, upstream_port: int) -> Iterator[int]:
    """Run a PgBouncer in transaction mode in front of the PostgreSQL server; yield its port.

    Trust authentication on 127.0.0.1 only, as the local server has. PgBouncer refuses to run
    as root, so as root it runs as ``postgres``, from a directory that user can read.
    """
    binary = shutil.which("pgbouncer") or (
        "/usr/sbin/pgbouncer" if Path("/usr/sbin/pgbouncer").exists() else None
    )
    if binary is None:
        if os.environ.get("SEEP_CI") == "1":
            pytest.fail("SEEP_CI=1 and pgbouncer is not installed", pytrace=False)
        pytest.skip("needs pgbouncer (apt-get install pgbouncer)")
    port = free_port()
    directory = Path(tempfile.mkdtemp(prefix="seep-pgbouncer-"))
    directory.chmod(0o755)
    (directory / "userlist.txt").write_text('"postgres" ""\n')
    (directory / "pgbouncer.ini").write_text(
        textwrap.dedent(f"""\
        [databases]
        * = host={upstream_host} port={upstream_port}
        [pgbouncer]
        listen_addr = 127.0.0.1
        listen_port = {port}
        unix_socket_dir =
        auth_type = trust
        auth_file = {directory / "userlist.txt"}
        pool_mode = transaction
        max_client_conn = 500
        default_pool_size = 20
        logfile = {directory / "pgbouncer.log"}
        """)
    )
    command = [binary, str(directory / "pgbouncer.ini")]
    if os.geteuid() == 0:
        shutil.chown(directory, "postgres")
        for child in directory.iterdir():
            shutil.chown(child, "postgres")
        command[1:1] = ["-u", "postgres"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:

        def answers() -> bool:
            if process.poll() is not None:
                log = directory / "pgbouncer.log"
                pytest.fail(f"pgbouncer exited: {log.read_text() if log.exists() else ''}")
            with socket.socket() as s:
                return s.connect_ex(("127.0.0.1", port)) == 0

        wait_until(answers, 10, "pgbouncer to listen")
        yield port
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
        shutil.rmtree(directory, ignore_errors=True)
