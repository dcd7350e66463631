"""API benchmark: requests per second and p50/p99 of appends and reads over HTTP, against gunicorn.

Needs PostgreSQL and Redis, named as the application names them:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/0 \\
        python -m bench.api [--clients 1,16] [--cases service,append,standings,state]
            [--rounds 3] [--seconds 3] [--port 0] [--keep]

(``make bench-api`` runs it with the environment it is given). It never touches the database
DATABASE_URL names: it creates its own, ``--database`` (default ``seep_bench_api``) on the same
server, dropping it first and again at the end (unless ``--keep``). It starts the production
processes on it: gunicorn with deploy/gunicorn.py (its defaults: ``WEB_CONCURRENCY`` worker
processes of ``WEB_THREADS`` threads, each client's connection kept alive between requests, as
a proxy's upstream connections are) on a free port of 127.0.0.1, and one Celery worker
(prefork, concurrency 1) on a queue of its own on REDIS_URL, whose keys it deletes at the end.
The cache (the rate limits' counts, the cached standings) is on REDIS_URL too, keyed by ids
the scratch database hands out again: give it a Redis database no one else uses (``make
bench-api`` takes database 11). The API's rate limits stay on, with a token rate no client
reaches (the counting is part of every request's cost).

The world: a published tournament of ``--teams`` teams (every player a user with a write
token), a round-robin stage whose first round is played (score matches) and projected by the
worker, so its standings have a row per team; ``max(--clients)`` digital matches that do not end
during the benchmark (first to 99 bazzis), one per client.

Cases, each at every ``--clients`` count, each client a process of its own with one kept-alive
connection on a bare socket (``_Connection``: the clients share the machine's two CPUs with
what they measure; urllib3 cost a client about 0.9 ms of CPU a standings read, this 0.2),
every request with a Bearer token:

- ``service``: ``match_append_event`` called directly (no HTTP): a legal ``move_played`` as the
  seat's player, each client on its own match. The figure the HTTP append is compared with.
- ``append``: the same through ``POST /api/v1/matches/{id}/events/``, with the token of the
  player whose turn it is. The client knows the position (read from the database when a deal
  begins, untimed; then followed move by move with seep_core) and picks a random legal move.
- ``standings``: ``GET /api/v1/stages/{id}/standings/`` (a read token each, no ``If-None-Match``).
- ``state``: ``GET /api/v1/matches/{id}/state/`` as seat 0's player, each client its own match.

Every round runs every case for ``--seconds`` at every client count, in turn, so a shared,
noisy machine weighs on all cases alike; after the appends the worker is let catch up (its
wait is recorded) before the next case. Figures per case and count over every round:
requests per second (requests over the phases' wall time), p50/p99 in milliseconds, and the
HTTP overhead (HTTP append p50 - service p50 at the same count). Where the CPU goes, per
request: the web workers' (``cpu_ms_per_request``; for ``service``, the client's, which makes
the call), the clients' own (``client_cpu_ms_per_request``), and the whole machine's busy
time (``machine_cpu_ms_per_request``: PostgreSQL, Redis, the Celery worker and the kernel
too; two CPUs make 2,000 ms a second, so that figure bounds the rate). Also recorded: the SQL
queries one request of each kind makes (the Django test client in this process), and the
load average before and after. Written to bench/results/api.json and printed.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import random
import socket
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bench.processes import (
    cpu_seconds,
    free_port,
    machine_busy_seconds,
    quantile,
    server_environment,
    server_version,
    start_web,
    start_worker,
    tear_down,
)
from bench.scratch import postgres_and_redis, recreate_database

RESULTS = Path(__file__).resolve().parent / "results"
FORMAT = {"bazzis": 99, "first_to": True}  # a match that does not end during the benchmark
CASES = ("service", "append", "standings", "state")
#: the goals of issue 10 ("Speed")
GOAL_OVERHEAD_MS = 2.0
GOAL_STANDINGS_RPS = 500
GOAL_STANDINGS_P99_MS = 50.0
JSON = "application/json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", default="seep_bench_api", help="scratch database to create")
    parser.add_argument("--clients", default="1,16", help="concurrent clients, comma-separated")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of every case")
    parser.add_argument("--seconds", type=float, default=3.0, help="length of each case a round")
    parser.add_argument("--teams", type=int, default=16, help="teams in the standings")
    parser.add_argument("--port", type=int, default=0, help="gunicorn's port (0: a free one)")
    parser.add_argument(
        "--cases",
        default=",".join(CASES),
        help=f"cases to run, comma-separated ({', '.join(CASES)})",
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    parser.add_argument(
        "--profile",
        type=int,
        default=0,
        metavar="N",
        help="also profile N requests of each kind in this process (bench/results/api-profile.txt)",
    )
    args = parser.parse_args()
    counts = [int(n) for n in args.clients.split(",")]
    cases = [c for c in args.cases.split(",") if c]
    if unknown := set(cases) - set(CASES):
        parser.error(f"unknown cases: {', '.join(sorted(unknown))}")

    database_url, redis_url = postgres_and_redis("bench.api", "the broker and the cache")
    bench_url = recreate_database(database_url, args.database)
    port = args.port or free_port()
    server_environment(bench_url, f"seep-bench-api-{uuid.uuid4().hex[:8]}", port)

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    from deploy import gunicorn as web_config  # what the gunicorn started below reads

    call_command("migrate", verbosity=0)
    RESULTS.mkdir(exist_ok=True)
    worker_log, web_log = RESULTS / "api-worker.log", RESULTS / "api-web.log"
    for path in (worker_log, web_log):
        path.unlink(missing_ok=True)
    load_before = os.getloadavg()
    processes = [start_worker(worker_log)]
    try:
        world = _World(args, max(counts))
        world.wait_for_standings()
        queries = world.count_queries()
        if args.profile:
            world.profile(args.profile, RESULTS / "api-profile.txt")
        connections.close_all()
        if not args.rounds:
            return  # the queries and the profile only
        web = start_web(web_log, port)
        processes.append(web)
        bench = _Bench(world, f"http://127.0.0.1:{port}", args.seconds, web.pid)
        bench.warm_up(max(counts))
        for _ in range(args.rounds):
            for clients in counts:
                for case in cases:
                    bench.run(case, clients)
        figures = bench.figures()
        result = {
            "benchmark": "api",
            "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "python": platform.python_version(),
            "machine": platform.machine(),
            "cpus": os.cpu_count(),
            "database": server_version(),
            "load_average": {"before": load_before, "after": os.getloadavg()},
            "web": f"gunicorn (deploy/gunicorn.py), {web_config.workers} workers of "
            f"{web_config.threads} threads",
            "worker": "celery prefork, concurrency 1",
            "rounds": args.rounds,
            "seconds_per_case": args.seconds,
            "teams": args.teams,
            "cases": figures,
            "http_overhead_ms": bench.overhead(counts),
            "http_overhead_cpu_ms": bench.overhead(counts, "cpu_ms_per_request"),
            "goals": bench.goals(counts),
            "worker_catch_up_s": bench.catch_up,
            "queries": queries,
        }
    finally:
        tear_down(processes, redis_url, database_url, args)
    (RESULTS / "api.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


class _World:
    """The tournament, its people and tokens, the played stage, and the matches to play."""

    def __init__(self, args: argparse.Namespace, matches: int) -> None:
        from django.contrib.auth import get_user_model

        from competition import demo
        from competition import services as competition
        from competition.models import Fixture
        from tournaments.models import Player, Tournament
        from tournaments.services import match_create

        rng = random.Random(args.seed)
        users = get_user_model().objects
        self.organizer = users.create_user("bench-organizer")
        self.tournament = Tournament.objects.create(
            name="API benchmark", slug="api-benchmark", organizer=self.organizer, published=True
        )
        self.teams = args.teams
        self.tokens: dict[int, str] = {}  # user id -> a write token of theirs
        teams = []
        for t in range(args.teams):
            players = []
            for p in range(2):
                user = users.create_user(f"bench-player-{t}-{p}")
                players.append(Player.objects.create(name=f"Player {t}.{p}", user=user))
                self.tokens[user.pk] = self.token(user, write=True)
            teams.append(
                competition.team_register(
                    actor=self.organizer,
                    tournament=self.tournament,
                    name=f"Team {t:02}",
                    first_player=players[0],
                    second_player=players[1],
                    checked_in=True,
                )
            )
        # Readers: each their own user and read token (knox looks at a user's every token).
        self.readers = [self.token(users.create_user(f"bench-reader-{n}")) for n in range(matches)]
        self.stage = competition.stage_create(
            actor=self.organizer,
            tournament=self.tournament,
            name="League",
            format="round_robin",
            mode="score",
            match_format={"bazzis": 1, "deal_cap": 2},
        )
        competition.stage_start(actor=self.organizer, stage=self.stage)
        round_ = competition.round_pair(actor=self.organizer, stage=self.stage)
        competition.round_publish(actor=self.organizer, round=round_)
        for fixture in Fixture.objects.filter(round=round_, match__isnull=False):
            demo.play(fixture.match, rng)
        self.matches: list[int] = []
        for n in range(matches):
            match = match_create(
                tournament=self.tournament,
                team0=teams[(2 * n) % len(teams)],
                team1=teams[(2 * n + 1) % len(teams)],
                mode="digital",
                match_format=FORMAT,
            )
            demo.start(match, rng)
            self.matches.append(match.pk)

    def token(self, user: Any, *, write: bool = False) -> str:
        from api.models import ApiToken

        _, text = ApiToken.objects.create(
            user=user,
            expiry=timedelta(days=1),
            name=f"bench {user.pk}",
            tournament=self.tournament,
            write=write,
        )
        return str(text)

    def wait_for_standings(self, timeout: float = 300) -> None:
        from competition.models import StandingRow

        deadline = time.monotonic() + timeout
        rows = StandingRow.objects.filter(stage=self.stage, as_of_round=1)
        while rows.count() < self.teams:
            if time.monotonic() > deadline:
                sys.exit("the worker did not write the standings in time")
            time.sleep(0.1)

    def count_queries(self) -> dict[str, int]:
        """The SQL queries of one request of each kind, through the test client in-process."""
        from django.db import connection
        from django.test import Client
        from django.test.utils import CaptureQueriesContext

        player = _Player(self.matches[0])

        def count(method: str, path: str, token: str, body: Any = None) -> int:
            client = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
            with CaptureQueriesContext(connection) as queries:
                if method == "POST":
                    response = client.post(path, body, content_type="application/json")
                else:
                    response = client.get(path)
            assert response.status_code < 300, response.content
            if method == "POST":
                player.follow(response.json()["events"], response.json()["last_seq"])
            return len(queries)

        seat, body = player.next_move()
        return {
            "append": count("POST", player.path, self.tokens[player.users[seat]], body),
            "standings": count(
                "GET", f"/api/v1/stages/{self.stage.pk}/standings/", self.readers[0]
            ),
            "state": count(
                "GET", f"/api/v1/matches/{self.matches[0]}/state/", self.tokens[player.users[0]]
            ),
        }

    def profile(self, n: int, path: Path) -> None:
        """cProfile ``n`` requests of each kind through the test client (the whole Django stack,
        middleware included, without gunicorn), CPU ms per request, the top functions."""
        import cProfile
        import io
        import pstats

        from django.test import Client

        player = _Player(self.matches[-1])
        reads = {
            "standings": (f"/api/v1/stages/{self.stage.pk}/standings/", self.readers[0]),
            "state": (f"/api/v1/matches/{player.match_id}/state/", self.tokens[player.users[0]]),
        }
        clients = {
            token: Client(HTTP_AUTHORIZATION=f"Bearer {token}") for token in self.tokens.values()
        }
        clients.update({t: Client(HTTP_AUTHORIZATION=f"Bearer {t}") for _, t in reads.values()})

        def append() -> None:
            seat, body = player.next_move()
            client = clients[self.tokens[player.users[seat]]]
            answer = client.post(player.path, body, content_type="application/json").json()
            player.follow(answer["events"], answer["last_seq"])

        from django.contrib.auth import get_user_model

        from tournaments.services import match_append_event

        # the players' users fetched once, as the timed service case does (``_drive``)
        people = {u.pk: u for u in get_user_model().objects.filter(pk__in=player.users)}

        def service() -> None:
            seat, body = player.next_move()
            result = match_append_event(
                match=player.match_id,
                expected_seq=body["expected_seq"],
                kind="move_played",
                payload=body["payload"],
                actor=people[player.users[seat]],
                via="bench",
            )
            player.follow(result.events, result.last_seq)

        kinds = {"service": service, "append": append}
        for kind, (url, token) in reads.items():
            kinds[kind] = lambda url=url, token=token: clients[token].get(url)
        out = io.StringIO()
        for kind, call in kinds.items():
            for _ in range(5):
                call()
            profiler = cProfile.Profile(time.process_time)
            cpu = time.process_time()
            profiler.enable()
            for _ in range(n):
                call()
            profiler.disable()
            cpu = time.process_time() - cpu
            out.write(f"=== {kind}: {n} requests, {1000 * cpu / n:.2f} ms CPU each (profiled)\n")
            stats = pstats.Stats(profiler, stream=out)
            stats.sort_stats("cumulative").print_stats(60)
            stats.sort_stats("tottime").print_stats(25)
        path.write_text(out.getvalue())


class _Player:
    """A client's view of its match: the position, followed from its own appends."""

    def __init__(self, match_id: int, seed: int = 0) -> None:
        self.match_id = match_id
        self.path = f"/api/v1/matches/{match_id}/events/"
        self.rng = random.Random(seed * 7919 + match_id)
        self.reload()

    def reload(self) -> None:
        from tournaments.models import Match
        from tournaments.selectors import match_state

        state = match_state(self.match_id)
        assert state.deal is not None and state.users is not None
        self.deal, self.users = state.deal, list(state.users)
        self.seq = Match.objects.values_list("last_seq", flat=True).get(pk=self.match_id)

    def next_move(self) -> tuple[int, dict[str, Any]]:
        import seep_core as sc

        self.move = self.rng.choice(sc.legal_moves(self.deal))
        body = {"expected_seq": self.seq, "kind": "move_played", "payload": {"move": self.move}}
        return self.deal.to_play, body

    def follow(self, kinds: list[dict[str, Any]], last_seq: int) -> None:
        import seep_core as sc

        names = [event["kind"] for event in kinds]
        if names == ["move_played"]:
            self.deal, self.seq = sc.apply(self.deal, self.move), last_seq
        else:  # the deal ended and another began: its cards are the server's
            self.reload()


