"""The append side by side: the project, the eventsourcing library's recorder, a bare INSERT.

Needs PostgreSQL, and the ``eventsourcing[postgres]`` package (in the dev extra, pinned in
constraints.txt; a benchmark's dependency, never the application's):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres python -m bench.versus \\
        [--rounds 8] [--appends 300] [--parallel-appends 100] [--writers 8]

It never touches the database DATABASE_URL names: it migrates a template database of its own
(``--database`` + ``_template``) once, and every measurement runs on a fresh copy of it
(``--database``), dropped after. Three systems, each appending one event at a time:

- ``project``: ``tournaments.services.match_append_event``, a seated player's ``move_played``
  with everything it does (the row lock, the idempotency key looked up, ``expected_seq``, the
  seat checked, the move validated by seep_core from the snapshot, the events hash-chained,
  the snapshot and the head rewritten), the moves chosen before the timing on a rehearsal
  match dealt the same cards (``project_appender``); the projection's send after the commit is
  stubbed, as in bench/store.py (what the send costs is ``celery_send``, measured apart when
  REDIS_URL names a broker).
- ``eventsourcing``: ``eventsourcing.postgres.PostgresApplicationRecorder.insert_events`` of
  one stored event (the move as its JSON state), what an eventsourcing application does to
  record an aggregate's new event: in one pipelined transaction it takes the table lock (so
  notification ids commit in order), notifies listeners and inserts; the version's primary
  key refuses a concurrent writer. It validates nothing and keeps no snapshot or chain.
- ``bare_insert``: one ``INSERT`` of (stream, seq, kind, payload) in autocommit into a table
  whose primary key is (stream, seq): the floor, what PostgreSQL itself costs.
- ``project_before`` (with ``--before DIR``): the project's writer as another checkout has
  it (its own ``project_appender``, code and migrations: a template database of its own), so
  that a change is measured before and after in the same rounds as the recorder.

Each round measures every system with 1 writer and with ``--writers`` writers (a process
each, its own connection, its own match or stream), on a fresh database, the order of the
systems rotating from round to round so that a busy, shared machine weighs on all alike.
After ``--warmup`` unmeasured appends, a barrier starts the writers together. Appends per
second: a measurement's appends over its wall time (first writer's start to last writer's
end), summed over the rounds; p50/p99 over every timed append; the WAL written per append
(the server's WAL position from the first writer's start to the last one's end, over the
appends: the median of the rounds, as the server is shared) and, where the server has
``pg_walinspect``, the WAL of the measured database's own transactions alone (the records of
the transactions that wrote its relations, their commits included: other databases' writes
left out). Figures go to bench/results/versus.json and are printed.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bench.processes import spawn_all
from bench.scratch import bench_environment, drop_database, is_postgres, recreate_database

RESULTS = Path(__file__).resolve().parent / "results"
REPO = Path(__file__).resolve().parent.parent
SYSTEMS = ("project", "eventsourcing", "bare_insert")
FORMAT = {"bazzis": 99, "first_to": True}  # a match that does not end during the benchmark
#: what the other systems store per append: a move as the project's payload holds one
MOVE = {"move": {"seat": 1, "action": "throw", "card": "10D"}}
BARE_TABLE = """
    CREATE TABLE bare_events (
        stream bigint NOT NULL,
        seq integer NOT NULL,
        kind text NOT NULL,
        payload jsonb NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (stream, seq)
    )
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", default="seep_bench_versus", help="scratch database")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--appends", type=int, default=300, help="timed appends, one writer")
    parser.add_argument(
        "--parallel-appends", type=int, default=100, help="timed appends per writer, in parallel"
    )
    parser.add_argument("--writers", type=int, default=8, help="writers at once, in parallel")
    parser.add_argument("--warmup", type=int, default=30, help="unmeasured appends per writer")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--before", type=Path, help="another checkout, measured too as project_before"
    )
    args = parser.parse_args()

    database_url = os.environ.get("DATABASE_URL", "")
    if not is_postgres(database_url):
        sys.exit("bench.versus measures PostgreSQL: set DATABASE_URL=postgres://user@host/name")
    template = f"{args.database}_template"
    templates = {system: template for system in SYSTEMS}
    systems = SYSTEMS
    if args.before is not None:
        args.before = args.before.resolve()
        systems += ("project_before",)
        templates["project_before"] = f"{args.database}_before_template"
    load_before = os.getloadavg()
    template_url = recreate_database(database_url, template)
    measured: dict[tuple[str, int], list[dict[str, Any]]] = {}
    try:
        _prepare_template(template_url)
        if args.before is not None:
            before_url = recreate_database(database_url, templates["project_before"])
            _migrate(before_url, args.before)
        for number in range(args.rounds):
            turn = number % len(systems)
            order = systems[turn:] + systems[:turn]
            for writers in (1, args.writers):
                for system in order:
                    url = recreate_database(database_url, args.database, template=templates[system])
                    try:
                        job = {
                            "appends": args.appends if writers == 1 else args.parallel_appends,
                            "warmup": args.warmup,
                            "seed": args.seed + number,
                            "tree": str(args.before) if system == "project_before" else "",
                        }
                        outcome = _measure(system, url, writers, job)
                    finally:
                        drop_database(database_url, args.database)
                    measured.setdefault((system, writers), []).append(outcome)
                    print(
                        f"round {number + 1}/{args.rounds} {system:13} {writers} writer(s): "
                        f"{outcome['appends'] / outcome['wall']:8.1f} appends/s",
                        flush=True,
                    )
        send = _celery_send(os.environ.get("REDIS_URL"), template_url)
    finally:
        drop_database(database_url, args.database)
        drop_database(database_url, template)
        if args.before is not None:
            drop_database(database_url, templates["project_before"])
    result = _report(args, measured, send, load_before)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "versus.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


