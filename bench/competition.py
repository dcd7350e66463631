"""Competition benchmark: Swiss pairing of round 5 and standings, pure Python, no database.

Swiss: 64, 256 and 1,024 teams play four simulated rounds (paired by the code under test,
random results: 45% win, 45% loss, 10% draw; 2/1/0 points, byes 2) to give realistic score
groups and rematch history; then round 5 is paired ``--repeat`` times with rustworkx and
with networkx on the same weights (networkx at 1,024 teams takes tens of seconds, so it
runs ``--nx-repeat`` times there). Standings: 1,024 teams over 10 rounds with every
tie-break chosen. Median and max seconds are written to bench/results/competition.json.

    python -m bench.competition [--repeat 7] [--nx-repeat 1] [--seed 2026]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time
from pathlib import Path
from typing import Any

from competition.formats import TIEBREAKS, Match, Side, standings, swiss_pairings

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
    ranked = sorted(teams, key=lambda t: (-score[t], t))
    return [(t, score[t]) for t in ranked], played, byes


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
    args = parser.parse_args()

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
        "swiss_round_5": swiss,
        "standings_1024_teams_10_rounds": figures,
        "targets": {"swiss_1024_rustworkx_s": 1.0, "standings_1024_s": 0.5},
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "competition.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
