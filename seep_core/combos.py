"""Set arithmetic on floor cards: subsets by sum, splitting into sets of a value, maximal takes.

Everything works on bitmasks of cards (see ``cards``) and is memoized where the same question
recurs (the split of a multiset of values depends only on the values, not the suits).
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards import BIT, VALUE

_SUBSETS: dict[int, tuple[tuple[int, ...], ...]] = {}
_SPLITS: dict[tuple[int, tuple[int, ...]], tuple[int, ...] | None] = {}
_CACHE_LIMIT = 1 << 16


def subsets_by_sum(loose: int) -> tuple[tuple[int, ...], ...]:
    """Return, for each sum 0..13, every non-empty subset of ``loose`` with that value sum."""
    found = _SUBSETS.get(loose)
    if found is not None:
        return found
    cards: list[int] = []
    mask = loose
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    by_sum: list[list[int]] = [[] for _ in range(14)]
    n = len(cards)

    def grow(start: int, subset: int, total: int) -> None:
        for j in range(start, n):
            card = cards[j]
            new_total = total + VALUE[card]
            if new_total > 13:
                return  # cards ascend in value, so every later one overshoots too
            new_subset = subset | BIT[card]
            by_sum[new_total].append(new_subset)
            grow(j + 1, new_subset, new_total)

    grow(0, 0, 0)
    result = tuple(tuple(s) for s in by_sum)
    if len(_SUBSETS) >= _CACHE_LIMIT:
        _SUBSETS.clear()
    _SUBSETS[loose] = result
    return result


def has_subset_sum(mask: int, target: int) -> bool:
    """Return whether some non-empty subset of the cards in ``mask`` sums to ``target``."""
    reach = 1
    limit = (1 << (target + 1)) - 1
    while mask:
        low = mask & -mask
        reach = (reach | reach << VALUE[low.bit_length() - 1]) & limit
        mask ^= low
    return bool(reach >> target & 1)


def disjoint_unions(subsets: Iterable[int]) -> set[int]:
    """Return the union of every family of pairwise disjoint subsets (the empty one included)."""
    unions = {0}
    for s in subsets:
        unions |= {u | s for u in unions if not u & s}
    return unions


def maximal_unions(subsets: tuple[int, ...], within: int = -1) -> set[int]:
    """Return the unions of disjoint families of ``subsets`` that leave none of them untouched.

    Only subsets inside ``within`` are used. A union is maximal when every subset overlaps it:
    nothing of the value is left behind (C2, V4).
    """
    usable = [s for s in subsets if s & within == s]
    return {u for u in disjoint_unions(usable) if all(s & u for s in usable)}


def split(cards: int, target: int) -> tuple[int, ...] | None:
    """Return ``cards`` split into whole sets each summing to ``target`` (H2), or None.

    The split is deterministic: equal inputs give equal houses.
    """
    ordered = []
    mask = cards
    while mask:
        low = mask & -mask
        ordered.append(low.bit_length() - 1)
        mask ^= low
    # by value descending, then card order; a card's index orders it within its value
    ordered.sort(key=lambda c: (-(c >> 2), c))
    values = tuple(VALUE[c] for c in ordered)
    key = (target, values)
    if key in _SPLITS:
        groups = _SPLITS[key]
    else:
        groups = _split_values(values, target)
        if len(_SPLITS) >= _CACHE_LIMIT:
            _SPLITS.clear()
        _SPLITS[key] = groups
    if groups is None:
        return None
    sets = []
    for group in groups:
        s = 0
        for i, card in enumerate(ordered):
            if group >> i & 1:
                s |= BIT[card]
        sets.append(s)
    return tuple(sets)


def _split_values(values: tuple[int, ...], target: int) -> tuple[int, ...] | None:
    """Partition positions of descending ``values`` into groups summing to target (index masks)."""
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
    return None if found is None else tuple(found)