class _Bench:
    def __init__(self, world: _World, base: str, seconds: float, web_pid: int) -> None:
        self.world = world
        self.web_pid = web_pid
        self.base = base
        self.seconds = seconds
        self.samples: dict[tuple[str, int], list[dict[str, Any]]] = {}
        self.catch_up: list[float] = []
        self.runs = 0
        self._figures: list[dict[str, Any]] | None = None  # figures(), until the next run

    def warm_up(self, clients: int) -> None:
        """Every case once, unmeasured: the workers import and connect lazily."""
        seconds = self.seconds
        self.seconds = 1.0
        for case in CASES:
            self._phase(case, clients)
        self.seconds = seconds

    def run(self, case: str, clients: int) -> None:
        self.samples.setdefault((case, clients), []).append(self._phase(case, clients))
        self._figures = None

    def _phase(self, case: str, clients: int) -> dict[str, Any]:
        from django.db import connections

        connections.close_all()  # the children open their own
        self.runs += 1
        ctx = multiprocessing.get_context("fork")
        barrier = ctx.Barrier(clients)
        answers = ctx.Queue()
        jobs = [self._job(case, n) for n in range(clients)]
        procs = [ctx.Process(target=_client, args=(job, barrier, answers)) for job in jobs]
        cpu_before = cpu_seconds(self.web_pid)
        busy_before = machine_busy_seconds()
        for proc in procs:
            proc.start()
        outcomes = [answers.get(timeout=self.seconds + 120) for _ in procs]
        busy = machine_busy_seconds() - busy_before
        for proc in procs:
            proc.join()
        cpu_after = cpu_seconds(self.web_pid)
        # CPU seconds the calls took: the web workers' (HTTP), or the clients' own (service)
        cpu = (
            sum(o["cpu"] for o in outcomes)
            if case == "service"
            else sum(t - cpu_before.get(pid, t) for pid, t in cpu_after.items())
        )
        if case in ("service", "append"):
            self.catch_up.append(round(self._wait_for_worker(), 2))
        errors = [o["error"] for o in outcomes if o["error"]]
        return {
            "latencies": [t for o in outcomes for t in o["latencies"]],
            "seconds": max(o["end"] for o in outcomes) - min(o["start"] for o in outcomes),
            "errors": sum(o["errors"] for o in outcomes),
            "first_error": errors[0] if errors else None,
            "cpu": cpu,
            # the clients' own CPU (their HTTP, or the service call and its projection's send)
            "client_cpu": sum(o.get("client_cpu", 0.0) for o in outcomes),
            # every CPU of the machine, busy (PostgreSQL, Redis, the worker, the kernel too)
            "machine_cpu": busy,
        }

    def _job(self, case: str, n: int) -> dict[str, Any]:
        world = self.world
        return {
            "case": case,
            "base": self.base,
            "seconds": self.seconds,
            "match": world.matches[n],
            "seed": self.runs,
            "tokens": world.tokens,
            "reader": world.readers[n],
            "stage": world.stage.pk,
        }

    def _wait_for_worker(self, timeout: float = 120) -> float:
        from bench.scoring import projections_current

        start = time.perf_counter()
        while not projections_current(self.world.matches):
            if time.perf_counter() - start > timeout:
                break
            time.sleep(0.05)
        return time.perf_counter() - start

    def figures(self) -> list[dict[str, Any]]:
        """Every case's figures over its rounds (worked out once after the last run)."""
        if self._figures is not None:
            return self._figures
        out = []
        for (case, clients), phases in self.samples.items():
            ordered = sorted(t for p in phases for t in p["latencies"])
            seconds = sum(p["seconds"] for p in phases)
            out.append(
                {
                    "case": case,
                    "clients": clients,
                    "requests": len(ordered),
                    "errors": sum(p["errors"] for p in phases),
                    "first_error": next(
                        (p["first_error"] for p in phases if p["first_error"]), None
                    ),
                    "req_per_s": round(len(ordered) / seconds, 1),
                    "p50_ms": round(1000 * quantile(ordered, 0.50), 2),
                    "p99_ms": round(1000 * quantile(ordered, 0.99), 2),
                    "cpu_ms_per_request": round(
                        1000 * sum(p["cpu"] for p in phases) / max(1, len(ordered)), 2
                    ),
                    "client_cpu_ms_per_request": round(
                        1000 * sum(p["client_cpu"] for p in phases) / max(1, len(ordered)), 2
                    ),
                    "machine_cpu_ms_per_request": round(
                        1000 * sum(p["machine_cpu"] for p in phases) / max(1, len(ordered)), 2
                    ),
                    "per_round_p50_ms": [
                        round(1000 * quantile(sorted(p["latencies"]), 0.5), 2) for p in phases
                    ],
                }
            )
        self._figures = out
        return out

    def _case(self, case: str, clients: int) -> dict[str, Any] | None:
        return next(
            (f for f in self.figures() if (f["case"], f["clients"]) == (case, clients)), None
        )

    def overhead(self, counts: list[int], figure: str = "p50_ms") -> dict[str, float]:
        """The HTTP append's extra over the service call, where a run measured both."""
        out = {}
        for n in counts:
            append, service = self._case("append", n), self._case("service", n)
            if append and service:
                out[str(n)] = round(append[figure] - service[figure], 2)
        return out

    def goals(self, counts: list[int]) -> dict[str, Any]:
        """Each goal of issue 10 the run measured, met or not."""
        most, fewest = max(counts), min(counts)
        goals: dict[str, Any] = {}
        if (overhead := self.overhead(counts).get(str(fewest))) is not None:
            goals[f"append_overhead_at_{fewest}_client_le_{GOAL_OVERHEAD_MS}_ms"] = (
                overhead <= GOAL_OVERHEAD_MS
            )
        if standings := self._case("standings", most):
            goals[f"standings_at_{most}_clients_ge_{GOAL_STANDINGS_RPS}_per_s"] = (
                standings["req_per_s"] >= GOAL_STANDINGS_RPS
            )
            goals[f"standings_at_{most}_clients_p99_lt_{GOAL_STANDINGS_P99_MS}_ms"] = (
                standings["p99_ms"] < GOAL_STANDINGS_P99_MS
            )
        return goals


