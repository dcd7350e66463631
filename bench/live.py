"""Live benchmark: thousands of viewers of the pushed live parts, and tables confirming deals.

Needs PostgreSQL and Redis, named as the application names them:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/12 \\
        python -m bench.live [--viewers 500,2000,5000] [--tables 256] [--seconds 40]
            [--idle 10] [--deal-seconds 60] [--sheets 0.3] [--push-processes 2]
            [--restart-at 15] [--outage-at 15 --outage-for 6.5] [--keep]

(``make bench-live``). Like bench.api it makes a scratch database of its own (``--database``,
default ``seep_bench_live``, dropped at the end unless ``--keep``) and starts the production
processes on it, as ``make stack`` runs them: gunicorn (deploy/gunicorn.py), two Celery workers
(the scoring queue, one of its own on REDIS_URL) and the push as deploy/Procfile runs it
(uvicorn ``deploy.push:application --workers N``, uvloop and httptools: ``--push-processes``
processes, default 2 as deployed, on one port; the kernel shares the viewers out among them).
Give it a Redis database no one else uses.

The world: a published tournament of ``2 * --tables`` teams, a round-robin stage in score
mode whose results the other team confirms, its first round published: ``--tables`` matches
being played (first to 99 bazzis: none ends during the run).

For each viewer count: viewer processes (asyncio on loopback, two of them, bare sockets, no
HTTP library) open that many streams, a ``--sheets`` share on the match sheets (spread over
the tables) and the rest on the tournament page, ramped up, each reading every event; a
stream that ends is opened again as an EventSource does (after its ``retry:``, with
``Last-Event-ID``). Then:

- idle (``--idle`` seconds, no table plays): the push processes' CPU per viewer, their memory
  per connection (their RSS over their RSS before the viewers), the database's transactions
  (``pg_stat_database``: what the whole stack asked while nothing happened);
- play (``--seconds``): every table enters a deal (a player of one team, over the API) and
  confirms it (a player of the other team), each after a random wait averaging
  ``--deal-seconds`` (a club's pace). ``--probes`` probe viewers of the tournament page
  rebuild its part from their events and note, for every version (a digest of the part: the
  same in every push process), how many deals each table shows; each viewer notes when each
  version reached it. A confirmation's latency, for a viewer of the tournament page, is from
  the moment the confirmation was *sent* (before its commit: the figure is an upper bound) to
  the arrival of the first version that shows it; for a viewer of that table's match sheet,
  to the first event after it was sent. Reported: p50, p99 and max over every (confirmation,
  viewer) pair, the versions pushed, the push processes' CPU per update and per message sent
  (their render processes included), the errors (a stream refused or ended, an append
  refused) and the viewers left behind (a confirmation a viewer never saw). Memory per
  connection is the push processes' own growth; their render processes' memory (a fixed
  cost) is reported beside it.

Two faults, each a scenario of its own (``restart`` and ``outage`` in the figures):

- ``--restart-at S``: S seconds into play the push process holding the most streams is killed
  (SIGKILL; uvicorn's supervisor starts another). Its viewers come back to the others (after
  their stream's ``retry:``). Reported: how many streams ended, were refused, and the time
  from the kill until each viewer of the tournament page shows the first confirmation sent
  after it (the recovery, p50/p99/max), and until each viewer the kill cut off was back.
- ``--outage-at S --outage-for D``: the broker (a ``redis-server`` of the bench's own, on a
  free port, instead of REDIS_URL's) is killed S seconds into play and started again D seconds
  later, empty. Reported: the confirmations sent meanwhile, their latency to the screens, and
  the time from the broker's return until the last of them was shown.

The machine is shared: the load average before and after is recorded. Written to
bench/results/live.json (``--out``) and printed.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import json
import multiprocessing
import os
import platform
import random
import re
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

from bench.processes import (
    RedisServer,
    cpu_seconds,
    free_port,
    machine_busy_seconds,
    quantile,
    server_environment,
    server_version,
    start_server,
    start_web,
    start_worker,
    tear_down,
)
from bench.scratch import postgres_and_redis, recreate_database

RESULTS = Path(__file__).resolve().parent / "results"
FORMAT = {"bazzis": 99, "first_to": True}
DEAL = {"points": [60, 40], "sweeps": [[], []]}
VIEWER_PROCESSES = 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", default="seep_bench_live")
    parser.add_argument("--viewers", default="500,2000,5000")
    parser.add_argument("--tables", type=int, default=256)
    parser.add_argument("--seconds", type=float, default=40.0, help="play, per viewer count")
    parser.add_argument("--idle", type=float, default=10.0, help="idle, per viewer count")
    parser.add_argument("--deal-seconds", type=float, default=60.0, help="a table's mean wait")
    parser.add_argument("--sheets", type=float, default=0.3, help="share on the match sheets")
    parser.add_argument("--ramp", type=float, default=1000.0, help="connections a second")
    parser.add_argument(
        "--push-processes", type=int, default=2, help="push processes on one port (deployed: 2)"
    )
    parser.add_argument("--probes", type=int, default=8, help="probe viewers of the page")
    parser.add_argument("--restart-at", type=float, help="kill a push process, s into play")
    parser.add_argument("--outage-at", type=float, help="stop the broker, s into play")
    parser.add_argument("--outage-for", type=float, default=6.5, help="the broker's outage, s")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--out", default="live.json", help="the file in bench/results/")
    args = parser.parse_args()
    counts = [int(n) for n in args.viewers.split(",") if n]

    database_url, redis_url = postgres_and_redis("bench.live", "the broker, the cache, the channel")
    RESULTS.mkdir(exist_ok=True)
    broker = None
    if args.outage_at is not None:  # a broker of its own, to stop and start again
        broker = RedisServer(free_port(), RESULTS / "live-redis.log").start()
        redis_url = os.environ["REDIS_URL"] = broker.url
    bench_url = recreate_database(database_url, args.database)
    web_port, push_port = free_port(), free_port()
    queue = f"seep-bench-live-{uuid.uuid4().hex[:8]}"
    # the pages listen to push; every viewer comes from 127.0.0.1: no cap per address
    server_environment(
        bench_url, queue, web_port, LIVE_PUSH="1", PUSH_MAX_STREAMS_PER_CLIENT="1000000"
    )

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    call_command("migrate", verbosity=0)
    logs = {name: RESULTS / f"live-{name}.log" for name in ("worker", "web", "push")}
    for path in logs.values():
        path.unlink(missing_ok=True)
    load_before = os.getloadavg()
    world = _world(args)
    connections.close_all()
    processes: list[subprocess.Popen[bytes]] = []
    result: dict[str, Any] = {}
    try:
        processes += [start_worker(logs["worker"]), start_worker(logs["worker"])]
        processes.append(start_web(logs["web"], web_port))
        push = _start_push(logs["push"], push_port, args.push_processes)
        processes.append(push)
        stack = Stack(web_port, push_port, push.pid, processes[2].pid, broker)
        runs = [_run(args, world, n, stack) for n in counts]
        result = {
            "benchmark": "live",
            "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "database": _database_version(),
            "load_average": {"before": load_before, "after": os.getloadavg()},
            "processes": "gunicorn (deploy/gunicorn.py), 2 celery workers (concurrency 1), "
            f"{args.push_processes} push process(es) on one port (uvicorn "
            "deploy.push:application --workers, uvloop, httptools), as deploy/Procfile",
            "tables": args.tables,
            "deal_seconds": args.deal_seconds,
            "sheets_share": args.sheets,
            "seconds": args.seconds,
            "idle_seconds": args.idle,
            "restart_at": args.restart_at,
            "outage": None
            if args.outage_at is None
            else {"at": args.outage_at, "seconds": args.outage_for},
            "goal": "p99 confirmation-to-screen <= 1000 ms, no errors, no viewer left behind",
            "runs": runs,
        }
    finally:
        tear_down(processes, redis_url, database_url, args)
        if broker is not None:
            broker.kill()
    (RESULTS / args.out).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


class Stack:
    """What a run needs of the processes started: the ports, the push supervisor (uvicorn's,
    whose children are the push processes, theirs the render processes), gunicorn's master,
    and the bench's own broker when there is an outage to play."""

    def __init__(
        self, web_port: int, push_port: int, supervisor: int, web: int, broker: RedisServer | None
    ) -> None:
        self.web_port, self.push_port = web_port, push_port
        self.supervisor, self.web, self.broker = supervisor, web, broker

    def push_processes(self) -> list[int]:
        """The push processes (not the supervisor's resource tracker)."""
        return [pid for pid in _children(self.supervisor) if b"spawn_main" in _cmdline(pid)]

    def push_family(self) -> list[int]:
        """The push processes and their render processes."""
        found = []
        for pid in self.push_processes():
            found += [pid, *_children(pid)]
        return found


