"""The central property: ``apply`` accepts a move exactly when ``legal_moves`` lists it.

On positions reached by random play under every rule variant, candidate moves are made for
each card in hand - a throw, captures and builds of every value 9-13 with many subsets of the
floor items (all subsets when there are few), near misses of the legal moves, and junk - and:

* ``apply`` accepts a candidate exactly when its normal form (take in card order, houses
  last, a build's own target house left out, every single loose card of a build's value
  added) is in ``legal_moves``; then ``canonical_move`` returns that normal form;
* every listed move is accepted and is its own canonical form;
* an independent literal reading of docs/rules.md (``reference.judge``) agrees on every
  well-formed candidate, and on the houses and loose cards that an accepted one leaves.
"""

import json
import random
from itertools import chain, combinations

from hypothesis import given
from hypothesis import strategies as st

import seep_core as sc
from tests.engine import reference
from tests.engine.helpers import RULE_VARIANTS, examples, floor_of, house, position
from tests.engine.test_errors import JUNK
from tests.engine.test_properties import RULES

ORDER = {code: i for i, code in enumerate(sc.ordered_deck())}


def normalise(loose: list[str], move: dict) -> dict:
    """Return the normal form of a well-formed card play (see the module docstring)."""
    if move["action"] not in ("capture", "build"):
        return move
    take = list(dict.fromkeys(move["take"]))
    if move["action"] == "build":
        target = f"H{move['value']}"
        take = [t for t in take if t != target]
        singles = [c for c in loose if reference.value(c) == move["value"]]
        take += [c for c in singles if c not in take]
    cards = sorted((t for t in take if t in ORDER), key=ORDER.get)
    houses = sorted((t for t in take if t not in ORDER), key=lambda h: int(h[1:]))
    return {**move, "take": cards + houses}


def key(move: dict) -> str:
    return json.dumps(move, sort_keys=True)


def floor_subsets(items: list[str], rnd: random.Random, limit: int) -> list[list[str]]:
    """Return every subset of ``items`` when there are few, else ``limit`` random ones."""
    if 2 ** len(items) <= limit:
        return [
            list(c)
            for c in chain.from_iterable(combinations(items, k) for k in range(len(items) + 1))
        ]
    return [rnd.sample(items, rnd.randint(0, min(len(items), 6))) for _ in range(limit)]


def near_misses(legal: list[dict], items: list[str], hand: list[str], rnd: random.Random):
    """Yield variations of legal moves that sit right at the boundary of legality."""
    for m in legal:
        if "take" not in m:
            continue
        for item in m["take"]:
            yield {**m, "take": [t for t in m["take"] if t != item]}
        for item in rnd.sample(items, min(2, len(items))):
            if item not in m["take"]:
                yield {**m, "take": [*m["take"], item]}
        yield {**m, "card": rnd.choice(hand)}
        if m["action"] == "build":
            yield {**m, "value": m["value"] + rnd.choice((-1, 1))}
            yield {k: v for k, v in m.items() if k != "value"} | {"action": "capture"}
        else:
            yield {**m, "action": "build", "value": rnd.randint(9, 13)}
        shuffled = m["take"][:]
        rnd.shuffle(shuffled)
        yield {**m, "take": shuffled}


def candidates(d: sc.Deal, legal: list[dict], rnd: random.Random, limit: int):
    pos = d.to_dict()
    seat = d.to_play
    hand = pos["hands"][seat]
    items = pos["floor"]["loose"] + [f"H{h['value']}" for h in pos["floor"]["houses"]]
    subsets = floor_subsets(items, rnd, limit)
    for card in rnd.sample(hand, min(len(hand), 5)):
        yield {"seat": seat, "action": "throw", "card": card}
        for take in subsets:
            yield {"seat": seat, "action": "capture", "card": card, "take": take}
            for value in range(9, 14):
                yield {"seat": seat, "action": "build", "card": card, "value": value, "take": take}
    yield from near_misses(legal, items, hand, rnd)