def _client(job: dict[str, Any], barrier: Any, answers: Any) -> None:
    """One client: run its case for the phase's seconds; answer its latencies."""
    outcome: dict[str, Any] = {"latencies": [], "errors": 0, "error": None, "cpu": 0.0}
    try:
        _drive(job, barrier, outcome)
    except Exception as exc:  # reported, never hung on
        outcome["error"] = f"{type(exc).__name__}: {exc}"
        outcome["errors"] += 1
        outcome.setdefault("start", time.perf_counter())
        outcome.setdefault("end", time.perf_counter())
    finally:
        from django.db import connections

        connections.close_all()
        answers.put(outcome)


class _Connection:
    """One kept-alive HTTP/1.1 connection to the server, on a bare socket: the load generator
    shares the machine's two CPUs with what it measures, so it spends as little as it can on
    a request (the request's bytes written at once, the answer's status line and
    ``Content-Length`` read, its body read whole; what the server sends without a length is
    an error, as is a connection it closes: a client is never idle for the keepalive)."""

    def __init__(self, base: str) -> None:
        parts = urlsplit(base)
        self._host = f"{parts.hostname}:{parts.port}"
        self._sock = socket.create_connection((parts.hostname, parts.port), timeout=30.0)
        self._sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._buffer = b""

    def request(
        self, method: str, path: str, headers: dict[str, str], body: bytes | None = None
    ) -> tuple[int, bytes]:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self._host}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        if body is not None:
            lines.append(f"Content-Length: {len(body)}")
        self._sock.sendall("\r\n".join(lines).encode() + b"\r\n\r\n" + (body or b""))
        while (end := self._buffer.find(b"\r\n\r\n")) < 0:
            self._buffer += self._receive()
        head, self._buffer = self._buffer[:end].decode("latin-1"), self._buffer[end + 4 :]
        status_line, *fields = head.split("\r\n")
        length = None
        for field in fields:
            name, _, value = field.partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        if length is None:
            raise RuntimeError(f"an answer without Content-Length: {head[:300]!r}")
        while len(self._buffer) < length:
            self._buffer += self._receive()
        data, self._buffer = self._buffer[:length], self._buffer[length:]
        return int(status_line.split()[1]), data

    def _receive(self) -> bytes:
        chunk = self._sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        return chunk


