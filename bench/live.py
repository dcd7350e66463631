"""Live benchmark: thousands of viewers of the pushed live parts, and tables confirming deals.

Needs PostgreSQL and Redis, named as the application names them:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/12 \\
        python -m bench.live [--viewers 500,2000,5000] [--tables 256] [--seconds 40]
            [--idle 10] [--deal-seconds 60] [--sheets 0.3] [--keep]

(``make bench-live``). Like bench.api it makes a scratch database of its own (``--database``,
default ``seep_bench_live``, dropped at the end unless ``--keep``) and starts the production
processes on it, as ``make stack`` runs them: gunicorn (deploy/gunicorn.py), two Celery workers
(the scoring queue, one of its own on REDIS_URL) and one push process (uvicorn
``deploy.push:application``, uvloop and httptools, as deploy/Procfile). Give it a Redis
database no one else uses.

The world: a published tournament of ``2 * --tables`` teams, a round-robin stage in score
mode whose results the other team confirms, its first round published: ``--tables`` matches
being played (first to 99 bazzis: none ends during the run).

For each viewer count: viewer processes (asyncio on loopback, two of them, bare sockets, no
HTTP library) open that many streams, a ``--sheets`` share on the match sheets (spread over
the tables) and the rest on the tournament page, ramped up, each reading every event. Then:

- idle (``--idle`` seconds, no table plays): the push process's CPU per viewer, its memory
  per connection (its RSS over its RSS before the viewers), the database's transactions
  (``pg_stat_database``: what the whole stack asked while nothing happened);
- play (``--seconds``): every table enters a deal (a player of one team, over the API) and
  confirms it (a player of the other team), each after a random wait averaging
  ``--deal-seconds`` (a club's pace). A probe viewer rebuilds the tournament page's part
  from its events and notes, for every version, how many deals each table shows; each
  viewer notes when each version reached it. A confirmation's latency, for a viewer of the
  tournament page, is from the moment the confirmation was *sent* (before its commit: the
  figure is an upper bound) to the arrival of the first version that shows it; for a viewer
  of that table's match sheet, to the first event after it was sent. Reported: p50, p99 and
  max over every (confirmation, viewer) pair, the versions pushed, the push process's CPU per
  update and per message sent (its render processes included), the errors (a stream
  refused or ended, an append refused) and the viewers left behind (a confirmation a viewer
  never saw). Memory per connection is the push process's own growth; its render processes'
  memory (a fixed cost) is reported beside it.

The machine is shared: the load average before and after is recorded. Written to
bench/results/live.json and printed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import platform
import random
import re
import subprocess
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

from bench.processes import (
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
    parser.add_argument("--push", type=int, default=1, help="push processes (viewers spread)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--out", default="live.json", help="the file in bench/results/")
    args = parser.parse_args()
    counts = [int(n) for n in args.viewers.split(",") if n]

    database_url, redis_url = postgres_and_redis("bench.live", "the broker, the cache, the channel")
    bench_url = recreate_database(database_url, args.database)
    web_port, push_ports = free_port(), [free_port() for _ in range(args.push)]
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
    RESULTS.mkdir(exist_ok=True)
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
        pushes = [_start_push(logs["push"], port) for port in push_ports]
        processes += pushes
        push_pids = [p.pid for p in pushes]
        runs = [
            _run(args, world, n, web_port, push_ports, push_pids, processes[2].pid) for n in counts
        ]
        result = {
            "benchmark": "live",
            "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "database": _database_version(),
            "load_average": {"before": load_before, "after": os.getloadavg()},
            "processes": "gunicorn (deploy/gunicorn.py), 2 celery workers (concurrency 1), "
            f"{args.push} push process(es) (uvicorn deploy.push:application, uvloop, "
            "httptools), the viewers spread over them",
            "tables": args.tables,
            "deal_seconds": args.deal_seconds,
            "sheets_share": args.sheets,
            "seconds": args.seconds,
            "idle_seconds": args.idle,
            "goal": "p99 confirmation-to-screen <= 1000 ms, no errors, no viewer left behind",
            "runs": runs,
        }
    finally:
        tear_down(processes, redis_url, database_url, args)
    (RESULTS / args.out).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


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


def _start_push(log_path: Path, port: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "uvicorn", "deploy.push:application"]
    command += ["--host", "127.0.0.1", "--port", str(port), "--loop", "uvloop"]
    command += ["--http", "httptools", "--lifespan", "off", "--no-access-log"]
    command += ["--backlog", "8192", "--timeout-graceful-shutdown", "2"]
    return start_server(command, log_path, port, "the push process")


# --- one viewer count ------------------------------------------------------------------------


def _proc_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _family(pids: list[int]) -> list[int]:
    """The push processes and their children (the render processes they spawn)."""
    found = list(pids)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            if ppid in pids:
                found.append(int(entry.name))
    return found


def _push_cpu(pids: list[int]) -> float:
    """The CPU seconds of the push processes, their render processes included."""
    total = 0.0
    for pid in _family(pids):
        with contextlib.suppress(OSError):  # a child that ended meanwhile
            total += _proc_cpu(pid)
    return total


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
    args: argparse.Namespace,
    world: dict[str, Any],
    viewers: int,
    web_port: int,
    push_ports: list[int],
    push_pids: list[int],
    web_pid: int,
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
    rss_before = sum(_rss_mb(pid) for pid in push_pids)
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
            args=(push_ports, part, args.ramp / VIEWER_PROCESSES, stop, ready, out),
        )
        for part in share
    ]
    for p in procs:
        p.start()
    connected = sum(ready.get(timeout=600) for _ in procs)
    time.sleep(5)  # the last whole parts written
    # idle: nobody plays
    rss_connected = sum(_rss_mb(pid) for pid in push_pids)
    # the render processes (and the spawn's resource tracker): a fixed cost, not a viewer's
    rss_children = sum(_rss_mb(pid) for pid in _family(push_pids) if pid not in push_pids)
    cpu0, tx0, t0 = _push_cpu(push_pids), _transactions(), time.monotonic()
    time.sleep(args.idle)
    cpu1, tx1, t1 = _push_cpu(push_pids), _transactions(), time.monotonic()
    idle_cpu_s = (cpu1 - cpu0) / (t1 - t0)
    # play
    web0, busy0 = sum(cpu_seconds(web_pid).values()), machine_busy_seconds()
    cpu2, t2 = _push_cpu(push_pids), time.monotonic()
    played = asyncio.run(_play(args, tables, web_port, push_ports, page))
    cpu3, t3 = _push_cpu(push_pids), time.monotonic()
    web1, busy1 = sum(cpu_seconds(web_pid).values()), machine_busy_seconds()
    time.sleep(3)  # the last updates delivered
    stop.set()
    seen = [out.get(timeout=300) for _ in procs]
    for p in procs:
        p.join(30)
    figures = _figures(played, seen, tables)
    messages = figures.pop("messages")
    return {
        "viewers": viewers,
        "connected": connected,
        "on_match_sheets": sum(1 for p in paths if p != page),
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
            "push_cpu_s": round(cpu3 - cpu2, 2),
            "push_cpu_ms_per_update": round((cpu3 - cpu2) * 1000 / max(1, played["versions"]), 1),
            "push_cpu_us_per_message": round((cpu3 - cpu2) * 1e6 / max(1, messages), 1),
            "messages_sent": messages,
            "web_cpu_s": round(web1 - web0, 2),
            "machine_cpu_busy_share": round((busy1 - busy0) / (t3 - t2) / (os.cpu_count() or 1), 2),
        },
        **figures,
    }


async def _play(
    args: argparse.Namespace,
    tables: list[dict[str, Any]],
    web_port: int,
    push_ports: list[int],
    page: str,
) -> dict[str, Any]:
    """Every table enters and confirms deals for ``--seconds``; a probe follows the page."""
    import httpx

    probes = {port: _Probe() for port in push_ports}  # one per process: each has its versions
    probe_tasks = [
        asyncio.create_task(_stream(port, page, probe.take, asyncio.Event()))
        for port, probe in probes.items()
    ]
    await asyncio.sleep(1)
    confirmations: list[tuple[int, int, int, float]] = []  # fixture, match, deal, sent at
    refused = [0]
    reasons: list[str] = []
    timings: list[float] = []
    end = time.monotonic() + args.seconds
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    async with httpx.AsyncClient(
        base_url=f"http://127.0.0.1:{web_port}", limits=limits, timeout=30
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
            await asyncio.sleep(rng.uniform(0, args.deal_seconds))
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

        rng = random.Random(args.seed)
        await asyncio.gather(*(table(t, random.Random(rng.random())) for t in tables))
    await asyncio.sleep(3)
    for task in probe_tasks:
        task.cancel()
    return {
        "confirmations": confirmations,
        "refused": refused[0],
        "reasons": reasons,
        "append_p50_ms": round(quantile(sorted(timings), 0.5) * 1000, 1) if timings else None,
        "versions": sum(len(probe.order) for probe in probes.values()),
        "probes": probes,
    }


class _Probe:
    """The tournament page's part rebuilt from its events: how many deals each table shows,
    for every version."""

    TABLE = re.compile(r'<li data-fixture="(\d+)">(.*?)</li>', re.S)
    DEALS = re.compile(r"after (\d+) deal")

    def __init__(self) -> None:
        self.text = ""
        self.order: list[str] = []
        self.deals: dict[str, dict[int, int]] = {}

    def take(self, kind: str, version: str, data: str) -> None:
        if kind == "part":
            self.text = data
        elif kind == "patch":
            lines = self.text.split("\n")
            for start, stop, new in json.loads(data)["edits"]:
                lines[start:stop] = new
            self.text = "\n".join(lines)
        else:
            return
        shown = {}
        for fixture, body in self.TABLE.findall(self.text):
            found = self.DEALS.search(body)
            shown[int(fixture)] = int(found.group(1)) if found else 0
        self.order.append(version)
        self.deals[version] = shown


def _figures(played: dict[str, Any], seen: list[dict[str, Any]], tables: Any) -> dict[str, Any]:
    # for each process and confirmation, the first version (in the order that process's probe
    # saw them) that shows it
    firsts: dict[int, list[int | None]] = {}
    indexes: dict[int, dict[str, int]] = {}
    for port, probe in played["probes"].items():
        indexes[port] = {v: i for i, v in enumerate(probe.order)}
        firsts[port] = [
            next(
                (i for i, v in enumerate(probe.order) if probe.deals[v].get(fixture, 0) >= deal),
                None,
            )
            for fixture, _, deal, _ in played["confirmations"]
        ]
    page_latencies: list[float] = []
    sheet_latencies: list[float] = []
    behind = errors = messages = 0
    unseen_by_probe = sum(1 for first in firsts.values() for f in first if f is None)
    for proc in seen:
        errors += proc["errors"]
        messages += proc["messages"]
        for port, path, arrivals in proc["viewers"]:
            if path.startswith("/push/t/"):
                probe, index, first = played["probes"][port], indexes[port], firsts[port]
                # the earliest arrival of any version at or after each index
                latest = [float("inf")] * (len(probe.order) + 1)
                for version, at in arrivals:
                    i = index.get(version)
                    if i is not None:
                        latest[i] = min(latest[i], at)
                for i in range(len(probe.order) - 1, -1, -1):
                    latest[i] = min(latest[i], latest[i + 1])
                for (_, _, _, sent), f in zip(played["confirmations"], first, strict=True):
                    if f is None:
                        continue
                    if latest[f] == float("inf"):
                        behind += 1
                    else:
                        page_latencies.append(latest[f] - sent)
            else:
                match = int(path.rstrip("/").rsplit("/", 1)[1])
                times = sorted(at for _, at in arrivals)
                for _, m, _, sent in played["confirmations"]:
                    if m != match:
                        continue
                    after = next((at for at in times if at >= sent), None)
                    if after is None:
                        behind += 1
                    else:
                        sheet_latencies.append(after - sent)
    both = page_latencies + sheet_latencies

    page_latencies.sort()
    sheet_latencies.sort()
    both = sorted(both)

    def ms(values: list[float], q: float) -> float | None:
        return round(quantile(values, q) * 1000, 1) if values else None

    return {
        "latency_ms": {
            "p50": ms(both, 0.5),
            "p99": ms(both, 0.99),
            "max": round(max(both) * 1000, 1) if both else None,
            "pairs": len(both),
        },
        "tournament_page_latency_ms": {
            "p50": ms(page_latencies, 0.5),
            "p99": ms(page_latencies, 0.99),
        },
        "match_sheet_latency_ms": {
            "p50": ms(sheet_latencies, 0.5),
            "p99": ms(sheet_latencies, 0.99),
        },
        "errors": errors,
        "left_behind": behind,
        "confirmations_the_probe_never_saw": unseen_by_probe,
        "messages": messages,
    }


# --- the viewers -----------------------------------------------------------------------------


def _viewer_process(
    ports: list[int], paths: list[str], ramp: float, stop: Any, ready: Any, out: Any
) -> None:
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    asyncio.run(_viewers(ports, paths, ramp, stop, ready, out))


async def _viewers(
    ports: list[int], paths: list[str], ramp: float, stop: Any, ready: Any, out: Any
) -> None:
    """Open every stream of ``paths``, the n-th on ``ports[n % len(ports)]`` (the load
    balancer's part), and note when each event reached it."""
    done = asyncio.Event()
    records: list[tuple[int, str, list[tuple[str, float]]]] = []
    counts = {"errors": 0, "messages": 0, "first": 0}
    first_seen = asyncio.Event()

    async def one(port: int, path: str) -> None:
        arrivals: list[tuple[str, float]] = []
        records.append((port, path, arrivals))
        got_first = False

        def take(kind: str, version: str, data: str) -> None:
            nonlocal got_first
            counts["messages"] += 1
            arrivals.append((version, time.time()))
            if not got_first:
                got_first = True
                counts["first"] += 1
                if counts["first"] == len(paths):
                    first_seen.set()

        ok = await _stream(port, path, take, done, keep_text=False)
        if not ok:
            counts["errors"] += 1
            if not got_first:
                counts["first"] += 1
                if counts["first"] == len(paths):
                    first_seen.set()

    tasks = []
    for n, path in enumerate(paths):
        tasks.append(asyncio.create_task(one(ports[n % len(ports)], path)))
        await asyncio.sleep(1 / ramp)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(first_seen.wait(), 300)
    ready.put(counts["first"] - counts["errors"])
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, stop.wait)
    done.set()
    await asyncio.sleep(0.5)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    out.put({"viewers": records, "errors": counts["errors"], "messages": counts["messages"]})