def _database_version() -> str:
    from django.db import connections

    try:
        return server_version()
    finally:
        connections.close_all()


def _world(args: argparse.Namespace) -> dict[str, Any]:
    """The tournament, its first round being played, and a write token per player."""
    from django.contrib.auth import get_user_model

    from api.models import ApiToken
    from competition import services as competition
    from competition.models import Fixture
    from tournaments.models import Player, Tournament

    users = get_user_model().objects
    organizer = users.create_user("bench-organizer")
    tournament = Tournament.objects.create(
        name="Live benchmark", slug="live-benchmark", organizer=organizer, published=True
    )
    tokens: dict[int, str] = {}
    for t in range(2 * args.tables):
        players = []
        for p in range(2):
            user = users.create_user(f"bench-player-{t}-{p}")
            players.append(Player.objects.create(name=f"Player {t}.{p}", user=user))
            _, text = ApiToken.objects.create(
                user=user, expiry=timedelta(days=1), name="bench", tournament=tournament, write=True
            )
            tokens[user.pk] = str(text)
        competition.team_register(
            actor=organizer,
            tournament=tournament,
            name=f"Team {t:03}",
            first_player=players[0],
            second_player=players[1],
            checked_in=True,
        )
    stage = competition.stage_create(
        actor=organizer,
        tournament=tournament,
        name="League",
        format="round_robin",
        mode="score",
        match_format=FORMAT,
        confirmation="other_team",
    )
    competition.stage_start(actor=organizer, stage=stage)
    round_ = competition.round_pair(actor=organizer, stage=stage)
    competition.round_publish(actor=organizer, round=round_)
    tables = []
    fixtures = Fixture.objects.filter(round=round_, match__isnull=False).select_related(
        "match", "team_a__first_player", "team_b__first_player"
    )
    for f in fixtures.order_by("pk"):
        match = f.match
        assert match is not None
        team0_first = match.team0_id == f.team_a_id
        a, b = (f.team_a, f.team_b) if team0_first else (f.team_b, f.team_a)
        assert a is not None and b is not None
        tables.append(
            {
                "fixture": f.pk,
                "match": match.pk,
                "head": match.last_seq,
                "deals": 0,
                "enter": tokens[int(a.first_player.user_id or 0)],
                "confirm": tokens[int(b.first_player.user_id or 0)],
            }
        )
    return {"slug": tournament.slug, "tables": tables}


