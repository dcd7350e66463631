"""The fixed workload ``bench.engine_instructions`` counts under callgrind, one stage a run.

    python bench/instructions_workload.py start|import|play|replay DEALS REPLAYS

Each stage does the work of the stages before it as well: ``start`` nothing (the interpreter
alone), ``import`` imports seep_core, ``play`` plays DEALS random deals from seed 2026 (each
move drawn from ``legal_moves`` and applied), ``replay`` then applies every recorded move
again REPLAYS times. It imports nothing else beyond ``random``: what the interpreter holds
changes what the garbage collector costs, and the stages compare two versions of seep_core.
"""

from __future__ import annotations

import random
import sys

SEED = 2026


def run(stage: str, deals: int, replays: int) -> int:
    """Run ``stage`` and every stage before it; return the moves of the random play."""
    if stage == "start":
        return 0
    import seep_core as sc

    if stage == "import":
        return 0
    rng = random.Random(SEED)
    recorded = []
    moves_made = 0
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
        moves_made += len(moves)
    if stage == "replay":
        apply = sc.apply
        for _ in range(replays):
            for first, moves in recorded:
                deal = first
                for move in moves:
                    deal = apply(deal, move)
    return moves_made


if __name__ == "__main__":
    print("moves", run(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
