"""The processes a PostgreSQL benchmark starts (a Celery worker, gunicorn, spawned writers), the
environment they inherit, and what they cost; its figures' quantiles."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.scratch import bench_environment, drop_database

REPO = Path(__file__).resolve().parent.parent


def quantile(ordered: list[float], q: float) -> float:
    """Return the value at share ``q`` of the sorted ``ordered`` (nearest rank); NaN if empty."""
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def server_environment(bench_url: str, queue: str, port: int, **more: str) -> None:
    """Set the environment of this process and of the servers it starts (they inherit it):
    the scratch database, a queue of its own, gunicorn on ``port``, plain HTTP, ``more``."""
    os.environ.setdefault("ALLOWED_HOSTS", "localhost,127.0.0.1,testserver")
    bench_environment(bench_url)
    os.environ.update(
        CELERY_QUEUE=queue,
        WEB_BIND=f"127.0.0.1:{port}",
        # plain HTTP on localhost (as `make stack`): no redirect to HTTPS
        SECURE_SSL_REDIRECT="0",
        SECURE_HSTS_SECONDS="0",
        SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="0",
        # counted as always, at a rate no client reaches
        API_THROTTLE_TOKEN="100000000/min",
        **more,
    )


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_worker(log_path: Path) -> subprocess.Popen[bytes]:
    """Start a Celery worker (prefork, concurrency 1) on the queue CELERY_QUEUE names; return
    it once it is ready."""
    command = [
        sys.executable, "-m", "celery", "-A", "deploy", "worker", "--pool=prefork",
        "--concurrency=1", "--loglevel=INFO", f"--hostname={os.environ['CELERY_QUEUE']}@%h",
        "--without-gossip", "--without-mingle", "--without-heartbeat",
    ]  # fmt: skip
    worker = _start(command, log_path)
    deadline = time.monotonic() + 60
    while " ready." not in log_path.read_text(errors="replace"):
        if worker.poll() is not None or time.monotonic() > deadline:
            stop(worker)
            sys.exit(f"the worker did not start; see {log_path}")
        time.sleep(0.05)
    return worker


def start_web(log_path: Path, port: int) -> subprocess.Popen[bytes]:
    """Start gunicorn (deploy/gunicorn.py, on WEB_BIND); return it once it answers on ``port``."""
    command = [sys.executable, "-m", "gunicorn", "-c", "python:deploy.gunicorn", "deploy.wsgi"]
    return start_server(command, log_path, port, "gunicorn")


def start_server(
    command: list[str], log_path: Path, port: int, name: str
) -> subprocess.Popen[bytes]:
    """Start ``command``; return it once it answers /healthz on ``port`` (or exit, after 60 s)."""
    server = _start(command, log_path)
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
                if r.status == 200:
                    return server
        except OSError:
            pass
        if server.poll() is not None or time.monotonic() > deadline:
            if server.poll() is None:
                os.killpg(server.pid, signal.SIGKILL)
            sys.exit(f"{name} did not start; see {log_path}")
        time.sleep(0.1)


def _start(command: list[str], log_path: Path) -> subprocess.Popen[bytes]:
    with open(log_path, "ab") as log:
        return subprocess.Popen(
            command, cwd=REPO, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stop a process started here: SIGTERM, then after 30 s its whole group killed."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def tear_down(
    processes: list[subprocess.Popen[bytes]], redis_url: str, database_url: str, args: Any
) -> None:
    """Stop ``processes`` (the last started first), delete the queue's keys, close this
    process's connections, and drop the scratch database ``args.database`` unless ``--keep``."""
    from django.db import connections

    for process in reversed(processes):
        stop(process)
    forget_queue(redis_url, os.environ["CELERY_QUEUE"])
    connections.close_all()
    if not args.keep:
        drop_database(database_url, args.database)


def forget_queue(redis_url: str, queue: str) -> None:
    """Delete the benchmark's keys (its queue, bindings, unacknowledged messages) and no others."""
    import redis

    client = redis.Redis.from_url(redis_url)
    mark = queue.encode()
    try:
        for key in client.scan_iter(match=f"*{queue}*"):
            client.delete(key)
        for key in client.scan_iter(match="_kombu.binding*"):
            kind = client.type(key)
            members = (
                client.smembers(key)
                if kind == b"set"
                else client.zrange(key, 0, -1)
                if kind == b"zset"
                else []
            )
            mine = [m for m in members if mark in m]
            if mine:
                (client.srem if kind == b"set" else client.zrem)(key, *mine)
        for tag, message in client.hscan_iter("unacked"):
            if mark in message:
                client.hdel("unacked", tag)
                client.zrem("unacked_index", tag)
    finally:
        client.close()


def spawn_all(
    target: Callable[..., None], arguments: list[tuple[Any, ...]], timeout: float, who: str
) -> list[dict[str, Any]]:
    """Run ``target(*args, barrier, answers)`` in a spawned process for each ``args``; return
    what each put in ``answers``, in the order they answered.

    The processes share a barrier (to start measuring together); an answer with an
    ``error`` stops the benchmark (RuntimeError naming ``who``).
    """
    context = multiprocessing.get_context("spawn")
    barrier, answers = context.Barrier(len(arguments)), context.Queue()
    processes = [context.Process(target=target, args=(*a, barrier, answers)) for a in arguments]
    for process in processes:
        process.start()
    outcomes = [answers.get(timeout=timeout) for _ in processes]
    for process in processes:
        process.join()
    failed = [o["error"] for o in outcomes if "error" in o]
    if failed:
        raise RuntimeError(f"{len(failed)} {who} failed: {failed[0]}")
    return outcomes


def server_version() -> str:
    """Return the PostgreSQL server's version, as Django's connection reads it."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        return f"PostgreSQL {cursor.fetchone()[0]}"


def machine_busy_seconds() -> float:
    """CPU seconds the whole machine has been busy since boot, all CPUs (from /proc/stat)."""
    fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    ticks = [int(x) for x in fields]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)  # idle and iowait
    return (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def cpu_seconds(master: int) -> dict[int, float]:
    """Return the CPU seconds (user and system) each child of process ``master`` has used."""
    tick = os.sysconf("SC_CLK_TCK")
    out = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == master:  # fields[1] is the parent's pid
            out[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    return out


class RedisServer:
    """A ``redis-server`` of a benchmark's own (no persistence), on ``port``: one it may stop
    and start again (a broker outage) without touching anyone else's."""

    def __init__(self, port: int, log_path: Path) -> None:
        self.port, self.log_path = port, log_path
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        """Start it; return once it answers (or exit, after 10 s)."""
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no"]
        self.process = _start(command, self.log_path)
        deadline = time.monotonic() + 10
        while True:
            with socket.socket() as s, contextlib.suppress(OSError):
                s.settimeout(1)
                s.connect(("127.0.0.1", self.port))
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    return self
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.kill()
                sys.exit(f"redis-server did not start; see {self.log_path}")
            time.sleep(0.05)

    def kill(self) -> None:
        """Kill it at once: whatever it held is gone."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
