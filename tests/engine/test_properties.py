"""Properties of whole random deals: conservation, invariants, round trips, replay, scores.

Each example shuffles a deck, picks a dealer and rule variants, and plays the deal to its end
choosing at random among ``legal_moves``; every position on the way is checked.
"""

import copy
import json

from hypothesis import given
from hypothesis import strategies as st

import seep_core as sc
from tests.engine.helpers import all_cards, examples

RULES = st.builds(
    sc.Rules,
    sweep=st.sampled_from([50, 0, 30]),
    first_sweep=st.sampled_from([25, 0, 10]),
    last_sweep=st.sampled_from([0, 20]),
    minimum=st.integers(0, 50),
    bazzi_lead=st.sampled_from([100, 50]),
    auto_join_sets=st.booleans(),
    max_houses=st.sampled_from([None, None, 1, 2, 3]),
)
ORDER = {code: i for i, code in enumerate(sc.ordered_deck())}
VALUE = {code: i // 4 + 1 for i, code in enumerate(sc.ordered_deck())}


def house_cards(house):
    return [c for s in house["sets"] for c in s]


def check_position(d: sc.Deal, deck: list[str]) -> None:
    """Check the invariants every position of a full deal keeps."""
    pos = d.to_dict()
    # 52 cards conserved: hands + stock + loose + houses + piles
    assert sorted(all_cards(d), key=ORDER.get) == sorted(deck, key=ORDER.get)
    # round trip through the JSON form
    assert sc.Deal.from_dict(json.loads(json.dumps(pos))) == d
    floor = pos["floor"]
    values = [h["value"] for h in floor["houses"]]
    assert len(values) == len(set(values)), "two houses of one value (H3)"
    assert not {VALUE[c] for c in floor["loose"]} & set(values), "loose card beside house (H4)"
    for h in floor["houses"]:
        assert 9 <= h["value"] <= 13
        assert len(house_cards(h)) >= 2
        assert all(sum(VALUE[c] for c in s) == h["value"] for s in h["sets"])
        if d.phase in ("opening", "play"):
            for owner in h["owners"]:
                assert any(VALUE[c] == h["value"] for c in pos["hands"][owner]), "T2"
    if d.rules.max_houses is not None:
        assert len(values) <= d.rules.max_houses, "V5"

    legal = sc.legal_moves(d)
    if d.phase in ("bid", "opening", "play"):
        assert legal, "the player in turn always has a legal move"
        assert all(m["seat"] == d.to_play for m in legal)
    else:
        assert legal == []
        assert d.to_play is None
    encoded = [json.dumps(m, sort_keys=True) for m in legal]
    assert len(encoded) == len(set(encoded)), "legal_moves lists a move twice"
    for m in legal:
        take = m.get("take", [])
        cards = [t for t in take if t in ORDER]
        houses = [t for t in take if t not in ORDER]
        assert take == sorted(cards, key=ORDER.get) + sorted(houses, key=lambda h: int(h[1:]))
    if d.phase == "opening":
        for m in legal:
            assert m.get("value") == d.bid if m["action"] == "build" else VALUE[m["card"]] == d.bid


def check_step(before: sc.Deal, move: dict, after: sc.Deal) -> None:
    """Check what one move changes: plays, piles (C3), sweeps (W1-W2), dealing (S4)."""
    b, a = before.to_dict(), after.to_dict()
    if move["action"] in ("bid", "redeal"):
        assert a["plays"] == b["plays"] == 0
        assert a["piles"] == b["piles"]
        return
    assert a["plays"] == b["plays"] + 1
    team = move["seat"] % 2
    swept = False
    if move["action"] == "capture" and after.phase != "over":
        took = {t for t in move["take"] if t in ORDER} | {move["card"]}
        for h in b["floor"]["houses"]:
            if f"H{h['value']}" in move["take"]:
                took |= set(house_cards(h))
        assert set(a["piles"][team]) == set(b["piles"][team]) | took, "C3"
        assert a["piles"][1 - team] == b["piles"][1 - team]
        assert a["last_capture"] == team
        swept = not a["floor"]["loose"] and not a["floor"]["houses"]
    elif move["action"] == "capture":
        swept = not (set(b["floor"]["loose"]) - set(move["take"])) and all(
            f"H{h['value']}" in move["take"] for h in b["floor"]["houses"]
        )
    elif after.phase != "over":
        assert a["piles"] == b["piles"]
    rules = before.rules
    worth = 0
    if swept:
        if after.phase == "over":
            worth = rules.last_sweep
        elif before.phase == "opening":
            worth = rules.first_sweep
        else:
            worth = rules.sweep
    expected = [list(s) for s in b["sweeps"]]
    if worth:
        expected[team].append(worth)
    assert a["sweeps"] == expected, "W1-W2"
    if before.phase == "opening":
        sizes = [len(h) for h in a["hands"]]
        bidder = before.bidder
        assert sizes[bidder] == 11
        assert sorted(sizes) == [11, 12, 12, 12]
        assert after.to_play == (bidder + 1) % 4
        assert a["stock"] == []


def check_end(d: sc.Deal, dealer: int, deck: list[str]) -> None:
    pos = d.to_dict()
    if d.phase == "redealt":
        assert all(sc.Card.parse(c).value <= 8 for c in deck[:4]), "B2 only without a high card"
        assert sc.score(d)["total"] == [0, 0]
        return
    assert any(sc.Card.parse(c).value > 8 for c in deck[:4])
    assert d.phase == "over"
    assert pos["plays"] == 48
    assert all(h == [] for h in pos["hands"]) and pos["stock"] == []
    assert pos["floor"]["houses"] == [], "E1: legal play leaves no house"
    result = sc.score(d)
    if pos["last_capture"] is not None:
        assert pos["floor"]["loose"] == []
        assert sum(result["points"]) == 100
    assert result["total"] == [
        p + sum(s) for p, s in zip(result["points"], result["sweeps"], strict=True)
    ]
    first = [v for s in result["sweeps"] for v in s if v == d.rules.first_sweep]
    if d.rules.first_sweep not in (d.rules.sweep, d.rules.last_sweep):
        assert len(first) <= 1
        if first:
            assert d.rules.first_sweep in result["sweeps"][((dealer + 1) % 4) % 2]


def play_through(deck, dealer, rules, rnd):
    d = sc.new_deal(dealer, deck, rules)
    start = d
    moves = []
    check_position(d, deck)
    while legal := sc.legal_moves(d):
        move = rnd.choice(legal)
        snapshot, move_copy = d.to_dict(), copy.deepcopy(move)
        after = sc.apply(d, move)
        assert d.to_dict() == snapshot, "apply mutated the position"
        assert move == move_copy, "apply mutated the move"
        assert sc.canonical_move(d, move) == move
        check_step(d, move, after)
        check_position(after, deck)
        moves.append(move)
        d = after
    return start, d, moves


class TestWholeDeals:
    @examples(120, shrink=False)
    @given(
        deck=st.permutations(sc.ordered_deck()),
        dealer=st.integers(0, 3),
        rules=RULES,
        rnd=st.randoms(use_true_random=False),
    )
    def test_random_deals_keep_every_invariant(self, deck, dealer, rules, rnd):
        start, end, moves = play_through(deck, dealer, rules, rnd)
        check_end(end, dealer, deck)
        assert sc.replay(start, moves) == end
        assert sc.replay(sc.new_deal(dealer, deck, rules), json.loads(json.dumps(moves))) == end

    @examples(40, shrink=False)
    @given(
        seed=st.integers(0, 2**32), dealer=st.integers(0, 3), rnd=st.randoms(use_true_random=False)
    )
    def test_deals_whose_bidder_holds_a_high_card_always_play_48_cards(self, seed, dealer, rnd):
        deck = sc.ordered_deck()
        rnd.shuffle(deck)
        high = next(i for i, c in enumerate(deck) if sc.Card.parse(c).value > 8)
        deck[0], deck[high] = deck[high], deck[0]
        _, end, moves = play_through(deck, dealer, sc.Rules(), rnd)
        assert end.phase == "over"
        assert len(moves) == 49  # the bid and 48 plays
        assert [m["seat"] for m in moves[:2]] == [(dealer + 1) % 4] * 2