def check_position(d: sc.Deal, rnd: random.Random, limit: int = 16) -> int:
    """Check the equivalence on one position; return how many candidates were tried."""
    legal = sc.legal_moves(d)
    listed = {key(m) for m in legal}
    for m in legal:
        assert sc.canonical_move(d, m) == m
        sc.apply(d, m)
    pos = d.to_dict()
    tried = 0
    for move in candidates(d, legal, rnd, limit):
        tried += 1
        norm = normalise(pos["floor"]["loose"], move)
        try:
            after = sc.apply(d, move)
        except (sc.IllegalMove, sc.MalformedMove) as refusal:
            assert key(norm) not in listed, (move, refusal)
            verdict = reference.judge(pos, d.rules, move)
            assert not verdict.legal, (move, refusal, "the reference reading accepts it")
            continue
        assert key(norm) in listed, (move, "accepted but not listed")
        assert sc.canonical_move(d, move) == norm
        assert after == sc.apply(d, norm)
        verdict = reference.judge(pos, d.rules, move)
        assert verdict.legal, (move, f"the reference reading refuses it ({verdict.rule})")
        if after.phase != "over":
            got = {
                h["value"]: (frozenset(c for s in h["sets"] for c in s), frozenset(h["owners"]))
                for h in floor_of(after)["houses"]
            }
            assert got == verdict.houses, move
            assert set(floor_of(after)["loose"]) == verdict.loose, move
    return tried


def check_junk(d: sc.Deal, junk: list) -> None:
    listed = {key(m) for m in sc.legal_moves(d)}
    for move in junk:
        try:
            sc.apply(d, move)
        except (sc.IllegalMove, sc.MalformedMove):
            continue
        assert key(sc.canonical_move(d, move)) in listed


class TestApplyAcceptsExactlyTheLegalMoves:
    @examples(50, shrink=False)
    @given(
        deck=st.permutations(sc.ordered_deck()),
        dealer=st.integers(0, 3),
        rules=RULES,
        rnd=st.randoms(use_true_random=False),
        seed=st.integers(0, 2**32),
        junk=st.lists(JUNK, max_size=8),
    )
    def test_on_positions_reached_by_random_play(self, deck, dealer, rules, rnd, seed, junk):
        # hypothesis chooses the moves; a plain generator makes the (many) candidates quickly
        sampler = random.Random(seed)
        d = sc.new_deal(dealer, deck, rules)
        checked = 0
        while legal := sc.legal_moves(d):
            if d.phase in ("opening", "play") and (checked == 0 or sampler.random() < 0.1):
                check_position(d, sampler)
                check_junk(d, junk)
                checked += 1
            d = sc.apply(d, rnd.choice(legal))

    @examples(30, shrink=False)
    @given(seed=st.integers(0, 2**32), rules=st.sampled_from(RULE_VARIANTS))
    def test_on_positions_with_houses_of_every_kind(self, seed, rules):
        # random play rarely leaves several houses of mixed owners on a small floor: this
        # plays many deals and checks the positions that have two or more houses
        rnd = random.Random(seed)
        deck = sc.ordered_deck()
        rnd.shuffle(deck)
        d = sc.new_deal(rnd.randrange(4), deck, rules)
        checked = 0
        while legal := sc.legal_moves(d):
            if checked < 5 and (len(d.houses) >= 2 or (d.houses and rnd.random() < 0.2)):
                check_position(d, rnd, limit=32)
                checked += 1
            builds = [m for m in legal if m["action"] == "build"]
            d = sc.apply(d, rnd.choice(builds if builds and rnd.random() < 0.7 else legal))

    def test_on_the_worked_examples_of_rules_md(self):
        positions = [
            position(hands=[["JH", "5C"], ["2C"], [], []], loose=["2S", "3H", "5D", "6C"]),
            position(hands=[["8H", "KC"], ["2C"], [], []], loose=["AS", "3S", "5S", "7S", "8S"]),
            position(
                hands=[["KH", "3C", "AD"], ["KS"], [], []],
                houses=[
                    house(
                        13,
                        ["3S", "10H"],
                        ["4H", "4C", "5D"],
                        ["KD"],
                        ["AC", "2H", "2D", "2C", "6S"],
                        owners=[1],
                    )
                ],
            ),
            position(
                hands=[["3H", "QS", "2D"], ["9C"], [], ["QD"]],
                loose=["AH"],
                houses=[house(9, ["4S", "5S"], owners=[1]), house(12, ["5D", "7D"], owners=[3])],
            ),
            position(
                hands=[["4H", "9D", "AS"], ["9H"], ["9S"], []],
                loose=["5C", "3D", "6D"],
                houses=[house(9, ["9C"], ["4S", "5S"], owners=[1])],
            ),
            position(
                hands=[["2H", "JD", "AH"], ["9C"], ["9H", "JS"], []],
                loose=["5C", "6D", "JC"],
                houses=[house(9, ["4S", "5S"], owners=[2])],
                rules=sc.Rules(auto_join_sets=True),
            ),
        ]
        rnd = random.Random(7)
        for pos in positions:
            d = sc.Deal.from_dict(pos)
            assert check_position(d, rnd, limit=256) > 20