def _prepare_template(url: str) -> None:
    """Migrate the project's schema, and create the other two systems' tables, in ``url``."""
    import psycopg
    from eventsourcing.postgres import PostgresApplicationRecorder

    bench_environment(url)
    _migrate(url, REPO)
    datastore = _datastore(url)
    try:
        PostgresApplicationRecorder(datastore).create_table()
    finally:
        datastore.close()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(BARE_TABLE)


def _migrate(url: str, tree: Path) -> None:
    """Migrate the database ``url`` with the checkout ``tree``'s migrations, and give it
    pg_walinspect where the server has it (the WAL of its own transactions: ``_own_wal``)."""
    import psycopg

    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "--verbosity", "0"],
        cwd=tree,
        env={
            **os.environ,
            "DATABASE_URL": url,
            "PYTHONPATH": str(tree),
            "DJANGO_SETTINGS_MODULE": "deploy.settings",
        },
        check=True,
    )
    # not on every server, or not ours to create: then the server's WAL alone is reported
    with psycopg.connect(url, autocommit=True) as conn, contextlib.suppress(psycopg.Error):
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_walinspect")


def _datastore(url: str) -> Any:
    from eventsourcing.postgres import PostgresDatastore

    parts = urlsplit(url)
    return PostgresDatastore(
        dbname=parts.path.lstrip("/"),
        host=parts.hostname or "127.0.0.1",
        port=parts.port or 5432,
        user=parts.username or "",
        password=parts.password or "",
    )


def _measure(system: str, url: str, writers: int, job: dict[str, Any]) -> dict[str, Any]:
    """Run ``writers`` processes appending with ``system``; return their pooled figures."""
    arguments = [(system, url, index, job) for index in range(writers)]
    outcomes = spawn_all(_writer, arguments, 1800, f"{system} writer(s)")
    latencies = [x for o in outcomes for x in o["latencies"]]
    wall = max(o["end"] for o in outcomes) - min(o["start"] for o in outcomes)
    # the cluster's WAL from the first writer's start to the last one's end (the setup and the
    # warm-up are outside it; another database's writes on the same server are not)
    wal = max(o["wal_end"] for o in outcomes) - min(o["wal_start"] for o in outcomes)
    first = min(outcomes, key=lambda o: o["wal_start"])["wal_start_lsn"]
    last = max(outcomes, key=lambda o: o["wal_end"])["wal_end_lsn"]
    return {
        "appends": len(latencies),
        "wall": wall,
        "latencies": latencies,
        "wal": wal,
        "own_wal": _own_wal(url, first, last),
    }


def _wal_lsn(conn: Any) -> tuple[int, str]:
    """Return the server's current WAL position, in bytes and as its text."""
    text = conn.execute("SELECT pg_current_wal_lsn()::text").fetchone()[0]
    high, low = text.split("/")
    return (int(high, 16) << 32) + int(low, 16), text


