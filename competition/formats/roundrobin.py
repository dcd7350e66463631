"""Round robin by the circle method, single or double, with byes and rotated tables.

Everybody meets everybody once per leg. With an odd number of entrants one sits out each
round (the bye), everybody exactly once per leg.

How the circle method pairs: the entrants stand on a circle of N places (N odd: all of
them; N even: all but the last, who stays in the middle). In round r the entrant at place
r meets the one in the middle (or, with an odd count, has the bye), and the entrants at
places r + j and r - j meet, for j = 1, 2, ... Each pair is at distance 2j on the circle
in exactly one round, so every pair meets exactly once.

How tables rotate (so a team sits at the same table again only when it must): a team plays
g games a leg at k tables, so some table sees it at least ceil(g / k) times, and that is
the bound we meet.

- Odd count: the pair at distance 2j sits at table j. A team is at distance j from the
  place of round r in exactly two rounds (r = x - j and r = x + j), so it sits at each
  table exactly twice a leg: the best possible (g = 2k).
- Even count: the same rule would leave the middle entrant at table 1 all along. Instead,
  in round r its pair swaps tables with the pair at distance s(r) = fold(2r) (2r mod N
  folded onto 0..k-1). When 3 does not divide N = n - 1 this keeps every team at most
  twice at a table (g = 2k - 1: one table once, the others twice), which is optimal.
  When 3 divides N (n = 4, 10, 16, ...) that rule fails, so a bounded search looks for
  an assignment meeting the bound (it finds one for n = 10); n = 4 has none at all (a
  proof by exhaustion is in the tests); for n = 16, 22, 28, ... the search gives up and a
  swap with fold(3r + 1) stands, which seats some teams three times at one table (one
  more than the bound): a known gap.

A double round robin plays the same rounds again with the teams' order (team 0 / team 1)
swapped and the tables mirrored (table t becomes table k + 1 - t), so a team's lone
visit in one leg is not to the table it visited once in the other where that matters
(n = 4: three times at each table over six games, the bound).

>>> rounds = round_robin([1, 2, 3, 4])
>>> [(p.a, p.b) for p in rounds[0].pairings]
[(2, 3), (4, 1)]
>>> len(round_robin([1, 2, 3], legs=2)), round_robin([1, 2, 3])[0].bye
(6, 1)
"""

from __future__ import annotations

from collections.abc import Sequence

from .common import Entrant, FormatError, Pairing, Round, check_entrants

#: how many search steps the even-count table search may take before the swap rule stands
SEARCH_BUDGET = 20_000
#: the largest even count the search is tried for (it recurses once per match)
SEARCH_MAX_TEAMS = 22


def round_robin(entrants: Sequence[Entrant], *, legs: int = 1) -> tuple[Round, ...]:
    """Return every round of a round robin (``legs=2``: double) among the entrants.

    ``entrants`` in seeding order; rounds are numbered from 1, and each round's pairings
    are listed by table.
    """
    teams = check_entrants(entrants)
    if type(legs) is not int or legs < 1:
        raise FormatError(f"legs is a whole number >= 1, not {legs!r}", code="bad_legs")
    leg = _one_leg(teams)
    last = len(teams) // 2 - 1  # the last table, 0-based
    out = []
    for number in range(legs):
        flip = number % 2 == 1
        for r, (pairs, tables, bye) in enumerate(leg):
            pairings = sorted(
                (
                    Pairing(last - t + 1, b, a) if flip else Pairing(t + 1, a, b)
                    for (a, b), t in zip(pairs, tables, strict=True)
                ),
                key=lambda p: p.table,
            )
            out.append(Round(number * len(leg) + r + 1, tuple(pairings), bye))
    return tuple(out)


def table_counts(rounds: Sequence[Round]) -> dict[tuple[Entrant, int], int]:
    """Return how many times each (entrant, table) occurs in the rounds."""
    counts: dict[tuple[Entrant, int], int] = {}
    for rnd in rounds:
        for p in rnd.pairings:
            for e in (p.a, p.b):
                counts[e, p.table] = counts.get((e, p.table), 0) + 1
    return counts


