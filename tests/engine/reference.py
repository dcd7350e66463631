"""An independent, slow and literal reading of the play rules (docs/rules.md), to check the engine.

It works on the JSON form of a position (docs/engine.md) and shares no code with ``seep_core``:
``judge(position, rules, move)`` says whether a well-formed card play is legal and, if so,
what the floor becomes. Subsets are enumerated by brute force, so it is meant for the small
floors that random play produces.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Any

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def value(code: str) -> int:
    """Return the capture value of a card code (A=1 ... K=13)."""
    return RANKS.index(code[:-1]) + 1


@cache
def _some_subset_sums(values: tuple[int, ...], target: int) -> bool:
    reachable = {0}  # sums of the subsets seen so far (the empty one included)
    for v in values:
        reachable |= {r + v for r in reachable if r + v <= target}
    return target in reachable


def some_subset_sums_to(cards: list[str] | set[str], target: int) -> bool:
    """Return whether one or more of ``cards`` sum to ``target`` (C1, C2, T1)."""
    return _some_subset_sums(tuple(sorted(value(c) for c in cards)), target)


@cache
def _splits(values: tuple[int, ...], target: int) -> bool:
    if not values:
        return True
    first, rest = values[0], values[1:]
    for size in range(len(rest) + 1):
        for idx in combinations(range(len(rest)), size):
            if first + sum(rest[i] for i in idx) == target:
                left = tuple(v for i, v in enumerate(rest) if i not in idx)
                if _splits(left, target):
                    return True
    return False


def splits_into_sets(cards: list[str] | set[str], target: int) -> bool:
    """Return whether ``cards`` (at least one) split into whole sets each summing to target."""
    values = tuple(sorted((value(c) for c in cards), reverse=True))
    return bool(values) and _splits(values, target)


@dataclass
class Verdict:
    """Whether a play is legal; if refused, the rule; if legal, the houses afterwards."""

    legal: bool
    rule: str = ""
    houses: dict[int, tuple[frozenset[str], frozenset[int]]] | None = None  # cards, owners
    loose: frozenset[str] = frozenset()


def refuse(rule: str) -> Verdict:
    return Verdict(False, rule)


def judge(pos: dict[str, Any], rules: Any, move: dict[str, Any]) -> Verdict:
    """Judge a well-formed throw, capture or build by the player in turn (docs/rules.md B-H, V)."""
    seat, phase, bid = pos["to_play"], pos["phase"], pos["bid"]
    if phase not in ("opening", "play"):
        return refuse("phase")
    opening = phase == "opening"
    hand = pos["hands"][seat]
    card = move["card"]
    v = value(card)
    rest = [c for c in hand if c != card]
    loose = set(pos["floor"]["loose"])
    houses = {
        h["value"]: (
            frozenset(c for s in h["sets"] for c in s),
            frozenset(h["owners"]),
            len(h["sets"]) > 1,
        )
        for h in pos["floor"]["houses"]
    }
    partner = (seat + 2) % 4
    take = move.get("take", [])
    taken_loose = {t for t in take if not t.startswith("H")}
    named = [int(t[1:]) for t in take if t.startswith("H")]

    def holds(target: int) -> bool:
        return any(value(c) == target for c in rest)

    after = {k: (cards, owners) for k, (cards, owners, _) in houses.items()}
    action = move["action"]
    if action == "throw":
        if opening and v != bid:
            return refuse("B4")
        if v in houses:
            return refuse("H4")
        if some_subset_sums_to(loose, v):
            return refuse("T1")
        loose_after = loose | {card}
    elif action == "capture":
        if opening and v != bid:
            return refuse("B4")
        if any(n != v for n in named):
            return refuse("C1")
        if v in houses and v not in named:
            return refuse("C2")
        if not taken_loose and not named:
            return refuse("C2")
        if taken_loose and not splits_into_sets(taken_loose, v):
            return refuse("C1")
        if some_subset_sums_to(loose - taken_loose, v):
            return refuse("C2")
        after.pop(v, None)
        loose_after = loose - taken_loose
    elif action == "build":
        target_value = move["value"]
        if not 9 <= target_value <= 13:
            return refuse("H1")
        if opening and target_value != bid:
            return refuse("B4")
        if v in houses and target_value != v:
            return refuse("H4")
        named = [n for n in named if n != target_value]
        singles = {c for c in loose if value(c) == target_value}
        joining = taken_loose | singles
        if named:  # breaking (H7)
            if opening:
                return refuse("B4")
            if len(named) != 1:
                return refuse("H7")
            cards, owners, cemented = houses[named[0]]
            if cemented or seat in owners or named[0] + v != target_value:
                return refuse("H7")
            if rules.auto_join_sets:
                if joining and not splits_into_sets(joining, target_value):
                    return refuse("V4")
                if some_subset_sums_to(loose - joining, target_value):
                    return refuse("V4")
            elif joining != singles:
                return refuse("H7")
            if not holds(target_value):
                return refuse("H7")
            del after[named[0]]
            new_cards = cards | {card} | joining
            new_owners = {seat}
            if target_value in after:
                old_cards, old_owners = after[target_value]
                new_cards |= old_cards
                new_owners |= old_owners
            after[target_value] = (frozenset(new_cards), frozenset(new_owners))
        else:  # creating or adding (H5, H8)
            if v > target_value:
                return refuse("H5")
            if not splits_into_sets(joining | {card}, target_value):
                return refuse("H5")
            if rules.auto_join_sets and some_subset_sums_to(loose - joining, target_value):
                return refuse("V4")
            if target_value not in houses:
                if not joining:
                    return refuse("H5")
                if rules.max_houses is not None and len(houses) >= rules.max_houses:
                    return refuse("V5")
                if not holds(target_value):
                    return refuse("H5")
                after[target_value] = (frozenset(joining | {card}), frozenset({seat}))
            else:
                cards, owners, _ = houses[target_value]
                if partner in owners and seat not in owners:
                    new_owners = owners  # free, and no ownership (H8)
                else:
                    if not holds(target_value):
                        return refuse("T2" if seat in owners else "H8")
                    new_owners = owners | {seat}
                after[target_value] = (cards | joining | {card}, frozenset(new_owners))
        loose_after = loose - joining
    else:
        return refuse("action")
    # T2, whatever the play: the player keeps a key of every house they still own
    for house_value, (_, owners) in after.items():
        if seat in owners and not holds(house_value):
            return refuse("T2")
    return Verdict(True, houses=after, loose=frozenset(loose_after))
