"""Push admission benchmark: how fast the push processes admit a room of viewers, and how long
a room is dark when one push process dies.

Needs PostgreSQL and Redis, named as the application names them:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/12 \\
        python -m bench.push_admission [--viewers 2000] [--processes 1,2] [--keep]

It makes a scratch database of its own (``--database``, default ``seep_bench_admission``,
dropped at the end unless ``--keep``) holding one published tournament, and for each count of
``--processes`` starts the push as deploy/Procfile does (``uvicorn deploy.push:application
--workers N``, uvloop, httptools, on one port). Then:

- admission: ``--viewers`` streams of the tournament page opened at once (from one viewer
  process, asyncio on bare sockets); the rate is the viewers over the time until the last of
  them was sent its first part;
- a process killed (SIGKILL, with more than one): the viewers it held see their streams end
  and come back as an EventSource would (after the stream's own ``retry:``); reported: how
  many ended, how many of their first tries were refused, and the time from the kill until
  the last of them was sent its part again.

Every viewer comes from 127.0.0.1 (``PUSH_MAX_STREAMS_PER_CLIENT`` raised for it). The
machine is shared: the load average before and after is recorded. Written to
bench/results/push_admission.json and printed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import signal
import sys
import time
import uuid
from pathlib import Path
from typing import Any

from bench.processes import free_port, server_environment, start_server, stop
from bench.scratch import drop_database, postgres_and_redis, recreate_database

RESULTS = Path(__file__).resolve().parent / "results"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", default="seep_bench_admission")
    parser.add_argument("--viewers", type=int, default=2000)
    parser.add_argument("--processes", default="1,2", help="push processes, per run")
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()

    database_url, _ = postgres_and_redis("bench.push_admission", "the channel")
    bench_url = recreate_database(database_url, args.database)
    queue = f"seep-bench-admission-{uuid.uuid4().hex[:8]}"
    server_environment(
        bench_url, queue, free_port(), LIVE_PUSH="1", PUSH_MAX_STREAMS_PER_CLIENT="1000000"
    )
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connections

    from tournaments.models import Tournament

    call_command("migrate", verbosity=0)
    organizer = get_user_model().objects.create_user("bench-organizer")
    Tournament.objects.create(
        name="Admission", slug="admission", organizer=organizer, published=True
    )
    connections.close_all()
    RESULTS.mkdir(exist_ok=True)
    log = RESULTS / "push_admission-push.log"
    log.unlink(missing_ok=True)
    load_before = os.getloadavg()
    runs = []
    try:
        for count in [int(n) for n in args.processes.split(",") if n]:
            runs.append(_run(count, args.viewers, log))
    finally:
        connections.close_all()
        if not args.keep:
            drop_database(database_url, args.database)
    result = {
        "benchmark": "push_admission",
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load_average": {"before": load_before, "after": os.getloadavg()},
        "viewers": args.viewers,
        "runs": runs,
    }
    (RESULTS / "push_admission.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


def _run(processes: int, viewers: int, log: Path) -> dict[str, Any]:
    port = free_port()
    command = [sys.executable, "-m", "uvicorn", "deploy.push:application"]
    command += ["--workers", str(processes), "--host", "127.0.0.1", "--port", str(port)]
    command += ["--loop", "uvloop", "--http", "httptools", "--lifespan", "off"]
    command += ["--no-access-log", "--backlog", "8192", "--timeout-graceful-shutdown", "2"]
    server = start_server(command, log, port, "the push processes")
    try:
        time.sleep(3)  # every process up (the first to answer /healthz may be alone)
        figures = asyncio.run(_room(port, viewers, server.pid if processes > 1 else None))
    finally:
        stop(server)
    return {"processes": processes, **figures}


class Viewer:
    """One EventSource of the tournament page: connects, reads, and connects again (after
    its stream's ``retry:``) whenever its stream ends, until told to stop."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.parts: list[float] = []  # when each stream's first part came
        self.ends: list[float] = []  # when a stream ended
        self.refused = 0
        self.stopped = False

    async def run(self) -> None:
        retry = 2.0
        while not self.stopped:
            retry = await self._once(retry)
            if not self.stopped:
                await asyncio.sleep(retry)

    async def _once(self, retry: float) -> float:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        except OSError:
            self.refused += 1
            return retry
        try:
            writer.write(
                b"GET /push/t/admission/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Accept: text/event-stream\r\n\r\n"
            )
            head = await reader.readuntil(b"\r\n\r\n")
            if not head.startswith(b"HTTP/1.1 200"):
                self.refused += 1
                return retry
            seen = False
            while True:
                line = await reader.readline()
                if not line:
                    break
                if line.startswith(b"retry: "):
                    retry = int(line[7:].strip()) / 1000
                elif line.startswith(b"event: part") and not seen:
                    seen = True
                    self.parts.append(time.monotonic())
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()
        self.ends.append(time.monotonic())
        return retry


async def _room(port: int, viewers: int, supervisor: int | None) -> dict[str, Any]:
    room = [Viewer(port) for _ in range(viewers)]
    began = time.monotonic()
    tasks = [asyncio.create_task(v.run()) for v in room]
    while sum(1 for v in room if v.parts) < viewers and time.monotonic() - began < 120:
        await asyncio.sleep(0.05)
    admitted = [v.parts[0] for v in room if v.parts]
    took = max(admitted) - began if admitted else float("nan")
    figures: dict[str, Any] = {
        "admitted": len(admitted),
        "admission_seconds": round(took, 2),
        "admitted_per_second": round(len(admitted) / took, 1) if admitted else 0,
        "refused_at_admission": sum(v.refused for v in room),
    }
    if supervisor is not None:
        figures.update(await _kill_one(room, supervisor))
    for v in room:
        v.stopped = True
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return figures


async def _kill_one(room: list[Viewer], supervisor: int) -> dict[str, Any]:
    """SIGKILL one push process; time its viewers' way back."""
    await asyncio.sleep(2)
    children = Path(f"/proc/{supervisor}/task/{supervisor}/children").read_text().split()
    workers = [int(c) for c in children if b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes()]
    refused_before = {id(v): v.refused for v in room}
    killed_at = time.monotonic()
    os.kill(workers[0], signal.SIGKILL)
    await asyncio.sleep(1)
    hit = [v for v in room if v.ends and v.ends[-1] >= killed_at]
    while time.monotonic() - killed_at < 60:
        back = [v for v in hit if len(v.parts) >= 2 and v.parts[-1] >= v.ends[-1]]
        if len(back) == len(hit):
            break
        await asyncio.sleep(0.05)
    returns = [v.parts[-1] - killed_at for v in hit if v.parts[-1] >= killed_at]
    return {
        "killed_viewers": len(hit),
        "killed_back": len(returns),
        "killed_refused": sum(v.refused - refused_before[id(v)] for v in hit),
        "killed_all_back_seconds": round(max(returns), 2) if returns else None,
    }


if __name__ == "__main__":
    main()