def _start_push(log_path: Path, port: int, processes: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "uvicorn", "deploy.push:application"]
    command += ["--workers", str(processes), "--host", "127.0.0.1", "--port", str(port)]
    command += ["--loop", "uvloop", "--http", "httptools", "--lifespan", "off"]
    command += ["--no-access-log", "--backlog", "8192", "--timeout-graceful-shutdown", "2"]
    push = start_server(command, log_path, port, "the push processes")
    deadline = time.monotonic() + 60
    while len(_children(push.pid)) < processes and time.monotonic() < deadline:
        time.sleep(0.1)  # every process up (the first to answer /healthz may be alone)
    time.sleep(2)
    return push


# --- one viewer count ------------------------------------------------------------------------


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _proc_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _push_cpu(stack: Stack) -> dict[int, float]:
    """The CPU seconds of each push process and render process."""
    used = {}
    for pid in stack.push_family():
        with contextlib.suppress(OSError):  # a child that ended meanwhile
            used[pid] = _proc_cpu(pid)
    return used


def _cpu_between(before: dict[int, float], after: dict[int, float]) -> float:
    """The CPU seconds the processes alive at the end used since ``before`` (a process killed
    meanwhile takes its own with it: then a floor)."""
    return sum(used - before.get(pid, 0.0) for pid, used in after.items())


