"""Standings benchmark: what bringing a 256-team Swiss stage's standings up to date costs when
every line must be written again (each round's ranks shifted after a result).

A scratch SQLite database of its own (removed after) holds a Swiss tournament of 256 teams
whose first round is published; deals are confirmed one match at a time through the real
services. Before each measured run the stage's checkpoints are emptied and every stored line
spoiled, so ``update_stage_standings`` computes and writes both rounds (the seeding and round
1: 512 lines), the most a result can ask of it. Figures: p50 and the worst of ``--repeat``
runs, and the load average, in bench/results/standings.json; the goal is p50 under 1 s.

    python -m bench.standings [--repeat 24] [--seed 2026]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from typing import Any

from bench.scratch import sqlite_django
from bench.web import first_round, save

TEAMS = 256
GOAL_MS = 1000.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", maxsplit=1)[0])
    parser.add_argument("--repeat", type=int, default=24)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    with sqlite_django("standings"):
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        times, lines = run(args)
    p50 = statistics.median(times)
    results: dict[str, Any] = {
        "database": "sqlite (a scratch file)",
        "teams": TEAMS,
        "lines_written_a_run": lines,
        "repeat": args.repeat,
        "p50_ms": round(p50, 1),
        "max_ms": round(max(times), 1),
        "goal_p50_ms": GOAL_MS,
        "load_average_before": LOAD_BEFORE,
    }
    save(results, "standings")
    verdict = "met" if p50 < GOAL_MS else "MISSED"
    print(f"{lines} lines a run: p50 {p50:.1f} ms, max {max(times):.1f} ms: goal {verdict}")
    return 0


LOAD_BEFORE = os.getloadavg()


def run(args: argparse.Namespace) -> tuple[list[float], int]:
    """Return each measured run's time (ms) and the lines the last one wrote."""

    from competition.models import StandingRow, StandingsCheckpoint
    from competition.standings import update_stage_standings
    from tournaments import matchlog
    from tournaments.models import Match
    from tournaments.services import match_append_event

    _t, stage, round_, director, keeper = first_round(TEAMS)
    matches = Match.objects.filter(fixture__round=round_).order_by("pk")[: args.repeat]
    rng = random.Random(args.seed)
    times, lines = [], 0
    for match in matches:
        a = rng.randrange(20, 81)
        entered = {"points": [a, 100 - a], "sweeps": [[], []]}
        for kind, payload, actor in (
            (matchlog.Kind.DEAL_ENTERED, entered, keeper),
            (matchlog.Kind.DEAL_CONFIRMED, {"entry": 1}, director),
        ):
            match.refresh_from_db(fields=["last_seq"])
            match_append_event(
                match=match, expected_seq=match.last_seq, kind=kind, payload=payload, actor=actor
            )
        StandingsCheckpoint.objects.filter(stage=stage).update(digest="")
        StandingRow.objects.filter(stage=stage).update(points=-1)
        start = time.perf_counter()
        lines = update_stage_standings(stage_id=stage.pk)
        times.append((time.perf_counter() - start) * 1000)
    return times, lines


if __name__ == "__main__":
    sys.exit(main())
