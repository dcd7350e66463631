"""Double elimination's drop orders, measured by the losers'-bracket rematches that happen.

For every field of 4 to 128 teams, every combination of the standard orders
(``competition.formats.elimination.ORDERINGS``: brackets-manager's natural, reverse,
half_shift, reverse_half_shift, pair_flip, inner_outer; the distinct permutations of each
drop round's losers) is tried for the drop rounds that have two losers or more, exhaustively
(at most 6 x 6 x 6 x 5 x 2 = 2,160 combinations, at 65 to 128 teams), and scored by the
expected number of losers' bracket matches between two teams that met already, every match
won 50/50 at random. That number is exact: computed, not sampled (see
``expected_losers_rematches``; here a faster form of the same sum over the losers'
bracket's slots, sharing each combination's first rounds). Ties go to fewer rematches when
the higher seed always wins, then to brackets-manager's own table (its default "minor"
orders), then to the names' order in ``PREFERENCE``.

Against the best, the bench measures brackets-manager's fixed table (``PEER``; for a field
that is not a power of two, the table of the bracket's size, byes as this project places
them) and the rule the project used before ("fewest_possible"), and checks each figure
twice: the fast sum against ``expected_losers_rematches`` on the built bracket, and the
mean of a seeded sample of played-out brackets (``--sample`` runs a size) within five
standard errors of it.

    python -m bench.drop_orders            # search, check DROP_TABLE, write the figures
    python -m bench.drop_orders --write    # ... and rewrite competition/formats/drop_table.py

Figures: bench/results/drop-orders.json. Exit status 1 when DROP_TABLE is not what the
search finds (run with --write, and review the diff and docs/competition.md).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

from competition.formats import elimination as el
from competition.formats.drop_table import DROP_TABLE

RESULTS = Path(__file__).resolve().parent / "results"
TABLE_FILE = Path(el.__file__).resolve().parent / "drop_table.py"
SIZES = range(4, 129)

#: brackets-manager.js's default losers'-bracket orders (``defaultMinorOrdering``) by bracket
#: size: the first is the "major" order of winners' round 1's losers (natural, as here),
#: then one per drop round from winners' round 2 (the last, one loser, is never applied)
PEER: dict[int, tuple[str, ...]] = {
    4: ("natural", "reverse"),
    8: ("natural", "reverse", "natural"),
    16: ("natural", "reverse_half_shift", "reverse", "natural"),
    32: ("natural", "reverse", "half_shift", "natural", "natural"),
    64: ("natural", "reverse", "half_shift", "reverse", "natural", "natural"),
    128: ("natural", "reverse", "half_shift", "pair_flip", "pair_flip", "pair_flip", "natural"),
}

#: the names a permutation is called by when several orders give it, first first
PREFERENCE = ("reverse", "half_shift", "reverse_half_shift", "pair_flip", "inner_outer", "natural")

Origin = tuple[int, int]  # a winners' fixture: (round, index), W{round}-{index}
Reach = dict[Origin, float]  # the drops a losers' slot may hold, and each one's probability


def shape(count: int) -> tuple[int, int]:
    """Return the bracket size (a power of two) and the winners' rounds for a field."""
    size, rounds = 1, 0
    while size < count:
        size, rounds = size * 2, rounds + 1
    return size, rounds


def peer_orders(count: int) -> tuple[str, ...]:
    """Return brackets-manager's orders for the drop rounds with two losers or more."""
    size, rounds = shape(count)
    return PEER[size][1 : rounds - 1]


def permutations(m: int) -> list[tuple[str, tuple[int, ...]]]:
    """Return the distinct orders of m losers, each under its first name in PREFERENCE."""
    out: dict[tuple[int, ...], str] = {}
    for name in PREFERENCE:
        out.setdefault(tuple(el.ORDERINGS[name](m)), name)
    return [(name, perm) for perm, name in out.items()]


# --- The exact expectation, fast --------------------------------------------------------
# Every probability here is a power of two no smaller than 2**-40 and every sum stays below
# 2**12, so floats hold them exactly whatever the order of the additions (53-bit
# mantissas): the sums are exact; ``check`` compares them with the Fractions of the formats.


def _met(x: Origin, y: Origin) -> float:
    """Return the probability that the losers of winners' fixtures x and y have met."""
    (r1, i1), (r2, i2) = (x, y) if x[0] < y[0] else (y, x)
    d = r2 - r1
    return 0.5**d if d and (i1 - 1) >> d == i2 - 1 else 0.0


def _match(a: Reach, b: Reach) -> tuple[float, Reach]:
    """Return the expected rematches of a losers' match and the reach of its winner."""
    cost = sum(pa * pb * _met(x, y) for x, pa in a.items() for y, pb in b.items())
    merged = {x: p / 2 for x, p in a.items()}
    for y, p in b.items():
        merged[y] = merged.get(y, 0.0) + p / 2
    return cost, merged