def _sockets(pid: int) -> int:
    """How many sockets process ``pid`` holds open."""
    held = 0
    with contextlib.suppress(OSError):
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                held += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
    return held


def _rss_mb(pid: int) -> float:
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return 0.0
    for line in lines:
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _transactions() -> int:
    from django.db import connection, connections

    try:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT xact_commit + xact_rollback FROM pg_stat_database "
                "WHERE datname = current_database()"
            )
            return int(cursor.fetchone()[0])
    finally:
        connections.close_all()


def _run(
    args: argparse.Namespace, world: dict[str, Any], viewers: int, stack: Stack
) -> dict[str, Any]:
    tables = world["tables"]
    rng = random.Random(args.seed + viewers)
    page = f"/push/t/{world['slug']}/"
    paths = []
    for n in range(viewers):
        if rng.random() < args.sheets:
            paths.append(f"/push/m/{tables[n % len(tables)]['match']}/")
        else:
            paths.append(page)
    rss_before = sum(_rss_mb(pid) for pid in stack.push_processes())
    # what the stack asks the database with no viewer at all (beat, heartbeats, catch-ups)
    tx0, t0 = _transactions(), time.monotonic()
    time.sleep(args.idle)
    baseline_tx = (_transactions() - tx0) / (time.monotonic() - t0)
    ctx = multiprocessing.get_context("spawn")
    stop = ctx.Event()
    ready = ctx.Queue()
    out = ctx.Queue()
    share = [paths[i::VIEWER_PROCESSES] for i in range(VIEWER_PROCESSES)]
    procs = [
        ctx.Process(
            target=_viewer_process,
            args=(stack.push_port, part, args.ramp / VIEWER_PROCESSES, stop, ready, out),
        )
        for part in share
    ]
    for p in procs:
        p.start()
    connected = sum(ready.get(timeout=600) for _ in procs)
    time.sleep(5)  # the last whole parts written
    # idle: nobody plays
    rss_connected = sum(_rss_mb(pid) for pid in stack.push_processes())
    # the render processes (and the spawn's resource tracker): a fixed cost, not a viewer's
    rss_children = sum(
        _rss_mb(pid) for pid in stack.push_family() if pid not in stack.push_processes()
    )
    held = {pid: _sockets(pid) for pid in stack.push_processes()}
    cpu0, tx0, t0 = _push_cpu(stack), _transactions(), time.monotonic()
    time.sleep(args.idle)
    cpu1, tx1, t1 = _push_cpu(stack), _transactions(), time.monotonic()
    idle_cpu_s = _cpu_between(cpu0, cpu1) / (t1 - t0)
    # play
    web0, busy0 = sum(cpu_seconds(stack.web).values()), machine_busy_seconds()
    cpu2, t2 = _push_cpu(stack), time.monotonic()
    played = asyncio.run(_play(args, tables, stack, page))
    cpu3, t3 = _push_cpu(stack), time.monotonic()
    play_cpu = _cpu_between(cpu2, cpu3)
    web1, busy1 = sum(cpu_seconds(stack.web).values()), machine_busy_seconds()
    time.sleep(3)  # the last updates delivered
    stop.set()
    seen = [out.get(timeout=300) for _ in procs]
    for p in procs:
        p.join(30)
    figures = _figures(played, seen)
    messages = figures.pop("messages")
    return {
        "viewers": viewers,
        "connected": connected,
        "on_match_sheets": sum(1 for p in paths if p != page),
        "sockets_per_push_process": sorted(held.values()),
        "push_rss_mb": {
            "before": round(rss_before, 1),
            "connected": round(rss_connected, 1),
            "render_processes": round(rss_children, 1),
        },
        "memory_kb_per_connection": round((rss_connected - rss_before) * 1024 / viewers, 1),
        "idle": {
            "push_cpu_ms_per_s": round(idle_cpu_s * 1000, 2),
            "push_cpu_us_per_viewer_per_s": round(idle_cpu_s * 1e6 / viewers, 3),
            "database_transactions_per_s": round((tx1 - tx0) / (t1 - t0), 2),
            "database_transactions_per_s_without_viewers": round(baseline_tx, 2),
        },
        "play": {
            "seconds": round(t3 - t2, 1),
            "confirmations": len(played["confirmations"]),
            "appends_refused": played["refused"],
            "refusals": played["reasons"],
            "append_p50_ms": played["append_p50_ms"],
            "versions_pushed": played["versions"],
            # a killed push process's CPU is lost with it: a restart's figure is a floor
            "push_cpu_s": round(play_cpu, 2),
            "push_cpu_ms_per_update": round(play_cpu * 1000 / max(1, played["versions"]), 1),
            "push_cpu_us_per_message": round(play_cpu * 1e6 / max(1, messages), 1),
            "messages_sent": messages,
            "web_cpu_s": round(web1 - web0, 2),
            "machine_cpu_busy_share": round((busy1 - busy0) / (t3 - t2) / (os.cpu_count() or 1), 2),
        },
        **figures,
    }


