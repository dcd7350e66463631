"""Shared builders for the engine tests: positions as JSON dicts (docs/engine.md), moves, play."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings

import seep_core as sc

#: CI runs are reproducible: every property test is derandomized (no example database).
REPRODUCIBLE = {
    "deadline": None,
    "derandomize": True,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
}


def examples(n: int, *, shrink: bool = True) -> settings:
    """Return reproducible hypothesis settings running ``n`` examples.

    ``shrink=False`` is for the tests that replay whole deals: shrinking one of those takes
    minutes, and a derandomized failure reproduces as it is (the assertion names the move).
    """
    phases = list(Phase) if shrink else [p for p in Phase if p is not Phase.shrink]
    return settings(max_examples=n, phases=phases, **REPRODUCIBLE)


ORDER = {code: i for i, code in enumerate(sc.ordered_deck())}


def in_card_order(codes: list[str]) -> list[str]:
    return sorted(codes, key=ORDER.__getitem__)


def house(value: int, *sets: list[str], owners: list[int]) -> dict[str, Any]:
    """Return a house in its JSON form, normalised like ``floor_of`` (any order is valid)."""
    return norm_house({"value": value, "sets": [list(s) for s in sets], "owners": list(owners)})


def norm_house(h: dict[str, Any]) -> dict[str, Any]:
    """Return a house with its sets, their cards and its owners in a fixed order.

    docs/engine.md fixes neither the order of a house's sets nor of its owners, so tests compare
    houses in this form.
    """
    sets = sorted((in_card_order(s) for s in h["sets"]), key=lambda s: [ORDER[c] for c in s])
    return {"value": h["value"], "sets": sets, "owners": sorted(h["owners"])}


def floor_of(deal_: sc.Deal) -> dict[str, Any]:
    """Return the floor of a position with everything in a fixed order (see ``norm_house``)."""
    floor = deal_.to_dict()["floor"]
    houses = sorted((norm_house(h) for h in floor["houses"]), key=lambda h: h["value"])
    return {"loose": in_card_order(floor["loose"]), "houses": houses}


def position(
    *,
    hands: list[list[str]] | None = None,
    loose: list[str] | None = None,
    houses: list[dict[str, Any]] | None = None,
    to_play: int | None = 0,
    phase: str = "play",
    dealer: int = 3,
    bid: int | None = 9,
    plays: int = 10,
    stock: list[str] | None = None,
    piles: list[list[str]] | None = None,
    sweeps: list[list[int]] | None = None,
    last_capture: int | None = None,
    rules: sc.Rules | None = None,
) -> dict[str, Any]:
    """Return a full position dict (docs/engine.md); by default seat 0 is to play in phase play."""
    out: dict[str, Any] = {
        "dealer": dealer,
        "bid": bid,
        "phase": phase,
        "to_play": to_play,
        "plays": plays,
        "hands": hands if hands is not None else [[], [], [], []],
        "stock": stock or [],
        "floor": {"loose": loose or [], "houses": houses or []},
        "piles": piles or [[], []],
        "sweeps": sweeps or [[], []],
        "last_capture": last_capture,
    }
    if rules is not None:
        out["rules"] = rules.to_dict()
    return out


def deal(**kwargs: Any) -> sc.Deal:
    """Return the Deal of ``position(**kwargs)``."""
    return sc.Deal.from_dict(position(**kwargs))


def throw(seat: int, card: str) -> dict[str, Any]:
    return {"seat": seat, "action": "throw", "card": card}


def capture(seat: int, card: str, *take: str) -> dict[str, Any]:
    return {"seat": seat, "action": "capture", "card": card, "take": list(take)}


def build(seat: int, card: str, value: int, *take: str) -> dict[str, Any]:
    return {"seat": seat, "action": "build", "card": card, "value": value, "take": list(take)}


def refused(deal_: sc.Deal, move: dict[str, Any], rule: str, code: str | None = None) -> None:
    """Assert that ``move`` is refused as illegal under ``rule`` (and with ``code``)."""
    with pytest.raises(sc.IllegalMove) as info:
        sc.apply(deal_, move)
    assert info.value.rule == rule, info.value
    if code is not None:
        assert info.value.code == code, info.value
    assert info.value.message  # a sentence for the player
    assert move not in sc.legal_moves(deal_)


def moves_of(deal_: sc.Deal, card: str, action: str | None = None) -> list[dict[str, Any]]:
    """Return the legal moves that play ``card`` (optionally only one action)."""
    return [
        m
        for m in sc.legal_moves(deal_)
        if m.get("card") == card and (action is None or m["action"] == action)
    ]


def takes(deal_: sc.Deal, card: str, action: str, value: int | None = None) -> list[list[str]]:
    """Return the sorted list of ``take`` lists the legal moves offer for a card and action."""
    return sorted(
        m["take"] for m in moves_of(deal_, card, action) if value is None or m.get("value") == value
    )


def floor_houses(deal_: sc.Deal) -> dict[int, dict[str, Any]]:
    """Return the houses on the floor by value, in their JSON form."""
    return {h["value"]: h for h in floor_of(deal_)["houses"]}


def all_cards(deal_: sc.Deal) -> list[str]:
    """Return every card code the position holds anywhere (hands, stock, floor, piles)."""
    d = deal_.to_dict()
    out = [c for h in d["hands"] for c in h] + list(d["stock"]) + list(d["floor"]["loose"])
    out += [c for h in d["floor"]["houses"] for s in h["sets"] for c in s]
    out += [c for p in d["piles"] for c in p]
    return out


RULE_VARIANTS = [
    sc.Rules(),
    sc.Rules(auto_join_sets=True),
    sc.Rules(max_houses=2),
    sc.Rules(auto_join_sets=True, max_houses=2),
    sc.Rules(sweep=30, first_sweep=10, last_sweep=20, minimum=0),
    sc.Rules(max_houses=1, minimum=50, bazzi_lead=50),
]


def shuffled_deck(seed: int) -> list[str]:
    """Return the 52 codes shuffled by a seeded generator."""
    deck = sc.ordered_deck()
    random.Random(seed).shuffle(deck)
    return deck


def random_game(rnd: random.Random, deal_: sc.Deal) -> tuple[list[sc.Deal], list[dict[str, Any]]]:
    """Play ``deal_`` to its end choosing uniformly among the legal moves; return the path."""
    path, moves = [deal_], []
    while legal := sc.legal_moves(deal_):
        move = rnd.choice(legal)
        deal_ = sc.apply(deal_, move)
        path.append(deal_)
        moves.append(move)
    return path, moves


def deck_starting_with(*codes: str) -> list[str]:
    """Return a full deck that deals ``codes`` first (S4 order) and the rest in card order."""
    rest = [c for c in sc.ordered_deck() if c not in codes]
    assert len(rest) + len(codes) == 52, "a card twice in the deck prefix"
    return [*codes, *rest]