_Leg = list[tuple[list[tuple[Entrant, Entrant]], list[int], Entrant | None]]


def _fold(v: int, n: int) -> int:
    v %= n
    return min(v, n - v)


def _one_leg(teams: tuple[Entrant, ...]) -> _Leg:
    n = len(teams)
    if n % 2:
        # odd: all on the circle; place r has the bye; distance j -> table j - 1 (0-based)
        leg: _Leg = []
        for r in range(n):
            pairs = [(teams[(r + j) % n], teams[(r - j) % n]) for j in range(1, n // 2 + 1)]
            leg.append((pairs, list(range(len(pairs))), teams[r]))
        return leg
    m = n - 1  # places on the circle; teams[-1] stays in the middle
    middle = teams[-1]
    slot_pairs: list[list[tuple[Entrant, Entrant]]] = []
    for r in range(m):
        centre = (middle, teams[r]) if r % 2 == 0 else (teams[r], middle)
        others = [(teams[(r + j) % m], teams[(r - j) % m]) for j in range(1, n // 2)]
        slot_pairs.append([centre, *others])
    tables = _swap_rule(m, n // 2, 3 if m % 3 == 0 else 2, 1 if m % 3 == 0 else 0)
    if m % 3 == 0 and 4 < n <= SEARCH_MAX_TEAMS:
        found = _search_tables(slot_pairs, n // 2, teams)
        if found is not None:
            tables = found
    return [(pairs, tables[r], None) for r, pairs in enumerate(slot_pairs)]


def _swap_rule(m: int, k: int, step: int, offset: int) -> list[list[int]]:
    """Return per round the table of each slot: slot 0 (the middle) trades with
    fold(step * r + offset)."""
    out = []
    for r in range(m):
        s = _fold(step * r + offset, m)
        row = list(range(k))
        row[0], row[s] = row[s], row[0]
        out.append(row)
    return out


def _search_tables(
    slot_pairs: list[list[tuple[Entrant, Entrant]]], k: int, teams: tuple[Entrant, ...]
) -> list[list[int]] | None:
    """Return tables seating nobody more than twice at one table, or None within the budget.

    A depth-first search, round by round, match by match (the match with the fewest free
    tables first), trying the tables its teams have used least; deterministic.
    """
    index = {t: i for i, t in enumerate(teams)}
    counts = [[0] * k for _ in teams]
    rounds = len(slot_pairs)
    tables: list[list[int]] = [[-1] * k for _ in range(rounds)]
    steps = 0

    def place(r: int, used: list[bool], placed: int) -> bool:
        nonlocal steps
        steps += 1
        if steps > SEARCH_BUDGET:
            raise _OutOfBudget
        if placed == k:
            return r + 1 == rounds or place(r + 1, [False] * k, 0)
        best, options = -1, list[int]()
        for i, (a, b) in enumerate(slot_pairs[r]):
            if tables[r][i] != -1:
                continue
            ia, ib = index[a], index[b]
            free = [t for t in range(k) if not used[t] and counts[ia][t] < 2 and counts[ib][t] < 2]
            if best == -1 or len(free) < len(options):
                best, options = i, free
                if not free:
                    return False
        a, b = slot_pairs[r][best]
        ia, ib = index[a], index[b]
        options.sort(key=lambda t: (counts[ia][t] + counts[ib][t], (t - best) % k))
        for t in options:
            used[t], tables[r][best] = True, t
            counts[ia][t] += 1
            counts[ib][t] += 1
            if place(r, used, placed + 1):
                return True
            used[t], tables[r][best] = False, -1
            counts[ia][t] -= 1
            counts[ib][t] -= 1
        return False

    try:
        return tables if place(0, [False] * k, 0) else None
    except _OutOfBudget:
        return None


class _OutOfBudget(Exception):
    pass