#: the WAL records of the transactions that wrote a relation of one database (by its oid),
#: their commit records included; what another database on the server wrote is left out
OWN_WAL = """
    WITH records AS (
        SELECT xid, record_length, block_ref FROM pg_get_wal_records_info(%s::pg_lsn, %s::pg_lsn)
    ), own AS (
        SELECT DISTINCT xid FROM records
        WHERE xid <> '0' AND block_ref LIKE '%%/' || %s || '/%%'
    )
    SELECT coalesce(sum(record_length), 0) FROM records WHERE xid IN (SELECT xid FROM own)
"""


def _own_wal(url: str, start: str, end: str) -> int | None:
    """Return the bytes of WAL the database ``url``'s own transactions wrote from ``start`` to
    ``end`` (pg_walinspect), or None where the server cannot say."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        try:
            oid = conn.execute(
                "SELECT oid FROM pg_database WHERE datname = current_database()"
            ).fetchone()[0]
            return int(conn.execute(OWN_WAL, (start, end, str(oid))).fetchone()[0])
        except psycopg.Error:
            return None


def _writer(
    system: str, url: str, index: int, job: dict[str, Any], barrier: Any, answers: Any
) -> None:
    """One writer: set up its system, warm up, wait for the others, append, report."""
    import psycopg

    try:
        wal = psycopg.connect(url, autocommit=True)
        appender = (
            _tree_appender(job["tree"])
            if system == "project_before"
            else {
                "project": project_appender,
                "eventsourcing": _eventsourcing,
                "bare_insert": _bare,
            }[system]
        )
        append = appender(url, index, job["seed"], job["warmup"] + job["appends"])
        for _ in range(job["warmup"]):
            append()
        barrier.wait()
        wal_start, wal_start_lsn = _wal_lsn(wal)
        start = time.monotonic()
        latencies = [append() for _ in range(job["appends"])]
        end = time.monotonic()
        wal_end, wal_end_lsn = _wal_lsn(wal)
        answers.put(
            {
                "latencies": latencies,
                "start": start,
                "end": end,
                "wal_start": wal_start,
                "wal_end": wal_end,
                "wal_start_lsn": wal_start_lsn,
                "wal_end_lsn": wal_end_lsn,
            }
        )
    except Exception as exc:  # reported by the parent, which stops the benchmark
        barrier.abort()
        answers.put({"error": f"{type(exc).__name__}: {exc}"})


def _tree_appender(tree: str) -> Any:
    """Return the ``project_appender`` of the checkout ``tree``, imported from it: this
    spawned writer has loaded nothing of the project yet but the bench modules, which are
    dropped and imported again from there. It works in that checkout too: Celery's app puts
    the working directory first on the import path."""
    import importlib

    for name in [n for n in sys.modules if n == "bench" or n.startswith("bench.")]:
        del sys.modules[name]
    os.chdir(tree)
    sys.path.insert(0, tree)
    return importlib.import_module("bench.versus").project_appender


def project_appender(url: str, index: int, seed: int, count: int) -> Any:
    """Return a function that sends one seated player's move through the append service.

    The ``count`` moves are chosen before the timing starts, on a rehearsal match of the
    writer's own dealt the same decks (``repeatable_decks`` of one seed): the timed match
    is then sent those moves, so that the timed loop, like the other systems', only sends
    what it appends and does no work of its own between appends (choosing a move is the
    engine's work a player's app does, not the store's). Each append is validated by the
    engine as ever: a move that were not legal in the timed match would fail the benchmark.
    """
    import random
    from unittest import mock

    bench_environment(url)
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from bench.store import SeatedPlayers
    from tournaments import matchlog
    from tournaments.access import SYSTEM
    from tournaments.models import Player, Team, Tournament
    from tournaments.services import match_append_event, match_create

    mock.patch("tournaments.services._schedule_projection").start()  # see the module's doc
    users = get_user_model().objects
    rng = random.Random(seed * 100 + index)
    first_dealer, deck_seed = rng.randrange(4), rng.randrange(2**32)

    def started(tag: str) -> SeatedPlayers:
        """A player of a started match of new teams, dealt the decks of ``deck_seed``."""
        tournament = Tournament.objects.create(
            name=tag, slug=tag, organizer=users.create_user(f"{tag}-organizer")
        )
        players = [
            Player.objects.create(name=f"{tag}-{n}", user=users.create_user(f"{tag}-{n}"))
            for n in range(4)
        ]
        team0, team1 = (
            Team.objects.create(
                tournament=tournament,
                name=f"{tag}-{i}",
                first_player=players[i],
                second_player=players[i + 2],
            )
            for i in range(2)
        )
        match = match_create(
            tournament=tournament, team0=team0, team1=team1, mode="digital", match_format=FORMAT
        )
        shuffle = matchlog.repeatable_decks(deck_seed)
        match_append_event(
            match=match, expected_seq=0, kind=matchlog.MATCH_STARTED,
            payload={"first_dealer": first_dealer}, actor=SYSTEM, shuffle=shuffle,
        )  # fmt: skip
        return SeatedPlayers(match.pk, rng, shuffle)

    tag = f"w{index}-{uuid.uuid4().hex[:6]}"
    rehearsal = started(f"{tag}-r")
    for _ in range(count):
        rehearsal.append()
    timed, to_send = started(f"{tag}-t"), iter(rehearsal.moves)
    return lambda: timed.send(next(to_send))[1]


def _eventsourcing(url: str, index: int, seed: int, count: int) -> Any:
    """Return a function that records one event of a stream of its own with the recorder."""
    from eventsourcing.persistence import StoredEvent
    from eventsourcing.postgres import PostgresApplicationRecorder

    recorder = PostgresApplicationRecorder(_datastore(url))
    stream, state, version = uuid.uuid4(), json.dumps(MOVE).encode(), [0]

    def append() -> float:
        version[0] += 1
        event = StoredEvent(
            originator_id=stream,
            originator_version=version[0],
            topic="seep:MovePlayed",
            state=state,
        )
        begun = time.perf_counter()
        recorder.insert_events([event])
        return time.perf_counter() - begun

    return append


def _bare(url: str, index: int, seed: int, count: int) -> Any:
    """Return a function that INSERTs one event of a stream of its own, in autocommit."""
    import psycopg

    conn = psycopg.connect(url, autocommit=True)
    payload, seq = json.dumps(MOVE), [0]
    insert = "INSERT INTO bare_events (stream, seq, kind, payload) VALUES (%s, %s, %s, %s::jsonb)"

    def append() -> float:
        seq[0] += 1
        begun = time.perf_counter()
        conn.execute(insert, (index, seq[0], "move_played", payload))
        return time.perf_counter() - begun

    return append


def _celery_send(redis_url: str | None, template_url: str) -> dict[str, Any] | None:
    """Return what one projection message costs to send (None without a broker)."""
    if not redis_url:
        return None
    queue = f"seep-bench-versus-{uuid.uuid4().hex[:8]}"
    code = """
import statistics, time
import django
django.setup()
from scoring.tasks import project_match, schedule_projection

def timed(*sends):
    # each send's p50 and p99 over 500 calls, the sends taking turns call by call
    times = [[] for _ in sends]
    for n in range(500):
        for send, spent in zip(sends, times):
            begun = time.perf_counter()
            send(n)
            spent.append(time.perf_counter() - begun)
    out = []
    for spent in times:
        q = statistics.quantiles(spent, n=100)
        out += [q[49] * 1000, q[98] * 1000]
    return out

for _ in range(50):
    project_match.delay(1)
schedule_projection(2)  # the flag for match 2 stands from here: no call for it sends
print(*timed(
    lambda n: project_match.delay(2),  # Celery's own send
    lambda n: schedule_projection(10_000 + n),  # a match without a flag: the flag and a send
    lambda n: schedule_projection(2),
))
"""
    env = {
        **os.environ,
        "DATABASE_URL": template_url,
        "REDIS_URL": redis_url,
        "CELERY_QUEUE": queue,
    }
    try:
        out = subprocess.run(
            [sys.executable, "-c", code],
            cwd=REPO,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()
    finally:
        from bench.processes import forget_queue

        forget_queue(redis_url, queue)
    figures = [round(float(x), 3) for x in out]
    return {
        "what": "project_match.delay to Redis (Celery's send), 500 sends",
        "p50_ms": figures[0],
        "p99_ms": figures[1],
        "scheduled": {
            "what": "schedule_projection of a match without a flag: SET NX, then the message "
            "pushed without Celery's send (scoring.broker), 500 calls, taking turns with the "
            "above",
            "p50_ms": figures[2],
            "p99_ms": figures[3],
        },
        "coalesced": {
            "what": "schedule_projection while the match's message waits (no send), 500 calls",
            "p50_ms": figures[4],
            "p99_ms": figures[5],
        },
    }


def _report(
    args: argparse.Namespace,
    measured: dict[tuple[str, int], list[dict[str, Any]]],
    send: dict[str, Any] | None,
    load_before: tuple[float, float, float],
) -> dict[str, Any]:
    figures: dict[str, dict[str, Any]] = {}
    for (system, writers), rounds in measured.items():
        latencies = [x for r in rounds for x in r["latencies"]]
        quantiles = statistics.quantiles(latencies, n=100, method="inclusive")
        per_round = [r["appends"] / r["wall"] for r in rounds]
        figures.setdefault(f"{writers} writer{'s' if writers > 1 else ''}", {})[system] = {
            "appends_per_s": round(
                sum(r["appends"] for r in rounds) / sum(r["wall"] for r in rounds), 1
            ),
            "appends_per_s_by_round": [round(x, 1) for x in per_round],
            # the tail of each round apart: whether the pooled p99 is one slow spell's
            "p99_ms_by_round": [_p99_ms(r["latencies"]) for r in rounds],
            "latency_ms": {
                "p50": round(quantiles[49] * 1000, 2),
                "p99": round(quantiles[98] * 1000, 2),
                "max": round(max(latencies) * 1000, 2),
            },
            "appends": len(latencies),
            # the median over rounds: the WAL is the whole server's, shared with others
            "wal_bytes_per_append": round(
                statistics.median(r["wal"] / r["appends"] for r in rounds)
            ),
            # the database's own transactions alone (pg_walinspect), the median over rounds
            "own_wal_bytes_per_append": _median_own_wal(rounds),
        }
    ratios = {scenario: _ratios(by) for scenario, by in figures.items()}
    one = figures["1 writer"]
    goals = {  # the store's: the recorder's throughput with 1 and N writers, p99 under 5 ms
        "1_writer_at_least_the_recorders": ratios["1 writer"]["project_over_eventsourcing"] >= 1,
        f"{args.writers}_writers_at_least_the_recorders": ratios[f"{args.writers} writers"][
            "project_over_eventsourcing"
        ]
        >= 1,
        "1_writer_p99_under_5_ms": one["project"]["latency_ms"]["p99"] < 5.0,
        # the store's own WAL where the server can tell it apart from other databases'
        "wal_under_1_kb_per_append": (
            one["project"]["own_wal_bytes_per_append"] or one["project"]["wal_bytes_per_append"]
        )
        < 1024,
    }
    from importlib.metadata import version

    return {
        "benchmark": "versus",
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "environment": {
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
            "eventsourcing": version("eventsourcing"),
            "load_average_before_after": [round(load_before[0], 2), round(os.getloadavg()[0], 2)],
        },
        "method": {
            "rounds": args.rounds,
            "timed_appends_per_writer": {
                "1 writer": args.appends,
                f"{args.writers} writers": args.parallel_appends,
            },
            "warmup_appends_per_writer": args.warmup,
            "order": "systems rotate from round to round; a fresh database for each measurement",
            "before": None if args.before is None else str(args.before),
        },
        "ratios": ratios,
        "goals": goals,
        "results": figures,
        "celery_send": send,
    }


def _ratios(by: dict[str, dict[str, Any]]) -> dict[str, float]:
    """Return a scenario's ratios of appends a second (the project's before too, if run)."""

    def over(a: str, b: str) -> float:
        return round(by[a]["appends_per_s"] / by[b]["appends_per_s"], 2)

    ratios = {
        "project_over_eventsourcing": over("project", "eventsourcing"),
        "bare_insert_over_project": over("bare_insert", "project"),
    }
    if "project_before" in by:
        ratios["project_before_over_eventsourcing"] = over("project_before", "eventsourcing")
        ratios["project_over_project_before"] = over("project", "project_before")
    return ratios


def _median_own_wal(rounds: list[dict[str, Any]]) -> int | None:
    own = [r["own_wal"] / r["appends"] for r in rounds if r.get("own_wal") is not None]
    return round(statistics.median(own)) if own else None


def _p99_ms(latencies: list[float]) -> float:
    return round(statistics.quantiles(latencies, n=100, method="inclusive")[98] * 1000, 2)


if __name__ == "__main__":
    main()
