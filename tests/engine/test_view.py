"""view(deal, seat): what one seat may see (docs/engine.md "Positions"), never a hidden card."""

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import seep_core as sc
from tests.engine.helpers import (
    RULE_VARIANTS,
    all_cards,
    deal,
    deck_starting_with,
    examples,
    house,
    random_game,
    shuffled_deck,
)


def hidden_codes(d: sc.Deal, seat: int | None) -> set[str]:
    """Return the codes ``seat`` may not see: other hands, the stock, a face-down floor."""
    pos = d.to_dict()
    visible = {c for p in pos["piles"] for c in p}
    if seat is not None:
        visible |= set(pos["hands"][seat])
    if d.phase == "redealt":
        visible |= set(pos["hands"][d.bidder])  # B2: the bidder shows the hand
    if d.phase not in ("bid", "redealt"):
        visible |= set(pos["floor"]["loose"])
        visible |= {c for h in pos["floor"]["houses"] for s in h["sets"] for c in s}
    return set(all_cards(d)) - visible


def assert_view_hides(d: sc.Deal, seat: int | None) -> None:
    v = sc.view(d, seat)
    text = json.dumps(v)
    for code in hidden_codes(d, seat):
        assert f'"{code}"' not in text, (code, seat, v)
    pos = d.to_dict()
    assert v["hand_sizes"] == [len(h) for h in pos["hands"]]
    assert v["stock"] is None
    for s in range(4):
        if s == seat or (d.phase == "redealt" and s == d.bidder):
            assert v["hands"][s] == pos["hands"][s]
        else:
            assert v["hands"][s] is None
    if d.phase in ("bid", "redealt"):
        assert v["floor"] is None
    else:
        assert v["floor"] == pos["floor"]
    assert v["piles"] == pos["piles"]
    for key in ("dealer", "bid", "phase", "to_play", "plays", "sweeps", "last_capture"):
        assert v[key] == pos[key]


PLAY = deal(
    hands=[["AS", "9H"], ["KS", "2C"], ["QD"], ["10D", "3C"]],
    loose=["4H", "7C"],
    houses=[house(9, ["4S", "5S"], owners=[0])],
    piles=[["JS"], ["AH"]],
)


class TestViewOfOneSeat:
    @pytest.mark.parametrize("seat", [0, 1, 2, 3])
    def test_a_seat_sees_its_own_hand_and_no_other(self, seat):
        v = sc.view(PLAY, seat)
        assert v["hands"][seat] == PLAY.hand(seat)
        assert [h is None for h in v["hands"]] == [s != seat for s in range(4)]

    @pytest.mark.parametrize("seat", [0, 1, 2, 3, None])
    def test_no_hidden_card_code_appears_anywhere_in_the_view(self, seat):
        assert_view_hides(PLAY, seat)

    def test_the_hand_sizes_are_given_for_every_seat(self):
        assert sc.view(PLAY, 2)["hand_sizes"] == [2, 2, 1, 2]

    def test_the_public_view_shows_no_hand(self):
        v = sc.view(PLAY, None)
        assert v["hands"] == [None, None, None, None]
        assert v["hand_sizes"] == [2, 2, 1, 2]
        assert sc.view(PLAY) == v

    def test_the_floor_and_the_piles_are_public(self):
        v = sc.view(PLAY, None)
        assert v["floor"] == PLAY.to_dict()["floor"]
        assert v["piles"] == [["JS"], ["AH"]]

    @pytest.mark.parametrize("seat", [4, -1, "0", True, False, 0.0, [0]])
    def test_a_seat_that_is_not_0_to_3_or_none_is_refused(self, seat):
        with pytest.raises(sc.MalformedMove):
            sc.view(PLAY, seat)


class TestViewBeforeTheBid:
    DECK = deck_starting_with("9S", "JD", "JH", "3C", "4S", "5H", "6D", "7C")

    @pytest.mark.parametrize("seat", [0, 1, 2, 3, None])
    def test_the_stock_and_the_face_down_floor_are_never_visible(self, seat):
        d = sc.new_deal(3, self.DECK)
        v = sc.view(d, seat)
        assert v["floor"] is None
        assert v["stock"] is None
        assert v["hand_sizes"] == [4, 0, 0, 0]
        assert_view_hides(d, seat)

    def test_the_bidder_sees_only_the_four_cards_dealt(self):
        d = sc.new_deal(3, self.DECK)
        assert sc.view(d, 0)["hands"][0] == ["3C", "9S", "JH", "JD"]

    def test_after_a_redeal_the_bidders_hand_is_shown_but_not_the_floor(self):
        # B2: the bidder shows the hand; the floor stays face down and is thrown in
        d = sc.new_deal(3, deck_starting_with("8S", "8H", "AD", "2C", "KS", "KH", "KD", "KC"))
        d = sc.apply(d, {"seat": 0, "action": "redeal"})
        for seat in (1, 2, 3, None):
            v = sc.view(d, seat)
            assert v["hands"][0] == ["AD", "2C", "8S", "8H"]
            assert v["floor"] is None
            assert_view_hides(d, seat)


class TestViewsDuringWholeDeals:
    @examples(25, shrink=False)
    @given(
        seed=st.integers(0, 2**32), dealer=st.integers(0, 3), rules=st.sampled_from(RULE_VARIANTS)
    )
    def test_no_view_ever_shows_a_card_its_seat_may_not_see(self, seed, dealer, rules):
        path, _ = random_game(random.Random(seed), sc.new_deal(dealer, shuffled_deck(seed), rules))
        for d in [*path[:: max(1, len(path) // 12)], path[-1]]:
            for seat in (0, 1, 2, 3, None):
                assert_view_hides(d, seat)