async def _play(
    args: argparse.Namespace, tables: list[dict[str, Any]], stack: Stack, page: str
) -> dict[str, Any]:
    """Every table enters and confirms deals for ``--seconds``; probes follow the page; the
    faults asked for happen on time."""
    import httpx

    probes = [_Probe() for _ in range(args.probes)]  # spread over the push processes
    done = asyncio.Event()
    probe_tasks = [
        asyncio.create_task(_follow(stack.push_port, page, probe.take, done, _Connection()))
        for probe in probes
    ]
    await asyncio.sleep(1)
    confirmations: list[tuple[int, int, int, float]] = []  # fixture, match, deal, sent at
    refused = [0]
    reasons: list[str] = []
    timings: list[float] = []
    faults: dict[str, Any] = {}
    began, began_at = time.monotonic(), time.time()
    end = began + args.seconds
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    async with httpx.AsyncClient(
        base_url=f"http://127.0.0.1:{stack.web_port}", limits=limits, timeout=30
    ) as client:

        async def post(token: str, match: int, body: dict[str, Any]) -> Any:
            began = time.monotonic()
            response = await client.post(
                f"/api/v1/matches/{match}/events/",
                json=body,
                headers={"Authorization": f"Bearer {token}"},
            )
            timings.append(time.monotonic() - began)
            if response.status_code >= 300:
                refused[0] += 1
                if len(reasons) < 3:
                    reasons.append(f"{response.status_code} {response.text[:300]}")
                return None
            return response.json()

        async def table(t: dict[str, Any], rng: random.Random) -> None:
            first = rng.uniform(0, args.deal_seconds)
            if first >= args.seconds:
                return  # its first deal would come after the play: it would only wait
            await asyncio.sleep(first)
            while time.monotonic() < end:
                body = {"kind": "deal_entered", "payload": DEAL, "expected_seq": t["head"]}
                entered = await post(t["enter"], t["match"], body)
                if entered is None:
                    return
                t["head"] = entered["last_seq"]
                entry = next(
                    (e["payload"]["entry"] for e in entered["events"] if "entry" in e["payload"]),
                    1,
                )
                await asyncio.sleep(rng.uniform(1, 5))  # the other team reads it
                sent = time.time()
                body = {
                    "kind": "deal_confirmed",
                    "payload": {"entry": entry},
                    "expected_seq": t["head"],
                }
                confirmed = await post(t["confirm"], t["match"], body)
                if confirmed is None:
                    return
                t["head"] = confirmed["last_seq"]
                t["deals"] += 1  # the deals the table has confirmed, over every run
                confirmations.append((t["fixture"], t["match"], t["deals"], sent))
                wait = rng.expovariate(1 / args.deal_seconds)
                await asyncio.sleep(min(wait, max(0.0, end - time.monotonic())))

        async def restart(at: float) -> None:
            await asyncio.sleep(max(0.0, began + at - time.monotonic()))
            held = {pid: _sockets(pid) for pid in stack.push_processes()}
            victim = max(held, key=lambda pid: held[pid])
            os.kill(victim, signal.SIGKILL)
            faults["restart"] = {"killed_at": time.time(), "sockets_held": held}

        async def outage(at: float, seconds: float) -> None:
            assert stack.broker is not None
            await asyncio.sleep(max(0.0, began + at - time.monotonic()))
            stack.broker.kill()
            down = time.time()
            await asyncio.sleep(seconds)
            await asyncio.get_running_loop().run_in_executor(None, stack.broker.start)
            faults["outage"] = {"down": down, "back": time.time()}

        rng = random.Random(args.seed)
        work = [table(t, random.Random(rng.random())) for t in tables]
        if args.restart_at is not None:
            work.append(restart(args.restart_at))
        if args.outage_at is not None:
            work.append(outage(args.outage_at, args.outage_for))
        await asyncio.gather(*work)
    await asyncio.sleep(3)
    done.set()
    for task in probe_tasks:
        task.cancel()
    await asyncio.gather(*probe_tasks, return_exceptions=True)
    shown: dict[str, dict[int, int]] = {}
    for probe in probes:
        shown.update(probe.deals)  # a version is a digest of the part: the same everywhere
    return {
        "confirmations": confirmations,
        "refused": refused[0],
        "reasons": reasons,
        "append_p50_ms": round(quantile(sorted(timings), 0.5) * 1000, 1) if timings else None,
        "versions": len(shown),
        "shown": shown,
        "began": began_at,
        "faults": faults,
    }


