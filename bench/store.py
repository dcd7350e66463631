"""Event store benchmark: appends per second and p50/p99 latency of ``match_append_event``.

Needs PostgreSQL, named as the application names it (SQLite is refused: the figures that
matter are the production database's):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/seep python -m bench.store \\
        [--appends 400] [--single-appends 2000] [--parallel 16] [--long 10000] [--keep]

(``make bench-store`` runs it with the environment it is given). It never touches the database
DATABASE_URL names: it creates its own, ``--database`` (default ``seep_bench``; bench/scoring.py
uses another, so neither run drops the other's) on the same server, dropping it first and
again at the end (unless ``--keep``), and migrates it.

Every measured append is a real ``move_played`` through the append service, as a player sends
it: the seat's player as actor, the match row locked, ``expected_seq`` checked, the move
validated by seep_core from the snapshot, the events hash-chained, the snapshot rewritten, the
projection scheduled on commit (the scheduling itself is stubbed: this measures the store, not
the scoring worker, which bench/scoring.py measures). Moves are random legal moves; a move that
ends a deal also writes its derived events (deal_ended, deal_started) in the same append. The
match format (first to 99 bazzis) does not end within the benchmark (the prefill checks).

Scenarios: one match at a time (in this process, ``--single-appends`` timed appends per
length), and ``--parallel`` matches at once (one process each, each with its own connection,
``--appends`` timed appends each per length), each at two log lengths, ``--short`` (10) and
``--long`` (10,000). After ``--warmup`` unmeasured appends on a match of its own, every worker
runs phases of ``--block`` appends that alternate short, long, short, long… (so that a busy,
shared machine weighs on both lengths alike); in parallel, a barrier starts every phase in
all workers at once:

- a short phase appends to a fresh match prefilled to 10 events, so every append finds a log
  of 10 to ~10 + block events; a block of 50 plays about one whole deal, so both lengths see
  the same mix of moves (bids, openings, plays on a crowded floor, and the deal ends that
  write three events);
- a long phase appends to the worker's match prefilled to 10,000 events, which grows by
  every long phase.

Appends per second is a length's appends over the sum of its phases' wall times (from the
first worker's start to the last worker's end); p50/p99 are over every timed append.

Logs are prefilled honestly but quickly: the pure planner (``tournaments.matchlog.plan``, the
code the service validates with) plays random legal moves from seeded shuffles, and the
events are bulk-inserted with their hash chain and snapshot, as the service writes them;
``verify_match`` must pass on every prefilled match before anything is measured (the database
is then vacuumed, analyzed and checkpointed), and again on every match afterwards. Figures go
to bench/results/store.json and are printed.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import platform
import random
import statistics
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

from bench.processes import spawn_all
from bench.scratch import bench_environment, drop_database, is_postgres, recreate_database

RESULTS = Path(__file__).resolve().parent / "results"
FORMAT = {"bazzis": 99, "first_to": True}  # a match that does not end during the benchmark


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", default="seep_bench", help="scratch database to create")
    parser.add_argument("--appends", type=int, default=400, help="timed appends per worker, length")
    parser.add_argument("--single-appends", type=int, default=2000, help="the same, one match")
    parser.add_argument("--warmup", type=int, default=50, help="unmeasured appends per worker")
    parser.add_argument("--parallel", type=int, default=16, help="matches appended to at once")
    parser.add_argument("--short", type=int, default=10, help="the short log length")
    parser.add_argument("--long", type=int, default=10_000, help="the long log length")
    parser.add_argument("--block", type=int, default=50, help="appends per short match")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    args = parser.parse_args()

    database_url = os.environ.get("DATABASE_URL", "")
    if not is_postgres(database_url):
        sys.exit(
            "bench.store measures PostgreSQL and refuses SQLite: set "
            "DATABASE_URL=postgres://user@host:port/name (it creates and uses its own database, "
            f"{args.database}, on that server)"
        )
    bench_url = recreate_database(database_url, args.database)
    try:
        _setup_django(bench_url)
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        result = run(args, bench_url)
    finally:
        _close_connections()
        if not args.keep:
            drop_database(database_url, args.database)
    result["database"] = f"{args.database} (dropped)" if not args.keep else args.database
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "store.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


def run(args: argparse.Namespace, bench_url: str) -> dict[str, Any]:
    """Prefill, measure both scenarios at both lengths, verify, and return the figures."""
    import django

    rng = random.Random(args.seed)
    appends = {"single": args.single_appends, "parallel": args.appends}
    workers: dict[str, list[dict[str, Any]]] = {"single": [], "parallel": []}
    load_before = os.getloadavg()
    started = time.monotonic()
    for name, count in (("single", 1), ("parallel", args.parallel)):
        phases = math.ceil(appends[name] / args.block)
        for _ in range(count):
            teams = _teams()
            workers[name].append(
                {
                    "warmup": _prefilled(teams, args.short, rng.randrange(2**32)),
                    "short": [
                        _prefilled(teams, args.short, rng.randrange(2**32)) for _ in range(phases)
                    ],
                    "long": _prefilled(teams, args.long, rng.randrange(2**32)),
                    "seed": rng.randrange(2**32),
                    "block": args.block,
                    "warmups": args.warmup,
                }
            )
    every_match = [
        m
        for w in workers["single"] + workers["parallel"]
        for m in (w["warmup"], *w["short"], w["long"])
    ]
    _verify(every_match)
    _settle()
    prefill_seconds = time.monotonic() - started
    queries = _queries_per_append(workers["single"][0]["warmup"], rng)
    lengths = _lengths(every_match)

    results = []
    for kind, team in (("1 match", "single"), (f"{args.parallel} matches in parallel", "parallel")):
        outcomes = _measure(workers[team], bench_url if team == "parallel" else None)
        _close_connections()
        for length in ("short", "long"):
            name = f"{kind}, log length {args.short if length == 'short' else args.long:,}"
            ids = [
                m for w in workers[team] for m in (w["short"] if length == "short" else [w["long"]])
            ]
            before = sorted({lengths[m] for m in ids})
            results.append(_figures(name, length, outcomes, before))
    _verify(every_match)

    def ratio(kind: str, metric: str) -> float:
        by_name = {r["scenario"]: r for r in results}
        short = by_name[f"{kind}, log length {args.short:,}"]["latency_ms"][metric]
        long = by_name[f"{kind}, log length {args.long:,}"]["latency_ms"][metric]
        return round(long / short, 2)

    return {
        "benchmark": "store",
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "environment": {
            **_environment(),
            "load_average_before_after": [round(load_before[0], 2), round(os.getloadavg()[0], 2)],
        },
        "method": {
            "append": "move_played through tournaments.services.match_append_event "
            "(row lock, expected_seq, the seat's player as actor, seep_core validation from "
            "the snapshot, hash chain, snapshot write; projection scheduling stubbed)",
            "timed_appends_per_length": {
                "1 match": len(workers["single"][0]["short"]) * args.block,
                f"each of {args.parallel} matches": len(workers["parallel"][0]["short"])
                * args.block,
            },
            "warmup_appends_per_worker": args.warmup,
            "phases": f"phases of {args.block} appends alternating short, long, short, ...; "
            "in parallel, all workers start each phase together",
            "short_log": f"a fresh match prefilled to {args.short} events for each short phase",
            "long_log": f"one match per worker prefilled to {args.long:,} events, appended to in "
            "every long phase",
            "appends_per_s": "a length's appends over the sum of its phases' wall times "
            "(first start to last end across workers)",
            "prefill": "tournaments.matchlog.plan with random legal moves, bulk-inserted with "
            "the hash chain and snapshot; verify_match passed on every match before and after",
            "prefill_seconds": round(prefill_seconds, 1),
            "queries_per_append": queries,
            "match_format": FORMAT,
            "seed": args.seed,
        },
        "results": results,
        "long_over_short": {
            "1 match": {"p50": ratio("1 match", "p50"), "p99": ratio("1 match", "p99")},
            f"{args.parallel} matches": {
                "p50": ratio(f"{args.parallel} matches in parallel", "p50"),
                "p99": ratio(f"{args.parallel} matches in parallel", "p99"),
            },
        },
        "django": django.get_version(),
    }


def _measure(jobs: list[dict[str, Any]], bench_url: str | None) -> list[dict[str, Any]]:
    """Run the phases: in this process (bench_url None) or in one process per job."""
    if bench_url is None:
        return [_append_in_phases(job, None) for job in jobs]
    return spawn_all(_worker, [(bench_url, job) for job in jobs], 3600, "worker(s)")


def _figures(
    name: str, length: str, outcomes: list[dict[str, Any]], before: list[int]
) -> dict[str, Any]:
    """Return one scenario's figures from every worker's phases of that length."""
    phases = [[p for p in o["phases"] if p["length"] == length] for o in outcomes]
    latencies = [x for worker in phases for p in worker for x in p["latencies"]]
    walls = [  # phase n: from the first worker's start to the last worker's end
        max(w[n]["end"] for w in phases) - min(w[n]["start"] for w in phases)
        for n in range(len(phases[0]))
    ]
    quantiles = statistics.quantiles(latencies, n=100, method="inclusive")
    return {
        "scenario": name,
        "workers": len(outcomes),
        "appends": len(latencies),
        "events_written": sum(p["events"] for worker in phases for p in worker),
        "log_length": {
            "before": before,
            "after_max": max(p["longest"] for worker in phases for p in worker),
        },
        "appends_per_s": round(len(latencies) / sum(walls), 1),
        "latency_ms": {
            "p50": round(quantiles[49] * 1000, 2),
            "p99": round(quantiles[98] * 1000, 2),
            "mean": round(statistics.fmean(latencies) * 1000, 2),
            "max": round(max(latencies) * 1000, 2),
        },
    }


def _worker(bench_url: str, job: dict[str, Any], barrier: Any, answers: Any) -> None:
    """A process of its own: set up Django (its own connection) and append in phases."""
    _setup_django(bench_url)
    try:
        answers.put(_append_in_phases(job, barrier))
    except Exception as exc:  # reported by the parent, which stops the benchmark
        barrier.abort()
        answers.put({"error": f"{type(exc).__name__}: {exc}"})
    finally:
        _close_connections()


def _append_in_phases(job: dict[str, Any], barrier: Any) -> dict[str, Any]:
    """Append random legal moves: ``warmups`` unmeasured, then alternating timed phases."""
    from unittest import mock

    rng = random.Random(job["seed"])
    phases = []
    with mock.patch("tournaments.services._schedule_projection"):
        warmup = SeatedPlayers(job["warmup"], rng)
        for _ in range(job["warmups"]):
            warmup.append()
        long = SeatedPlayers(job["long"], rng)
        for short_match in job["short"]:
            for length, player in (("short", SeatedPlayers(short_match, rng)), ("long", long)):
                if barrier is not None:
                    barrier.wait()
                latencies, events = [], 0
                start = time.monotonic()
                for _ in range(job["block"]):
                    written, seconds = player.append()
                    events += written
                    latencies.append(seconds)
                end = time.monotonic()
                phases.append(
                    {"length": length, "start": start, "end": end, "latencies": latencies,
                     "events": events, "longest": player.last_seq}
                )  # fmt: skip
    return {"phases": phases}


class SeatedPlayers:
    """Sends a match's moves as its seated players would, following the log it is answered.

    ``shuffle``: the decks of the deals to come (``repeatable_decks``), else the service's.
    ``moves``: every move sent, in order.
    """

    def __init__(self, match_id: int, rng: random.Random, shuffle: Any = None) -> None:
        from tournaments.models import Match
        from tournaments.selectors import match_state

        match = Match.objects.select_related(
            "team0__first_player__user", "team0__second_player__user",
            "team1__first_player__user", "team1__second_player__user",
        ).get(pk=match_id)  # fmt: skip
        self.match_id, self.rng, self.last_seq = match_id, rng, match.last_seq
        self.users = [player.user for player in match.seat_players()]
        self.state = match_state(match_id)
        self.shuffle = {} if shuffle is None else {"shuffle": shuffle}
        self.moves: list[dict[str, Any]] = []

    def append(self) -> tuple[int, float]:
        """Send one legal move through the service; return the events it wrote and its time."""
        import seep_core as sc
        from tournaments import matchlog
        from tournaments.selectors import match_state

        assert self.state.deal is not None
        result, seconds = self.send(self.rng.choice(sc.legal_moves(self.state.deal)))
        # Outside the timing: the caller's work. A player is not shown the next deal's deck,
        # so after a deal ends the benchmark reads the state the way a director would.
        if any("hidden" in event for event in result.events):
            self.state = match_state(self.match_id)
        else:
            for event in result.events:
                self.state = matchlog.apply_event(self.state, event["kind"], event["payload"])
        return len(result.events), seconds

    def send(self, move: dict[str, Any]) -> tuple[Any, float]:
        """Send ``move`` as the player at its seat, at the head; return the answer and its time
        (the state is not followed: ``append`` does that)."""
        from tournaments.services import match_append_event

        begun = time.perf_counter()
        result = match_append_event(
            match=self.match_id, expected_seq=self.last_seq, kind="move_played",
            payload={"move": move}, actor=self.users[move["seat"]], **self.shuffle,
        )  # fmt: skip
        seconds = time.perf_counter() - begun
        self.last_seq = result.last_seq
        self.moves.append(move)
        return result, seconds


# --- prefilling ------------------------------------------------------------------------------


def _teams() -> tuple[Any, Any]:
    """Return two teams of a benchmark tournament, each of two players with accounts."""
    from django.contrib.auth import get_user_model

    from tournaments.models import Player, Team, Tournament

    users = get_user_model().objects
    tournament = Tournament.objects.filter(slug="bench").first()
    if tournament is None:
        organizer = users.create_user("bench-organizer")
        tournament = Tournament.objects.create(name="Bench", slug="bench", organizer=organizer)
    tag = uuid.uuid4().hex[:8]
    players = [
        Player.objects.create(name=f"{tag}-{n}", user=users.create_user(f"{tag}-{n}"))
        for n in range(4)
    ]
    team0, team1 = (
        Team.objects.create(
            tournament=tournament, name=f"{tag}-{i}",
            first_player=players[i], second_player=players[i + 2],
        )
        for i in range(2)
    )  # fmt: skip
    return team0, team1


def _prefilled(teams: tuple[Any, Any], length: int, seed: int) -> int:
    """Create a digital match whose log holds ``length`` events (as near as a command allows)."""
    from django.db import transaction
    from django.utils import timezone

    import seep_core as sc
    from tournaments import matchlog
    from tournaments.access import seat_lineup
    from tournaments.chain import GENESIS, event_hash
    from tournaments.models import Match, MatchEvent
    from tournaments.snapshots import save_snapshot

    team0, team1 = teams
    match = Match.objects.create(
        tournament=team0.tournament, team0=team0, team1=team1, mode=Match.Mode.DIGITAL,
        rules=team0.tournament.rules, match_format=FORMAT, first_dealer=0,
    )  # fmt: skip
    rng = random.Random(seed)
    shuffle = matchlog.repeatable_decks(rng)
    players, users = seat_lineup(match)  # fixed when the match starts, as the service does
    setup = matchlog.MatchSetup(
        match.mode, match.rules, match.match_format, 0, tuple(players), tuple(users)
    )
    planned, state = matchlog.plan(
        matchlog.MatchState(match.mode), setup, "match_started", {}, shuffle=shuffle
    )
    commands = [planned]
    count = len(planned)
    while count < length:
        assert state.deal is not None and state.status == matchlog.IN_PROGRESS
        moves = sc.legal_moves(state.deal)
        if length - count <= 3:  # near the end: prefer a move that does not overshoot
            fitting = [m for m in moves if _events_of(state.deal, m) <= length - count]
            moves = fitting or moves
        planned, state = matchlog.plan(
            state, setup, "move_played", {"move": rng.choice(moves)}, shuffle=shuffle
        )
        commands.append(planned)
        count += len(planned)
    if state.status != matchlog.IN_PROGRESS:
        raise RuntimeError(f"the prefilled match ended ({FORMAT} was meant never to end)")

    now, previous, seq, rows = timezone.now(), GENESIS, 0, []
    for number, events in enumerate(commands):
        cause = seq + 1
        for offset, (kind, payload) in enumerate(events):
            seq += 1
            recorded_at = now + timedelta(microseconds=number)
            caused_by = None if offset == 0 else cause
            previous = event_hash(
                previous, seq=seq, kind=kind, payload=payload, actor=None,
                recorded_at=recorded_at, idempotency_key=None, caused_by=caused_by,
            )  # fmt: skip
            rows.append(
                MatchEvent(
                    match=match, seq=seq, kind=kind, payload=payload, actor=None,
                    recorded_at=recorded_at, idempotency_key=None, request_digest="",
                    caused_by=caused_by, hash=previous,
                )
            )  # fmt: skip
    with transaction.atomic():
        MatchEvent.objects.bulk_create(rows, batch_size=2000)
        Match.objects.filter(pk=match.pk).update(
            last_seq=seq, last_hash=previous, status=state.status
        )
        save_snapshot(match.pk, seq, previous, state)  # with its proof, as the service writes it
    return int(match.pk)


def _events_of(deal: Any, move: dict[str, Any]) -> int:
    """Return how many events a move writes: 1, 2 after a redeal, 3 after the last card."""
    import seep_core as sc

    phase = sc.apply(deal, move).phase
    return {"redealt": 2, "over": 3}.get(phase, 1)


def _lengths(match_ids: list[int]) -> dict[int, int]:
    from tournaments.models import Match

    return dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "last_seq"))


def _queries_per_append(match_id: int, rng: random.Random) -> list[str]:
    """Return the SQL statements one append sends (what its latency is made of)."""
    from unittest import mock

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with mock.patch("tournaments.services._schedule_projection"):
        player = SeatedPlayers(match_id, rng)
        with CaptureQueriesContext(connection) as captured:
            player.append()
    return [" ".join(q["sql"].split())[:60] for q in captured.captured_queries]


def _settle() -> None:
    """Vacuum, analyze and checkpoint after the bulk inserts, so no scenario pays for them."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
        with contextlib.suppress(Exception):  # CHECKPOINT needs a privileged role
            cursor.execute("CHECKPOINT")


def _verify(match_ids: list[int]) -> None:
    """Stop the benchmark unless every match's log verifies (chain, replay, snapshot)."""
    from tournaments.models import Match
    from tournaments.verify import verify_match

    for match in Match.objects.filter(pk__in=match_ids):
        problems = verify_match(match)
        if problems:
            raise RuntimeError(f"match {match.pk} does not verify: {problems[:3]}")


# --- environment and the scratch database ----------------------------------------------------


def _setup_django(bench_url: str) -> None:
    bench_environment(bench_url)
    import django

    django.setup()


def _close_connections() -> None:
    with contextlib.suppress(Exception):
        from django.db import connections

        connections.close_all()


def _environment() -> dict[str, Any]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        version = cursor.fetchone()[0]
        settings = {}
        for name in ("shared_buffers", "synchronous_commit", "fsync", "max_connections"):
            cursor.execute(f"SHOW {name}")
            settings[name] = cursor.fetchone()[0]
    return {
        "postgresql": version,
        "postgresql_settings": settings,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "platform": platform.platform(),
    }


if __name__ == "__main__":
    main()
