"""Engine benchmark: moves per second in random play and when replaying recorded moves.

Plays ``--deals`` random deals from a fixed seed, choosing every move from ``legal_moves``
(random play), then replays each recorded deal once from its deck with ``apply`` (replay)
and once as a table records it, its deck unknown (table replay),
and records each move as the append service does, with ``play`` (one check, one application)
and with ``canonical_move`` followed by ``apply`` (two of each).
Each figure is measured ``--rounds`` times on one core; the best and the median are written
to bench/results/engine.json. Caches are cleared before every round, so a replay never
profits from having seen the same deal before.

    python -m bench.engine [--deals 300] [--rounds 5] [--seed 2026]
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

import seep_core as sc
from bench.instructions_workload import play_random_deals
from seep_core import cards, combos

RESULTS = Path(__file__).resolve().parent / "results"


def _clear_caches() -> None:
    combos._SUBSETS.clear()
    combos._SPLITS.clear()
    cards.TAKE_CODES.clear()


def random_play(deals: int, seed: int) -> tuple[float, list[tuple[sc.Deal, list[dict[str, Any]]]]]:
    """Return random-play moves per second and the recorded deals (start position, moves)."""
    _clear_caches()
    start = time.perf_counter()
    recorded = play_random_deals(sc, random.Random(seed), deals)
    seconds = time.perf_counter() - start
    moves_made = sum(len(moves) for _, moves in recorded)
    return moves_made / seconds, recorded


def replay(recorded: list[tuple[sc.Deal, list[dict[str, Any]]]]) -> float:
    """Return moves per second applying every recorded move once, deal by deal."""
    _clear_caches()
    apply = sc.apply
    count = sum(len(moves) for _, moves in recorded)
    start = time.perf_counter()
    for first, moves in recorded:
        deal = first
        for move in moves:
            deal = apply(deal, move)
    return count / (time.perf_counter() - start)


def record(recorded: list[tuple[sc.Deal, list[dict[str, Any]]]], *, one_call: bool) -> float:
    """Return moves per second recording every move: its canonical form and the new position.

    ``one_call``: with ``sc.play``, which checks and applies each move once; otherwise with
    ``sc.canonical_move`` and then ``sc.apply``, which check it twice.
    """
    _clear_caches()
    play, canonical_move, apply = sc.play, sc.canonical_move, sc.apply
    count = sum(len(moves) for _, moves in recorded)
    start = time.perf_counter()
    for first, moves in recorded:
        deal = first
        for move in moves:
            if one_call:
                _, deal = play(deal, move)
            else:
                canonical_move(deal, move)
                deal = apply(deal, move)
    return count / (time.perf_counter() - start)


def table_replay(recorded: list[tuple[sc.Deal, list[dict[str, Any]]]]) -> float:
    """Return moves per second applying every recorded move to the deal recorded at a table.

    The moves are those of ``replay``, as a table records them (the bid with the floor
    turned up, a redeal with the hand shown), so the two figures compare a play at a table
    with a digital play.
    """
    records = [
        (first.dealer, first.rules, _at_the_table(first, moves)) for first, moves in recorded
    ]
    _clear_caches()
    apply, new_table_deal = sc.apply, sc.new_table_deal
    count = sum(len(moves) for _, _, moves in records)
    start = time.perf_counter()
    for dealer, rules, moves in records:
        deal = new_table_deal(dealer, rules)
        for move in moves:
            deal = apply(deal, move)
    return count / (time.perf_counter() - start)


def _at_the_table(first: sc.Deal, moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    position = first.to_dict()
    out = []
    for move in moves:
        if move["action"] == "bid":
            move = {**move, "floor": position["floor"]["loose"]}  # noqa: PLW2901
        elif move["action"] == "redeal":
            move = {**move, "hand": position["hands"][first.bidder]}  # noqa: PLW2901
        out.append(move)
    return out


def _best_and_median(rates: list[float]) -> dict[str, int]:
    return {"best": round(max(rates)), "median": round(statistics.median(rates))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    random_rates, replay_rates, play_rates, two_call_rates, table_rates = [], [], [], [], []
    recorded: list[tuple[sc.Deal, list[dict[str, Any]]]] = []
    for _ in range(args.rounds):
        rate, recorded = random_play(args.deals, args.seed)
        random_rates.append(rate)
        replay_rates.append(replay(recorded))
        table_rates.append(table_replay(recorded))
        play_rates.append(record(recorded, one_call=True))
        two_call_rates.append(record(recorded, one_call=False))
    moves = sum(len(m) for _, m in recorded)
    result = {
        "benchmark": "engine",
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "deals": args.deals,
        "moves_per_round": moves,
        "rounds": args.rounds,
        "seed": args.seed,
        "random_play_moves_per_s": _best_and_median(random_rates),
        "replay_moves_per_s": _best_and_median(replay_rates),
        # the same moves applied to the deal recorded at a table (table mode)
        "table_replay_moves_per_s": _best_and_median(table_rates),
        # a table play costs this many digital plays (medians of the same rounds)
        "table_play_cost_in_digital_plays": round(
            statistics.median(replay_rates) / statistics.median(table_rates), 2
        ),
        # recording a move (the append path): sc.play, against canonical_move then apply
        "record_with_play_moves_per_s": _best_and_median(play_rates),
        "record_with_canonical_move_and_apply_moves_per_s": _best_and_median(two_call_rates),
        "targets": {"random_play_moves_per_s": 30_000, "replay_moves_per_s": 200_000},
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "engine.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