class _Probe:
    """The tournament page's part rebuilt from its events: how many deals each table shows,
    for every version."""

    TABLE = re.compile(r'<li data-fixture="(\d+)">(.*?)</li>', re.S)
    DEALS = re.compile(r"after (\d+) deal")

    def __init__(self) -> None:
        self.text = ""
        self.version: str | None = None
        self.deals: dict[str, dict[int, int]] = {}

    def take(self, kind: str, version: str, data: str) -> None:
        if kind == "part":
            self.text = data
        elif kind == "patch":
            patch = json.loads(data)
            if patch["base"] != self.version:
                return  # not from the part it holds (cannot happen: the server sends a part)
            lines = self.text.split("\n")
            for start, stop, new in patch["edits"]:
                lines[start:stop] = new
            self.text = "\n".join(lines)
        else:
            return
        self.version = version
        shown = {}
        for fixture, body in self.TABLE.findall(self.text):
            found = self.DEALS.search(body)
            shown[int(fixture)] = int(found.group(1)) if found else 0
        self.deals[version] = shown


def _bits(value: int) -> Iterator[int]:
    """The positions of the bits set in ``value``."""
    while value:
        low = value & -value
        yield low.bit_length() - 1
        value ^= low


def _figures(played: dict[str, Any], seen: list[dict[str, Any]]) -> dict[str, Any]:
    confirmations = played["confirmations"]
    sent = [c[3] for c in confirmations]
    # for every version the probes saw, the confirmations it shows (a bit each)
    shows: dict[str, int] = {}
    for version, deals in played["shown"].items():
        bits = 0
        for i, (fixture, _, deal, _) in enumerate(confirmations):
            if deals.get(fixture, 0) >= deal:
                bits |= 1 << i
        shows[version] = bits
    ever = 0
    for bits in shows.values():
        ever |= bits
    unseen_by_probe = len(confirmations) - ever.bit_count()
    by_match: dict[int, list[int]] = {}
    for i, (_, match, _, _) in enumerate(confirmations):
        by_match.setdefault(match, []).append(i)
    page: list[tuple[int, float]] = []  # (confirmation, latency) for every viewer
    sheet: list[tuple[int, float]] = []
    faults = played["faults"]
    killed_at = faults.get("restart", {}).get("killed_at")
    after_kill = next((i for i, at in enumerate(sent) if killed_at and at >= killed_at), None)
    recovery: list[float] = []  # page viewers: the kill to the next confirmation shown
    back: list[float] = []  # viewers the kill cut off: the kill to their stream open again
    behind = errors = refused = ended = messages = unknown = 0
    kinds: dict[str, int] = {}
    for proc in seen:
        for kind, n in proc.get("kinds", {}).items():
            kinds[kind] = kinds.get(kind, 0) + n
        refused += proc["refused"]
        ended += proc["ended"]
        messages += proc["messages"]
        for path, arrivals, opens, ends in proc["viewers"]:
            if killed_at is not None and any(at >= killed_at for at in ends):
                again = next((at for at in opens if at >= killed_at), None)
                back.append(float("inf") if again is None else again - killed_at)
            if path.startswith("/push/t/"):
                waiting = ever
                for version, at in arrivals:
                    if version not in shows:
                        unknown += at >= played["began"]  # before play: no probe yet
                        continue
                    new = waiting & shows[version]
                    if new:
                        waiting &= ~new
                        page.extend((i, at - sent[i]) for i in _bits(new))
                        if after_kill is not None and new >> after_kill & 1:
                            recovery.append(at - killed_at)
                behind += waiting.bit_count()
                if after_kill is not None and waiting >> after_kill & 1:
                    recovery.append(float("inf"))
            else:
                match = int(path.rstrip("/").rsplit("/", 1)[1])
                times = sorted(at for _, at in arrivals)
                for i in by_match.get(match, ()):
                    k = bisect.bisect_left(times, sent[i])
                    if k == len(times):
                        behind += 1
                    else:
                        sheet.append((i, times[k] - sent[i]))
    errors = refused + (0 if killed_at is not None else ended)

    def ms(pairs: list[tuple[int, float]]) -> dict[str, float | None]:
        values = sorted(latency for _, latency in pairs)
        return {
            "p50": round(quantile(values, 0.5) * 1000, 1) if values else None,
            "p99": round(quantile(values, 0.99) * 1000, 1) if values else None,
            "max": round(values[-1] * 1000, 1) if values else None,
        }

    figures: dict[str, Any] = {
        "latency_ms": {**ms(page + sheet), "pairs": len(page) + len(sheet)},
        "tournament_page_latency_ms": ms(page),
        "match_sheet_latency_ms": ms(sheet),
        "errors": errors,
        "streams_refused": refused,
        "streams_ended": ended,
        "left_behind": behind,
        "confirmations_the_probe_never_saw": unseen_by_probe,
        "arrivals_of_versions_no_probe_saw": unknown,
        "events_by_kind": kinds,
        "messages": messages,
    }
    if killed_at is not None:
        figures["restart"] = {
            **faults["restart"],
            "streams_cut": len(back),
            "back_s": _seconds(back),
            "next_confirmation_sent_s": None
            if after_kill is None
            else round(sent[after_kill] - killed_at, 2),
            "recovery_s": _seconds(recovery),
            "confirmations_around_it_ms": ms(
                [(i, x) for i, x in page + sheet if -2 <= sent[i] - killed_at <= 10]
            ),
        }
    if "outage" in faults:
        down, up = faults["outage"]["down"], faults["outage"]["back"]
        meanwhile = [(i, x) for i, x in page + sheet if down <= sent[i] < up]
        figures["outage"] = {
            **faults["outage"],
            "confirmations_meanwhile": sum(1 for at in sent if down <= at < up),
            "their_latency_ms": ms(meanwhile),
            "shown_after_back_s": _seconds([sent[i] + x - up for i, x in meanwhile]),
        }
    return figures