def _first_round(count: int) -> list[Reach | None]:
    """Return losers' round 1's winners' reach by slot (None: nobody, both were byes)."""
    size, _ = shape(count)
    order = el.standard_order(size)
    played = [order[2 * i] <= count and order[2 * i + 1] <= count for i in range(size // 2)]
    slots: list[Reach | None] = []
    for i in range(size // 4):
        a = {(1, 2 * i + 1): 1.0} if played[2 * i] else None
        b = {(1, 2 * i + 2): 1.0} if played[2 * i + 1] else None
        slots.append(_match(a, b)[1] if a and b else (a or b))  # never a rematch: cost 0
    return slots


def _drop_round(
    slots: list[Reach | None], t: int, perm: tuple[int, ...], last: bool
) -> tuple[float, list[Reach | None]]:
    """Return the expected rematches of drop round t (and the losers' round after it) and
    the slots after them."""
    cost = 0.0
    dropped: list[Reach | None] = []
    for i, slot in enumerate(slots):
        drop = {(t, perm[i]): 1.0}
        if slot is None:  # nobody to meet: the drop goes straight on
            dropped.append(drop)
            continue
        c, merged = _match(slot, drop)
        cost += c
        dropped.append(merged)
    if last:
        return cost, dropped
    after: list[Reach | None] = []
    for i in range(0, len(dropped), 2):
        a, b = dropped[i], dropped[i + 1]
        if a is None or b is None:
            after.append(a or b)
            continue
        c, merged = _match(a, b)
        cost += c
        after.append(merged)
    return cost, after


def combinations(count: int) -> Iterator[tuple[tuple[str, ...], float]]:
    """Yield every combination of distinct orders for the drop rounds with two losers or
    more, and its expected losers' bracket rematches (each round computed once per prefix)."""
    size, rounds = shape(count)

    def walk(
        slots: list[Reach | None], t: int, chosen: tuple[str, ...], cost: float
    ) -> Iterator[tuple[tuple[str, ...], float]]:
        if t >= rounds:  # the final drop round: one loser, one order
            yield chosen, cost + (_drop_round(slots, t, (1,), True)[0] if t == rounds else 0.0)
            return
        for name, perm in permutations(size >> t):
            c, after = _drop_round(slots, t, perm, False)
            yield from walk(after, t + 1, (*chosen, name), cost + c)

    yield from walk(_first_round(count), 2, (), 0.0)


# --- Played out -------------------------------------------------------------------------


def losers_rematches(bracket: el.Bracket, winner: Callable[[int, int], int]) -> int:
    """Return how many losers' bracket matches were rematches, ``winner(a, b)`` deciding
    every match of the two brackets (the grand finals are not played)."""
    won: dict[str, int] = {}
    lost: dict[str, int] = {}
    met: set[frozenset[int]] = set()
    count = 0

    def team(slot: el.Slot) -> int:
        if isinstance(slot, el.Seed):
            return bracket.seeds[slot.number - 1]
        return (won if isinstance(slot, el.WinnerOf) else lost)[slot.fixture]

    for f in bracket.fixtures:
        if f.part == "final":
            continue
        a, b = team(f.slot_a), team(f.slot_b)
        pair = frozenset((a, b))
        count += f.part == "losers" and pair in met
        met.add(pair)
        won[f.key] = w = winner(a, b)
        lost[f.key] = b if w == a else a
    return count


def seeds_win(count: int, orders: el.DropOrders | tuple[str, ...]) -> int:
    """Return the losers' bracket rematches when the higher seed wins every match."""
    bracket = el.double_elimination(list(range(1, count + 1)), drop_orders=orders)
    return losers_rematches(bracket, min)


def sampled(count: int, orders: el.DropOrders | tuple[str, ...], runs: int, seed: int) -> float:
    """Return the mean losers' bracket rematches over ``runs`` seeded 50/50 play-outs."""
    bracket = el.double_elimination(list(range(1, count + 1)), drop_orders=orders)
    rng = random.Random(seed * 1000 + count)
    return (
        sum(losers_rematches(bracket, lambda a, b: rng.choice((a, b))) for _ in range(runs)) / runs
    )


# --- The search and the figures ---------------------------------------------------------


def best(count: int) -> tuple[tuple[str, ...], float, int]:
    """Return the chosen orders for a field, their expected rematches, and how many of the
    combinations tie with them on that."""
    scored = list(combinations(count))
    low = min(cost for _, cost in scored)
    tied = [names for names, cost in scored if cost == low]
    peer = peer_orders(count)
    size = shape(count)[0]

    def differs(names: tuple[str, ...]) -> int:
        return sum(
            el.ORDERINGS[a](size >> t) != el.ORDERINGS[b](size >> t)
            for t, (a, b) in enumerate(zip(names, peer, strict=True), start=2)
        )

    chosen = min(
        tied,
        key=lambda names: (
            seeds_win(count, names),
            differs(names),
            [PREFERENCE.index(n) for n in names],
        ),
    )
    if differs(chosen) == 0:
        chosen = peer  # the same permutations: say them by the peer's names
    return chosen, low, len(tied)


def exact(count: int, orders: el.DropOrders | tuple[str, ...]) -> Fraction:
    """Return the formats' exact expectation for a field drawn with these orders."""
    bracket = el.double_elimination(list(range(1, count + 1)), drop_orders=orders)
    return el.expected_losers_rematches(bracket)


def write_table(table: dict[int, tuple[str, ...]]) -> None:
    """Rewrite competition/formats/drop_table.py with this table."""
    lines = [
        '"""The drop orders of double elimination by field size, from winners\' round 2 on, for',
        "the drop rounds with two losers or more (the last, the winners' final's loser, needs",
        "none): the combination of ``ORDERINGS`` with the fewest expected losers' bracket",
        "rematches under 50/50 results. Generated by bench/drop_orders.py (``--write``), which",
        'checks it on every run: do not edit by hand (docs/competition.md has the figures)."""',
        "",
        "DROP_TABLE: dict[int, tuple[str, ...]] = {",
    ]
    for count, names in sorted(table.items()):
        if names:
            inner = ", ".join(f'"{n}"' for n in names)
            lines.append(f"    {count}: ({inner}{',' if len(names) == 1 else ''}),")
    lines.append("}")
    TABLE_FILE.write_text("\n".join(lines) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="rewrite the table file")
    parser.add_argument("--sample", type=int, default=200, help="play-outs per size and rule")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    rows: list[dict[str, Any]] = []
    found: dict[int, tuple[str, ...]] = {}
    problems: list[str] = []
    for count in SIZES:
        chosen, low, ties = best(count)
        found[count] = chosen
        row: dict[str, Any] = {"teams": count, "orders": list(chosen), "ties": ties}
        rules: dict[str, el.DropOrders | tuple[str, ...]] = {
            "chosen": chosen,
            "peer": peer_orders(count),
            "fewest_possible": "fewest_possible",
        }
        for label, orders in rules.items():
            value = exact(count, orders)
            mean = sampled(count, orders, args.sample, args.seed) if args.sample else None
            row[label] = {
                "orders": list(el.drop_order_names(count, orders)),
                "expected": float(value),
                "expected_exact": str(value),
                "seeds_win": seeds_win(count, orders),
                "sampled": mean,
            }
            if label == "chosen" and value != Fraction(low):
                problems.append(f"{count}: the fast sum {low} is not the formats' {value}")
            if mean is not None:
                # the count of one play-out is at most the losers' matches: a loose bound on
                # its variance keeps the check from failing by chance
                bound = 5 * math.sqrt(float(value) * 2 * count / args.sample) + 1e-9
                if abs(mean - float(value)) > bound:
                    problems.append(
                        f"{count} {label}: sampled {mean:.3f}, exact {float(value):.3f}"
                    )
        rows.append(row)
        if count & (count - 1) == 0:
            print(
                f"{count:4d} teams: chosen {row['chosen']['expected']:.4f} {chosen}; "
                f"peer {row['peer']['expected']:.4f}; "
                f"fewest_possible {row['fewest_possible']['expected']:.4f}"
            )
    totals = {
        label: sum(r[label]["expected"] for r in rows)
        for label in ("chosen", "peer", "fewest_possible")
    }
    worse = [r["teams"] for r in rows if r["chosen"]["expected"] > r["peer"]["expected"]]
    if worse:
        problems.append(f"the chosen orders are worse than the peer's at {worse}")
    stale = {n: o for n, o in found.items() if o and DROP_TABLE.get(n, ()) != o}
    stale |= {n: () for n in DROP_TABLE if not found.get(n)}
    if args.write:
        write_table(found)
        print(f"wrote {TABLE_FILE}")
    elif stale:
        problems.append(f"DROP_TABLE differs from the search at {sorted(stale)}: run --write")
    RESULTS.mkdir(exist_ok=True)
    out = {
        "measure": "expected losers' bracket rematches, every match won 50/50 (exact)",
        "sizes": [SIZES.start, SIZES.stop - 1],
        "totals": totals,
        "seconds": round(time.perf_counter() - started, 1),
        "problems": problems,
        "rows": rows,
    }
    (RESULTS / "drop-orders.json").write_text(json.dumps(out, indent=1) + "\n")
    print(
        "sum over 4..128 teams: chosen {chosen:.2f}, peer {peer:.2f}, "
        "fewest_possible {fewest_possible:.2f}".format(**totals)
    )
    for problem in problems:
        print("PROBLEM:", problem)
    print(f"{out['seconds']} s; bench/results/drop-orders.json")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