def _drive(job: dict[str, Any], barrier: Any, outcome: dict[str, Any]) -> None:
    case = job["case"]
    connection = _Connection(job["base"])
    latencies: list[float] = outcome["latencies"]
    player = _Player(job["match"], job["seed"]) if case in ("service", "append") else None
    if case == "service":
        from django.contrib.auth import get_user_model

        from tournaments.services import match_append_event

        people = {u.pk: u for u in get_user_model().objects.filter(pk__in=player.users)}
    elif case == "standings":
        path, token = f"/api/v1/stages/{job['stage']}/standings/", job["reader"]
    elif case == "state":
        path = f"/api/v1/matches/{job['match']}/state/"
        seat0 = _Player(job["match"]).users[0]
        token = job["tokens"][seat0]
    clock = time.perf_counter
    barrier.wait(timeout=60)
    own_cpu = time.process_time()
    outcome["start"] = start = clock()
    deadline = start + job["seconds"]
    while (began := clock()) < deadline:
        if player is not None:
            seat, body = player.next_move()
            user = player.users[seat]
            if case == "service":
                cpu = time.thread_time()
                result = match_append_event(
                    match=job["match"],
                    expected_seq=body["expected_seq"],
                    kind="move_played",
                    payload=body["payload"],
                    actor=people[user],
                    via="bench",
                )
                latencies.append(clock() - began)
                outcome["cpu"] += time.thread_time() - cpu
                player.follow(result.events, result.last_seq)
                continue
            status, data = connection.request(
                "POST",
                player.path,
                {"Authorization": f"Bearer {job['tokens'][user]}", "Content-Type": JSON},
                json.dumps(body).encode(),
            )
            latencies.append(clock() - began)
            if status != 201:
                raise RuntimeError(f"append: {status} {data[:300]!r}")
            answer = json.loads(data)
            player.follow(answer["events"], answer["last_seq"])
        else:
            status, data = connection.request("GET", path, {"Authorization": f"Bearer {token}"})
            latencies.append(clock() - began)
            if status != 200:
                outcome["errors"] += 1
                outcome["error"] = outcome["error"] or f"{status} {data[:300]!r}"
    outcome["end"] = clock()
    outcome["client_cpu"] = time.process_time() - own_cpu


if __name__ == "__main__":
    main()