def _seconds(values: list[float]) -> dict[str, float | None]:
    ordered = sorted(values)
    if not ordered:
        return {"p50": None, "p99": None, "max": None, "n": 0}
    return {
        "p50": round(quantile(ordered, 0.5), 2),
        "p99": round(quantile(ordered, 0.99), 2),
        "max": round(ordered[-1], 2),
        "n": len(ordered),
    }


# --- the viewers -----------------------------------------------------------------------------


def _viewer_process(
    port: int, paths: list[str], ramp: float, stop: Any, ready: Any, out: Any
) -> None:
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    asyncio.run(_viewers(port, paths, ramp, stop, ready, out))


class _Connection:
    """What an EventSource keeps between its connections: the last event's id (sent back as
    ``Last-Event-ID``), the stream's ``retry``, when each stream opened and ended."""

    __slots__ = ("ends", "last_id", "opens", "refused", "retry")

    def __init__(self) -> None:
        self.last_id: str | None = None
        self.retry = 3.0  # a browser's own, until the stream says
        self.opens: list[float] = []
        self.ends: list[float] = []
        self.refused = 0


async def _viewers(
    port: int, paths: list[str], ramp: float, stop: Any, ready: Any, out: Any
) -> None:
    """Open every stream of ``paths`` on ``port`` (the push processes' one address), and note
    when each event reached it; a stream that ends is opened again, as an EventSource does."""
    done = asyncio.Event()
    records: list[tuple[str, list[tuple[str, float]], list[float], list[float]]] = []
    counts = {"messages": 0, "first": 0}
    kinds: dict[str, int] = {}  # events by kind: a whole part, or a patch from the one held
    first_seen = asyncio.Event()

    async def one(path: str) -> _Connection:
        arrivals: list[tuple[str, float]] = []
        connection = _Connection()
        records.append((path, arrivals, connection.opens, connection.ends))
        got_first = False

        def take(kind: str, version: str, data: str) -> None:
            nonlocal got_first
            counts["messages"] += 1
            kinds[kind] = kinds.get(kind, 0) + 1
            arrivals.append((version, time.time()))
            if not got_first:
                got_first = True
                counts["first"] += 1
                if counts["first"] == len(paths):
                    first_seen.set()

        await _follow(port, path, take, done, connection, keep_text=False)
        return connection

    tasks = []
    for path in paths:
        tasks.append(asyncio.create_task(one(path)))
        await asyncio.sleep(1 / ramp)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(first_seen.wait(), 300)
    ready.put(counts["first"])
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, stop.wait)
    done.set()
    await asyncio.sleep(0.5)
    for task in tasks:
        task.cancel()
    connections = [c for c in await asyncio.gather(*tasks, return_exceptions=True)]
    out.put(
        {
            "viewers": records,
            "messages": counts["messages"],
            "refused": sum(c.refused for c in connections if isinstance(c, _Connection)),
            "ended": sum(len(ends) for _, _, _, ends in records),
            "kinds": kinds,
        }
    )


