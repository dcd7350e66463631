"""The order a double-elimination bracket's drop rounds take the winners' losers in.

Losers of each winners' round after the first drop in against the survivors of the losers'
bracket, in an order per drop round (``ORDERINGS``, brackets-manager's names): measured by
the rematches that actually happen (``DROP_TABLE``, ``expected_losers_rematches``), or the
rule of the brackets drawn before the table ("fewest_possible": the fewest pairs that may
have met, ``_possible_rematches``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from .brackets import Bracket, DropOrders, LoserOf, RawFixture, Seed, WinnerOf, bracket_size
from .common import FormatError
from .drop_table import DROP_TABLE


def _natural(m: int) -> list[int]:
    return list(range(1, m + 1))


def _reverse(m: int) -> list[int]:
    return list(range(m, 0, -1))


def _half_shift(m: int) -> list[int]:
    h = m // 2
    return list(range(h + 1, m + 1)) + list(range(1, h + 1))


def _reverse_half_shift(m: int) -> list[int]:
    h = m // 2
    return list(range(h, 0, -1)) + list(range(m, h, -1))


def _pair_flip(m: int) -> list[int]:
    if m < 2:
        return _natural(m)
    return [x for i in range(1, m, 2) for x in (i + 1, i)]


def _inner_outer(m: int) -> list[int]:
    """Return brackets-manager's inner_outer: outer pair, inner pair, ... of each quarter."""
    if m <= 2:
        return _natural(m)
    q = m // 4
    outer = [list(range(1, q + 1)), list(range(3 * q + 1, m + 1))]
    inner = [list(range(q + 1, 2 * q + 1)), list(range(2 * q + 1, 3 * q + 1))]
    out: list[int] = []

    def take(part: list[list[int]], innermost: bool) -> None:
        if part[0] and part[1]:
            out.extend(
                (part[0].pop(), part[1].pop(0)) if innermost else (part[0].pop(0), part[1].pop())
            )

    for _ in range(max(1, q // 2)):
        take(outer, False)
        take(inner, True)
        take(outer, True)
        take(inner, False)
    return out


#: the orders a drop round's losers can come in (brackets-manager's names and definitions):
#: position i of the drop round takes the loser of winners' fixture ``order(m)[i - 1]``
ORDERINGS: dict[str, Callable[[int], list[int]]] = {
    "natural": _natural,
    "reverse": _reverse,
    "half_shift": _half_shift,
    "reverse_half_shift": _reverse_half_shift,
    "pair_flip": _pair_flip,
    "inner_outer": _inner_outer,
}

#: the orders the "fewest_possible" rule tries, in its order of preference
_FEWEST_POSSIBLE = ("reverse", "half_shift", "reverse_half_shift", "natural")
DROP_ORDERS: tuple[Callable[[int], list[int]], ...] = tuple(ORDERINGS[n] for n in _FEWEST_POSSIBLE)


def drop_order_names(
    count: int, drop_orders: DropOrders | tuple[str, ...] = "measured"
) -> tuple[str, ...]:
    """Return the order (a key of ``ORDERINGS``) of each drop round of a double-elimination
    bracket of ``count`` entrants: the losers of winners' round 2, 3, ... up to the final.

    The last drop round has one loser, so its order is "natural" whatever the rule (the
    old rule named it "reverse": the same one team); orders given as names and the table
    leave it out, and any other round left out too is "natural". Past the table's sizes
    (128 teams) "measured" takes the "fewest_possible" rule.

    >>> drop_order_names(16)
    ('reverse', 'reverse_half_shift', 'natural')
    >>> drop_order_names(16, "fewest_possible")
    ('reverse', 'reverse', 'reverse')
    """
    size, rounds = bracket_size(count)
    if drop_orders == "measured" and count > max(DROP_TABLE):
        drop_orders = "fewest_possible"  # beyond the sizes measured: the rule of before
    if isinstance(drop_orders, tuple) or drop_orders == "measured":
        chosen = DROP_TABLE.get(count, ()) if drop_orders == "measured" else drop_orders
        unknown = [name for name in chosen if name not in ORDERINGS]
        if unknown or len(chosen) > max(rounds - 1, 0):
            raise FormatError(
                f"{chosen!r} are not the orders of {max(rounds - 1, 0)} drop rounds",
                code="bad_drop_orders",
            )
        return chosen + ("natural",) * (rounds - 1 - len(chosen))
    if drop_orders == "fewest_possible":
        names: list[str] = []
        for t in range(2, rounds + 1):
            best: tuple[tuple[int, ...], str] | None = None
            for candidate in _FEWEST_POSSIBLE:
                trial = [*names, candidate] + [_FEWEST_POSSIBLE[0]] * (rounds - t)
                score = _possible_rematches(size, rounds, [ORDERINGS[n] for n in trial])
                if best is None or score < best[0]:
                    best = (score, candidate)
            assert best is not None
            names.append(best[1])
        return tuple(names)
    raise FormatError(f"no drop orders called {drop_orders!r}", code="bad_drop_orders")


def expected_losers_rematches(bracket: Bracket) -> Fraction:
    """Return the expected number of losers' bracket matches between two teams that have
    met already, every match won by either of its teams with probability 1/2 (exact).

    Two teams in a losers' bracket match can have met only in the winners' bracket (a
    losers' match sends its loser out), where the one that dropped first lost to the other:
    the loser of winners' fixture x met the loser of a later fixture y exactly when x's
    winner won every fixture on its way up to y and lost y, probability 2**-d for y d rounds
    above x. Which drop reaches a losers' slot depends only on losers' results, each
    reached with probability 1/2 per losers' match won, independently of the winners'.

    >>> from competition.formats import double_elimination
    >>> expected_losers_rematches(double_elimination([1, 2, 3, 4]))
    Fraction(1, 2)
    """
    part = {f.key: f.part for f in bracket.fixtures}
    # a winners' fixture -> the later winners' fixtures its winner may play, and how far up
    above: dict[str, dict[str, int]] = {}
    for f in reversed(bracket.fixtures):  # a fixture comes after the fixtures that feed it
        if f.part != "winners":
            continue
        up: dict[str, int] = {}
        if f.winner_to is not None and part[f.winner_to[0]] == "winners":
            parent = f.winner_to[0]
            up = {parent: 1, **{k: d + 1 for k, d in above[parent].items()}}
        above[f.key] = up
    # a losers' fixture -> the winners' fixtures its winner may have lost, each's probability
    # in units of 2**-depth (a team halves its chances per losers' match, at most depth times)
    depth = max((f.round for f in bracket.fixtures if f.part == "losers"), default=0) + 1
    one = 1 << depth
    reach: dict[str, dict[str, int]] = {}
    total = 0  # in units of 2**-(3 * depth): two probabilities and 2**-d, d < depth
    for f in bracket.fixtures:
        if f.part != "losers":
            continue
        sides = []
        for slot in (f.slot_a, f.slot_b):
            if isinstance(slot, LoserOf) and part[slot.fixture] == "winners":
                sides.append({slot.fixture: one})
            elif isinstance(slot, WinnerOf) and part[slot.fixture] == "losers":
                sides.append(reach[slot.fixture])
            else:
                raise FormatError(f"{f.key}: a losers' slot holds {slot!r}", code="bad_bracket")
        a, b = sides
        for x, px in a.items():
            for y, py in b.items():
                d = above[x].get(y) or above[y].get(x)
                if d:
                    total += (px * py) << (depth - d)
        merged = {x: p >> 1 for x, p in a.items()}
        for y, p in b.items():
            merged[y] = merged.get(y, 0) + (p >> 1)
        reach[f.key] = merged
    return Fraction(total, 1 << (3 * depth))


def losers_rounds(
    size: int, rounds: int, orders: Sequence[Callable[[int], list[int]]]
) -> list[RawFixture]:
    raw = []
    for i in range(1, size // 4 + 1):
        raw.append(
            RawFixture(f"L1-{i}", "losers", 1, LoserOf(f"W1-{2 * i - 1}"), LoserOf(f"W1-{2 * i}"))
        )
    for t in range(2, rounds + 1):
        drop = 2 * (t - 1)
        m = size // 2**t
        order = orders[t - 2](m)
        for i in range(1, m + 1):
            a = WinnerOf(f"L{drop - 1}-{i}")
            raw.append(
                RawFixture(f"L{drop}-{i}", "losers", drop, a, LoserOf(f"W{t}-{order[i - 1]}"))
            )
        if t < rounds:
            for i in range(1, m // 2 + 1):
                a, b = WinnerOf(f"L{drop}-{2 * i - 1}"), WinnerOf(f"L{drop}-{2 * i}")
                raw.append(RawFixture(f"L{drop + 1}-{i}", "losers", drop + 1, a, b))
    return raw


def _possible_rematches(
    size: int, rounds: int, orders: Sequence[Callable[[int], list[int]]]
) -> tuple[int, ...]:
    """Return per losers' round how many pairs of its teams' origins may have met already.

    An origin is the winners' fixture a team lost; two teams may have met when one's
    origin lies in the other's part of the winners' bracket (the blocks of seeds nest).
    """

    def block(key: str) -> tuple[int, int]:
        r, i = (int(x) for x in key[1:].split("-"))
        width = 2**r
        return (i - 1) * width, i * width

    origins: dict[str, list[tuple[int, int]]] = {}
    counts = [0] * (2 * rounds)
    for f in losers_rounds(size, rounds, orders):
        sides = []
        for slot in (f.slot_a, f.slot_b):
            assert slot is not None and not isinstance(slot, Seed)
            sides.append(
                [block(slot.fixture)] if isinstance(slot, LoserOf) else origins[slot.fixture]
            )
        for x0, x1 in sides[0]:
            for y0, y1 in sides[1]:
                if (x0 <= y0 and y1 <= x1) or (y0 <= x0 and x1 <= y1):
                    counts[f.round] += 1
        origins[f.key] = sides[0] + sides[1]
    return tuple(counts)
