"""Competition benchmark: Swiss pairing of every round, and standings; pure Python, no database.

Swiss, every round: 1,024- and 512-team events of 10 rounds (``--seeds``; random results:
45% win, 45% loss, 10% draw; 2/1/0 points, byes 2), each round paired by the code under
test from the standings and history the earlier rounds left; the median and the worst
round are reported (wall clock, and the process's own CPU time, which the load of a shared
machine inflates less), with the load average, since late rounds (small leading groups whose
teams have met) are where the search used to widen to all pairs. The default seeds include
19, whose round 10 at 1,024 teams is such a round (its two leaders have met). ``--before``
also times each round with the relaxed score-gap bound switched off (the stopping rule
before it: widen until the parity bound is met), on the same input, and counts the rounds
whose pairings differ.

Swiss, round 5: 64, 256 and 1,024 teams play four simulated rounds, then round 5 is
paired ``--repeat`` times with rustworkx and with networkx on the same weights (networkx at
1,024 teams takes tens of seconds, so it runs ``--nx-repeat`` times there). Standings:
1,024 teams over 10 rounds with every tie-break chosen. Figures are written to
bench/results/competition.json.

    python -m bench.competition [--repeat 7] [--nx-repeat 1] [--seed 2026]
                                [--seeds 17 18 19 20 21] [--before]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import competition.formats.swiss as swiss_module
from competition.formats import TIEBREAKS, Match, Side, standings, swiss_graph, swiss_pairings

RESULTS = Path(__file__).resolve().parent / "results"


def simulate(
    n: int, rounds: int, seed: int
) -> tuple[list[tuple[int, int]], list[tuple[int, int]], list[int]]:
    """Return (ranked standings, pairs played, byes) after ``rounds`` Swiss rounds."""
    rng = random.Random(seed)
    teams = list(range(1, n + 1))
    score = dict.fromkeys(teams, 0)
    played: list[tuple[int, int]] = []
    byes: list[int] = []
    for number in range(1, rounds + 1):
        ranked = sorted(teams, key=lambda t: (-score[t], t))
        r = swiss_pairings(
            [(t, score[t]) for t in ranked], round_number=number, played=played, byes=byes
        )
        play(r, rng, score, played, byes)
    ranked = sorted(teams, key=lambda t: (-score[t], t))
    return [(t, score[t]) for t in ranked], played, byes


def play(
    r: swiss_module.SwissRound,
    rng: random.Random,
    score: dict[int, int],
    played: list[tuple[int, int]],
    byes: list[int],
) -> None:
    """Record a round with random results: 45% win, 45% loss, 10% draw; a bye wins."""
    for p in r.pairings:
        played.append((p.a, p.b))
        roll = rng.random()
        if roll < 0.1:
            score[p.a] += 1
            score[p.b] += 1
        else:
            score[p.a if roll < 0.55 else p.b] += 2
    if r.bye is not None:
        byes.append(r.bye)
        score[r.bye] += 2


def every_round(n: int, rounds: int, seed: int, *, before: bool) -> list[dict[str, Any]]:
    """Return each round's seconds (and the old rule's, if ``before``) for one Swiss event."""
    rng = random.Random(seed)
    teams = list(range(1, n + 1))
    score = dict.fromkeys(teams, 0)
    played: list[tuple[int, int]] = []
    byes: list[int] = []
    out = []
    for number in range(1, rounds + 1):
        ranked = [(t, score[t]) for t in sorted(teams, key=lambda t: (-score[t], t))]
        start, cpu = time.perf_counter(), time.process_time()
        r = swiss_pairings(ranked, round_number=number, played=played, byes=byes)
        row: dict[str, Any] = {
            "seed": seed,
            "round": number,
            "s": round(time.perf_counter() - start, 4),
            "cpu_s": round(time.process_time() - cpu, 4),
            "window": r.window,
            "score_gaps": r.cost.score_gaps,
        }
        if before:
            with parity_bound_only():
                start = time.perf_counter()
                old = swiss_pairings(ranked, round_number=number, played=played, byes=byes)
                row.update(before_s=round(time.perf_counter() - start, 4), before_window=old.window)
            assert old.cost.score_gaps == r.cost.score_gaps, "both rules prove the same optimum"
            row["same_pairing"] = (old.pairings, old.bye) == (r.pairings, r.bye)
        out.append(row)
        print(n, row, flush=True)
        play(r, rng, score, played, byes)
    return out


@contextmanager
def parity_bound_only() -> Iterator[None]:
    """Switch the relaxed score-gap bound off: the stopping rule before it, for --before."""
    relaxed = swiss_graph.SwissGraph._least_score_gaps
    swiss_graph.SwissGraph._least_score_gaps = lambda *args, **kwargs: None  # type: ignore[method-assign]
    try:
        yield
    finally:
        swiss_graph.SwissGraph._least_score_gaps = relaxed  # type: ignore[method-assign]


def summary(rows: list[dict[str, Any]], key: str) -> dict[str, Any]:
    """Return the median and the worst round of ``rows`` by ``key`` seconds."""
    worst = max(rows, key=lambda row: row[key])
    return {
        "rounds": len(rows),
        "median_s": round(statistics.median(row[key] for row in rows), 4),
        "worst_s": worst[key],
        "worst_round": {"seed": worst["seed"], "round": worst["round"]},
    }


def timed(fn: Any, repeat: int) -> tuple[dict[str, float], Any]:
    """Return median and max seconds of ``repeat`` calls, and the last result."""
    times = []
    out = None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return {"median_s": round(statistics.median(times), 4), "max_s": round(max(times), 4)}, out


def stage_results(n: int, rounds: int, seed: int) -> list[Match]:
    """Return ``rounds`` rounds of random results for n teams with every Seep figure."""
    rng = random.Random(seed)
    teams = list(range(1, n + 1))
    rows = []
    for number in range(1, rounds + 1):
        rng.shuffle(teams)
        for a, b in zip(teams[::2], teams[1::2], strict=True):
            won, lost = rng.randint(0, 3), rng.randint(0, 3)
            diff = rng.randint(-99, 99)
            outcome = (
                ("win", "loss")
                if won > lost
                else ("loss", "win")
                if won < lost
                else ("draw", "draw")
            )
            rows.append(
                Match(
                    number,
                    Side(a, outcome[0], won, lost, diff, rng.randint(0, 9), rng.randint(0, 3)),
                    Side(b, outcome[1], lost, won, -diff, rng.randint(0, 9), rng.randint(0, 3)),
                )
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--nx-repeat", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--seeds", type=int, nargs="+", default=[17, 18, 19, 20, 21])
    parser.add_argument("--before", action="store_true")
    args = parser.parse_args()

    every: dict[str, Any] = {"load_before": os.getloadavg()}
    for n in (1024, 512):
        paired = [
            row for seed in args.seeds for row in every_round(n, 10, seed, before=args.before)
        ]
        worst = summary(paired, "s")
        worst["cpu"] = summary(paired, "cpu_s")
        worst["widened"] = sum(row["window"] != 24 for row in paired)
        if args.before:
            worst["before"] = summary(paired, "before_s")
            worst["before"]["widened"] = sum(row["before_window"] != 24 for row in paired)
            worst["before"]["other_pairings"] = sum(not row["same_pairing"] for row in paired)
        every[str(n)] = worst
        print(n, "every round", worst, flush=True)
    every["load_after"] = os.getloadavg()

    swiss: dict[str, Any] = {}
    for n in (64, 256, 1024):
        ranked, played, byes = simulate(n, 4, args.seed + n)
        entry: dict[str, Any] = {"groups": len({s for _, s in ranked})}
        for solver in ("rustworkx", "networkx"):
            repeat = args.nx_repeat if solver == "networkx" and n >= 1024 else args.repeat

            def pair(
                solver: str = solver,
                ranked: list[tuple[int, int]] = ranked,
                played: list[tuple[int, int]] = played,
                byes: list[int] = byes,
            ) -> Any:
                return swiss_pairings(
                    ranked,
                    round_number=5,
                    played=played,
                    byes=byes,
                    solver=solver,  # type: ignore[arg-type]
                )

            figures, result = timed(pair, repeat)
            figures.update(
                repetitions=repeat,
                cost=[
                    getattr(result.cost, f)
                    for f in ("rematches", "bye_rank", "score_gaps", "fold", "closeness")
                ],
                window=result.window,
                fold_proven=result.fold_proven,
                edges=result.edges,
            )
            entry[solver] = figures
            print(n, solver, figures, flush=True)
        if n <= 256:  # the complete graph, to show the pruning loses nothing
            full = swiss_pairings(ranked, round_number=5, played=played, byes=byes, window=None)
            entry["complete_graph_cost_equal"] = entry["rustworkx"]["cost"][:4] == [
                full.cost.rematches,
                full.cost.bye_rank,
                full.cost.score_gaps,
                full.cost.fold,
            ]
        swiss[str(n)] = entry

    rows = stage_results(1024, 10, args.seed)
    figures, table = timed(
        lambda: standings(rows, tiebreaks=TIEBREAKS, seed=args.seed), args.repeat
    )
    figures.update(
        repetitions=args.repeat, teams=1024, rounds=10, matches=len(rows), rows=len(table.rows)
    )
    print("standings", figures)

    result = {
        "benchmark": "competition",
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "seed": args.seed,
        "swiss_every_round_10_rounds": {"seeds": args.seeds, **every},
        "swiss_round_5": swiss,
        "standings_1024_teams_10_rounds": figures,
        "targets": {
            "swiss_1024_rustworkx_s": 1.0,
            "swiss_worst_round_s": 0.5,
            "standings_1024_s": 0.5,
        },
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "competition.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
