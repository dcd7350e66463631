"""The fixed workload ``bench.engine_instructions`` counts under callgrind, one stage a run.

    python bench/instructions_workload.py start|import|play|replay DEALS REPLAYS

Each stage does the work of the stages before it as well: ``start`` nothing (the interpreter
alone), ``import`` imports seep_core, ``play`` plays DEALS random deals from seed 2026 (each
move drawn from ``legal_moves`` and applied), ``replay`` then applies every recorded move
again REPLAYS times. It imports nothing else beyond ``random`` (and ``typing``, which seep_core
imports too): what the interpreter holds changes what the garbage collector costs, and the
stages compare two versions of seep_core.
"""

from __future__ import annotations

import random
import sys
from typing import Any

SEED = 2026


def run(stage: str, deals: int, replays: int) -> int:
    """Run ``stage`` and every stage before it; return the moves of the random play."""
    if stage == "start":
        return 0
    import seep_core as sc

    if stage == "import":
        return 0
    recorded = play_random_deals(sc, random.Random(SEED), deals)
    if stage == "replay":
        apply = sc.apply
        for _ in range(replays):
            for first, moves in recorded:
                deal = first
                for move in moves:
                    deal = apply(deal, move)
    return sum(len(moves) for _, moves in recorded)


def play_random_deals(sc: Any, rng: random.Random, deals: int) -> list[tuple[Any, list[Any]]]:
    """Play ``deals`` random deals with seep_core ``sc`` (each move drawn from its legal
    moves); return each deal's start position and moves. bench.engine times the same play."""
    recorded = []
    for n in range(deals):
        deck = sc.ordered_deck()
        rng.shuffle(deck)
        first = deal = sc.new_deal(dealer=n % 4, deck=deck)
        moves = []
        while deal.phase not in ("over", "redealt"):
            move = rng.choice(sc.legal_moves(deal))
            deal = sc.apply(deal, move)
            moves.append(move)
        recorded.append((first, moves))
    return recorded


if __name__ == "__main__":
    print("moves", run(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
