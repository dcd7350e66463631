"""Scoring benchmark: events per second a Celery worker projects, and append-to-projection lag.

Needs PostgreSQL and Redis, named as the application names them:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/seep REDIS_URL=redis://127.0.0.1:6379/0 \\
        python -m bench.scoring [--matches 8] [--moves 250] [--rates 10,40] [--seconds 15]

(``make bench-scoring`` runs it with the environment it is given). It never touches the database
DATABASE_URL names: it creates its own, ``--database`` (default ``seep_bench_scoring``) on the same
server, dropping it first and again at the end (unless ``--keep``), and it sends its tasks to a
queue of its own on REDIS_URL, whose keys it deletes at the end. It starts one real worker
(``celery -A deploy worker --pool=prefork --concurrency=1``, the production settings: late
acknowledgement, prefetch 1) on them, and drives matches through the real append service.

Figures (written to bench/results/scoring.json and printed):

- ``per_append``: the production pattern, one ``project_match`` per append. Digital matches are
  played by random-move bots and score matches entered deal by deal with their tasks held
  back; then every held task is sent, in order, to the running worker. Events (and tasks) per
  second from the first send to the last projection written.
- ``backlog``: the catch-up pattern, one task per match folding its whole log (the projections
  wiped first). Events per second, as above.
- ``fold``: the same recomputation in this process without Celery (``rebuild_projections``):
  what the database and the fold cost alone.
- ``lag``: for each of ``--rates``, a steady load of that many appends per second (bots playing
  ``--matches`` digital matches) for ``--seconds``, tasks sent on commit as in production; the
  time from each append's commit to the moment its projection checkpoint reaches it,
  p50/p99/max, measured by polling the checkpoints every few milliseconds. On a small machine
  the load generator (this process), PostgreSQL, Redis and the worker share the CPUs: the
  figures are end-to-end on one box, not the worker's alone.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from bench.processes import quantile, server_version, start_worker, tear_down
from bench.scratch import bench_environment, postgres_and_redis, recreate_database

RESULTS = Path(__file__).resolve().parent / "results"
SUCCEEDED = re.compile(r"Task scoring\.tasks\.project_match\[[-\w]+\] succeeded in ([\d.e-]+)s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--database", default="seep_bench_scoring", help="scratch database to create"
    )
    parser.add_argument("--matches", type=int, default=8, help="digital matches per phase")
    parser.add_argument("--moves", type=int, default=250, help="moves per digital match (phase 1)")
    parser.add_argument("--score-matches", type=int, default=8)
    parser.add_argument("--deals", type=int, default=40, help="deals per score match")
    parser.add_argument(
        "--rates", default="10,40", help="steady loads for the lag phase, appends per second"
    )
    parser.add_argument("--seconds", type=float, default=15.0, help="length of each load")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    args = parser.parse_args()

    database_url, redis_url = postgres_and_redis("bench.scoring", "the broker")
    bench_url = recreate_database(database_url, args.database)
    bench_environment(bench_url)  # the worker it starts inherits the same environment
    os.environ["CELERY_QUEUE"] = f"seep-bench-scoring-{uuid.uuid4().hex[:8]}"

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    log_path = RESULTS / "scoring-worker.log"
    RESULTS.mkdir(exist_ok=True)
    log_path.unlink(missing_ok=True)
    worker = start_worker(log_path)
    try:
        bench = _Bench(args, log_path)
        result = {
            "benchmark": "scoring",
            "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "python": platform.python_version(),
            "machine": platform.machine(),
            "cpus": os.cpu_count(),
            "database": server_version(),
            "worker": "celery prefork, concurrency 1, prefetch 1, acks late",
            "seed": args.seed,
            **bench.throughput(),
            "lag": [bench.lag(float(rate)) for rate in args.rates.split(",")],
        }
    finally:
        tear_down([worker], redis_url, database_url, args)
    (RESULTS / "scoring.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


class _Bench:
    def __init__(self, args: argparse.Namespace, log_path: Path) -> None:
        from django.contrib.auth import get_user_model

        from tournaments.models import Player, Team, Tournament

        self.args = args
        self.log_path = log_path
        self.rng = random.Random(args.seed)
        organizer = get_user_model().objects.create_user("bench-organizer")
        self.tournament = Tournament.objects.create(
            name="Benchmark", slug="benchmark", organizer=organizer
        )
        players = [Player.objects.create(name=f"Player {n}") for n in range(4)]
        self.teams = [
            Team.objects.create(
                tournament=self.tournament,
                name=name,
                first_player=players[2 * i],
                second_player=players[2 * i + 1],
            )
            for i, name in enumerate(("North", "East"))
        ]

    # --- matches driven through the real append service ------------------------------------

    def new_match(self, mode: str, fmt: dict[str, Any]) -> Any:
        from tournaments.access import SYSTEM
        from tournaments.services import match_append_event, match_create

        match = match_create(
            tournament=self.tournament,
            team0=self.teams[0],
            team1=self.teams[1],
            mode=mode,
            match_format=fmt,
        )
        result = match_append_event(
            match=match,
            expected_seq=0,
            kind="match_started",
            payload={"first_dealer": self.rng.randrange(4)},
            actor=SYSTEM,
            shuffle=self.shuffle,
        )
        return _Played(match, result)

    def shuffle(self) -> list[str]:
        import seep_core as sc

        deck = sc.ordered_deck()
        self.rng.shuffle(deck)
        return deck

    def move(self, played: _Played) -> bool:
        """Play one random legal move; False if the match is over."""
        import seep_core as sc
        from tournaments import matchlog
        from tournaments.access import SYSTEM
        from tournaments.services import match_append_event

        if played.state.status == matchlog.FINISHED:
            return False
        assert played.state.deal is not None
        result = match_append_event(
            match=played.match,
            expected_seq=played.seq,
            kind="move_played",
            payload={"move": self.rng.choice(sc.legal_moves(played.state.deal))},
            actor=SYSTEM,
            shuffle=self.shuffle,
        )
        played.follow(result)
        return True

    def enter_deal(self, played: _Played) -> bool:
        from tournaments import matchlog
        from tournaments.access import SYSTEM
        from tournaments.services import match_append_event

        if played.state.status == matchlog.FINISHED:
            return False
        card_points = self.rng.randrange(20, 81)
        result = match_append_event(
            match=played.match,
            expected_seq=played.seq,
            kind="deal_ended",
            payload={"points": [card_points, 100 - card_points], "sweeps": [[], []]},
            actor=SYSTEM,
        )
        played.follow(result)
        return True

    # --- phase 1: throughput ---------------------------------------------------------------

    def throughput(self) -> dict[str, Any]:
        from unittest import mock

        from scoring.models import DealResult, MatchResult
        from scoring.services import update_match_projection
        from scoring.tasks import project_match

        held: list[int] = []
        with mock.patch("tournaments.services._schedule_projection", side_effect=held.append):
            matches = [self.new_match("digital", {"bazzis": 99}) for _ in range(self.args.matches)]
            for played in matches:
                for _ in range(self.args.moves):
                    self.move(played)
            scored = [
                self.new_match("score", {"bazzis": 99}) for _ in range(self.args.score_matches)
            ]
            for played in scored:
                for _ in range(self.args.deals):
                    self.enter_deal(played)
        ids = [p.match.pk for p in matches + scored]
        events = sum(p.seq for p in matches + scored)

        def drain(messages: list[int]) -> dict[str, Any]:
            before = self.tasks_done()
            start = time.perf_counter()
            for match_id in messages:
                project_match.delay(match_id)
            self.wait(
                lambda: projections_current(ids) and self.tasks_done() - before >= len(messages)
            )
            seconds = time.perf_counter() - start
            return {
                "events": events,
                "tasks": len(messages),
                "seconds": round(seconds, 3),
                "events_per_s": round(events / seconds),
                "tasks_per_s": round(len(messages) / seconds),
            }

        per_append = drain(held)
        per_append["task_ms"] = self.task_times(len(held))
        DealResult.objects.all().delete()
        MatchResult.objects.all().delete()
        backlog = drain(ids)
        start = time.perf_counter()
        for match_id in ids:
            update_match_projection(match_id=match_id, rebuild=True)
        seconds = time.perf_counter() - start
        return {
            "matches": {"digital": len(matches), "score": len(scored)},
            "per_append": per_append,
            "backlog": backlog,
            "fold": {
                "events": events,
                "seconds": round(seconds, 3),
                "events_per_s": round(events / seconds),
            },
        }

    # --- phase 2: lag under a steady load --------------------------------------------------

    def lag(self, rate: float) -> dict[str, Any]:
        from unittest import mock

        from django.db import connection

        from scoring.models import MatchResult
        from tournaments import services

        matches = [self.new_match("digital", {"bazzis": 99}) for _ in range(self.args.matches)]
        self.wait(lambda: projections_current([p.match.pk for p in matches]))
        committed: list[tuple[int, int, float]] = []  # (match, seq, when its commit was done)
        commit_time = [0.0]
        real_schedule = services._schedule_projection

        def schedule(match_id: int) -> None:
            commit_time[0] = time.perf_counter()  # on-commit: the append just committed
            real_schedule(match_id)

        lags: list[float] = []
        done = threading.Event()

        def poll() -> None:
            pending_from = 0
            try:
                while not (done.is_set() and pending_from >= len(committed)):
                    checkpoints = dict(MatchResult.objects.values_list("match_id", "seq"))
                    now = time.perf_counter()
                    while pending_from < len(committed):
                        match_id, seq, when = committed[pending_from]
                        if checkpoints.get(match_id, 0) < seq:
                            break
                        lags.append(now - when)
                        pending_from += 1
                    time.sleep(0.002)
            finally:
                connection.close()

        poller = threading.Thread(target=poll, name="poller")
        poller.start()
        interval = 1 / rate
        appended = 0
        start = time.perf_counter()
        with mock.patch.object(services, "_schedule_projection", side_effect=schedule):
            while (now := time.perf_counter()) - start < self.args.seconds:
                due = start + appended * interval
                if now < due:
                    time.sleep(due - now)
                played = matches[appended % len(matches)]
                self.move(played)
                committed.append((played.match.pk, played.seq, commit_time[0]))
                appended += 1
        seconds = time.perf_counter() - start
        done.set()
        poller.join(timeout=120)
        ordered = sorted(lags)
        events = sum(p.seq - p.started_seq for p in matches)
        return {
            "target_appends_per_s": rate,
            "appends": appended,
            "events": events,
            "seconds": round(seconds, 3),
            "appends_per_s": round(appended / seconds, 1),
            "events_per_s": round(events / seconds, 1),
            "lag_ms": {
                "p50": round(1000 * quantile(ordered, 0.50), 1),
                "p99": round(1000 * quantile(ordered, 0.99), 1),
                "max": round(1000 * ordered[-1], 1),
                "measured": len(ordered),
            },
        }

    # --- reading the worker ----------------------------------------------------------------

    def tasks_done(self) -> int:
        return len(SUCCEEDED.findall(self.log_path.read_text(errors="replace")))

    def task_times(self, last: int) -> dict[str, float]:
        times = sorted(
            float(t) * 1000 for t in SUCCEEDED.findall(self.log_path.read_text())[-last:]
        )
        return {"p50": round(quantile(times, 0.5), 2), "p99": round(quantile(times, 0.99), 2)}

    @staticmethod
    def wait(done: Any, timeout: float = 600) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            if time.monotonic() > deadline:
                raise TimeoutError("the worker did not catch up in time")
            time.sleep(0.01)


class _Played:
    """A match and where it stands, followed from the events its appends return."""

    def __init__(self, match: Any, started: Any) -> None:
        from tournaments import matchlog

        self.match = match
        self.state = matchlog.MatchState(match.mode)
        self.seq = 0
        self.follow(started)
        self.started_seq = self.seq

    def follow(self, result: Any) -> None:
        from tournaments import matchlog

        for event in result.events:  # rendered for SYSTEM: nothing is hidden from the server
            self.state = matchlog.apply_event(self.state, event["kind"], event["payload"])
        self.seq = result.last_seq


def projections_current(ids: list[int]) -> bool:
    """Whether the projections of matches ``ids`` have folded in every event of their logs."""
    from scoring.models import MatchResult
    from tournaments.models import Match

    heads = dict(Match.objects.filter(pk__in=ids).values_list("pk", "last_seq"))
    seqs = dict(MatchResult.objects.filter(match__in=ids).values_list("match_id", "seq"))
    return all(seqs.get(pk) == head for pk, head in heads.items())


if __name__ == "__main__":
    main()