async def _follow(
    port: int,
    path: str,
    take: Any,
    done: asyncio.Event,
    connection: _Connection,
    *,
    keep_text: bool = True,
) -> _Connection:
    """Read the event stream at ``path`` until ``done``, as an EventSource: opened again
    after ``retry`` (with ``Last-Event-ID``) whenever it is refused or ends."""
    with contextlib.suppress(asyncio.CancelledError):
        while not done.is_set():
            await _stream(port, path, take, done, connection, keep_text=keep_text)
            if done.is_set():
                break
            connection.ends.append(time.time())
            await asyncio.sleep(connection.retry)
    return connection


async def _stream(
    port: int,
    path: str,
    take: Any,
    done: asyncio.Event,
    connection: _Connection,
    *,
    keep_text: bool = True,
) -> None:
    """Read the event stream at ``path`` once, until it ends or ``done``; call ``take(kind,
    id, data)`` for every event with an id."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 24)
    except OSError:
        connection.refused += 1
        return
    try:
        last = f"Last-Event-ID: {connection.last_id}\r\n" if connection.last_id else ""
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
            f"{last}\r\n".encode()
        )
        head = await reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200"):
            connection.refused += 1
            return
        connection.opens.append(time.time())
        chunked = b"chunked" in head.lower()
        buffer = b""
        while True:
            if chunked:
                size_line = await reader.readuntil(b"\r\n")
                size = int(size_line.strip(), 16)
                if size == 0:
                    return
                data = await reader.readexactly(size + 2)
                buffer += data[:-2]
            else:
                data = await reader.read(1 << 16)
                if not data:
                    return
                buffer += data
            while b"\n\n" in buffer:
                frame, buffer = buffer.split(b"\n\n", 1)
                if frame.startswith(b"retry: "):
                    connection.retry = int(frame[7:]) / 1000
                    continue
                kind, version, lines = "message", None, []
                for line in frame.split(b"\n"):
                    if line.startswith(b"event: "):
                        kind = line[7:].decode()
                    elif line.startswith(b"id: "):
                        version = line[4:].decode()
                    elif keep_text and line.startswith(b"data: "):
                        lines.append(line[6:].decode())
                    elif not keep_text and version is not None:
                        break  # the rest is the part's text, not read here
                if version is not None:
                    connection.last_id = version
                    take(kind, version, "\n".join(lines))
    except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError, ValueError):
        return
    finally:
        writer.close()


if __name__ == "__main__":
    main()