async def _stream(
    port: int, path: str, take: Any, done: asyncio.Event, *, keep_text: bool = True
) -> bool:
    """Read the event stream at ``path`` until ``done``; call ``take(kind, id, data)`` for
    every event with an id. False: the stream was refused or ended before ``done``."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 24)
    except OSError:
        return False
    try:
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        head = await reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200"):
            print("bench.live: refused:", path, head.split(b"\r\n", 1)[0], file=sys.stderr)
            return False
        chunked = b"chunked" in head.lower()
        buffer = b""
        while True:
            if chunked:
                size_line = await reader.readuntil(b"\r\n")
                size = int(size_line.strip(), 16)
                if size == 0:
                    return done.is_set()
                data = await reader.readexactly(size + 2)
                buffer += data[:-2]
            else:
                data = await reader.read(1 << 16)
                if not data:
                    return done.is_set()
                buffer += data
            while b"\n\n" in buffer:
                frame, buffer = buffer.split(b"\n\n", 1)
                kind, version, lines = "message", None, []
                for line in frame.split(b"\n"):
                    if line.startswith(b"event: "):
                        kind = line[7:].decode()
                    elif line.startswith(b"id: "):
                        version = line[4:].decode()
                    elif keep_text and line.startswith(b"data: "):
                        lines.append(line[6:].decode())
                if version is not None:
                    take(kind, version, "\n".join(lines))
    except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError) as exc:
        if not done.is_set():
            print("bench.live: ended:", path, repr(exc)[:200], file=sys.stderr)
        return done.is_set()
    except asyncio.CancelledError:
        return True
    finally:
        writer.close()


if __name__ == "__main__":
    main()
