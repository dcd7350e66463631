"""Set arithmetic on floor cards: subsets by sum, splitting into sets of a value, maximal takes.

Everything works on bitmasks of cards (see ``cards``) and is memoized where the same question
recurs (the split of a multiset of values depends only on the values, not the suits).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .cards import RANK_MASK

_SUBSETS: dict[int, Sequence[Sequence[int]]] = {}
_SPLITS: dict[tuple[int, tuple[int, ...]], Any] = {}
_UNKNOWN: Any = object()
_CACHE_LIMIT = 1 << 16
_NONE: list[int] = []  # shared by every sum no subset reaches; never appended to


def subsets_by_sum(loose: int) -> Sequence[Sequence[int]]:
    """Return, for each sum 0..13, every non-empty subset of ``loose`` with that value sum.

    The result is memoized and shared, hence typed read-only.
    """
    found = _SUBSETS.get(loose)
    if found is not None:
        return found
    by_sum = [_NONE] * 14
    entries = [(0, 0)]  # (subset, sum) for every subset of the cards seen so far, sum <= 13
    mask = loose
    while mask:
        low = mask & -mask
        mask ^= low
        v = (low.bit_length() + 3) >> 2
        limit = 13 - v
        # plain loops: a floor holds a handful of loose cards, too few to pay for comprehensions
        for subset, total in entries[:]:
            if total <= limit:
                m, t = subset | low, total + v
                entries.append((m, t))
                group = by_sum[t]
                if group:
                    group.append(m)
                else:
                    by_sum[t] = [m]
    if len(_SUBSETS) >= _CACHE_LIMIT:
        _SUBSETS.clear()
    _SUBSETS[loose] = by_sum
    return by_sum


SUMS_LIMIT = (1 << 14) - 1


def subset_sums(mask: int) -> int:
    """Return the sums (up to 13) of the subsets of ``mask`` as a bitset; bit 0 is always set."""
    reach = 1
    while mask:
        low = mask & -mask
        reach = (reach | reach << ((low.bit_length() + 3) >> 2)) & SUMS_LIMIT
        mask ^= low
    return reach


def has_subset_sum(mask: int, target: int) -> bool:
    """Return whether some non-empty subset of the cards in ``mask`` sums to ``target``."""
    if mask & RANK_MASK[target]:
        return True
    reach = 1
    limit = (1 << (target + 1)) - 1
    while mask:
        low = mask & -mask
        reach = (reach | reach << ((low.bit_length() + 3) >> 2)) & limit
        mask ^= low
    return bool(reach >> target & 1)


def disjoint_unions(subsets: Iterable[int]) -> set[int]:
    """Return the union of every family of pairwise disjoint subsets (the empty one included)."""
    unions = {0}
    for s in subsets:
        unions |= {u | s for u in unions if not u & s}
    return unions


def maximal_unions(subsets: Sequence[int]) -> set[int]:
    """Return the unions of disjoint families of ``subsets`` that leave none of them untouched.

    A union is maximal when every subset overlaps it: nothing of the value is left behind
    (C2, V4).
    """
    if len(subsets) == 1:
        return {subsets[0]}
    return {u for u in disjoint_unions(subsets) if all(s & u for s in subsets)}


def split(cards: int, target: int) -> tuple[int, ...] | None:
    """Return ``cards`` split into whole sets each summing to ``target`` (H2), or None.

    The split is deterministic: equal inputs give equal houses.
    """
    if not cards & (cards - 1):  # one card: a set only if it is worth the target alone
        return (cards,) if cards and (cards.bit_length() + 3) >> 2 == target else None
    # A card worth the target is a set on its own (values are positive); they come first,
    # highest card first, as the search below would place them.
    sets = []
    alone = cards & RANK_MASK[target]
    while alone:
        high = 1 << (alone.bit_length() - 1)
        sets.append(high)
        alone ^= high
    rest = cards & ~RANK_MASK[target]
    if not rest:
        return tuple(sets)
    # most takes are then a single set: their values sum to the target, no search is needed
    total = 0
    mask = rest
    while mask:
        low = mask & -mask
        total += (low.bit_length() + 3) >> 2
        mask ^= low
    if total == target:
        sets.append(rest)
        return tuple(sets)
    if total % target:
        return None
    ordered = []  # the cards by value descending (highest card first), as bits
    values = []
    mask = rest
    while mask:
        top = mask.bit_length() - 1
        high = 1 << top
        ordered.append(high)
        values.append((top >> 2) + 1)
        mask ^= high
    key = (target, tuple(values))
    groups = _SPLITS.get(key, _UNKNOWN)
    if groups is _UNKNOWN:
        groups = _split_values(key[1], target)
        if len(_SPLITS) >= _CACHE_LIMIT:
            _SPLITS.clear()
        _SPLITS[key] = groups
    if groups is None:
        return None
    for group in groups:  # plain loops: a few small groups do not pay for comprehensions
        s = 0
        for i in group:
            s |= ordered[i]
        sets.append(s)
    return tuple(sets)


def _split_values(values: tuple[int, ...], target: int) -> tuple[tuple[int, ...], ...] | None:
    """Partition positions of descending ``values`` into groups each summing to ``target``."""
    n = len(values)
    if n == 0 or sum(values) % target or values[0] > target:
        return None
    full = (1 << n) - 1

    def solve(used: int) -> list[int] | None:
        if used == full:
            return []
        first = (~used & full & -(~used & full)).bit_length() - 1
        start = used | 1 << first
        for group in completions(first + 1, target - values[first], start):
            rest = solve(start | group)
            if rest is not None:
                return [(1 << first) | group, *rest]
        return None

    def completions(i: int, need: int, used: int) -> Iterable[int]:
        if need == 0:
            yield 0
            return
        previous = -1
        for j in range(i, n):
            v = values[j]
            if used >> j & 1 or v > need or v == previous:
                continue  # equal values are interchangeable: try each value once per level
            previous = v
            for rest in completions(j + 1, need - v, used | 1 << j):
                yield (1 << j) | rest

    found = solve(0)
    if found is None:
        return None
    return tuple(tuple(i for i in range(n) if group >> i & 1) for group in found)
