"""S: seats, partnerships and the deal (docs/rules.md S1-S4)."""

import pytest

import seep_core as sc
from tests.engine.helpers import capture, deal, shuffled_deck, throw


class TestS1SeatsAndTeams:
    def test_the_turn_passes_to_the_right_that_is_seat_plus_one(self):
        hands = [["2S"], ["3S"], ["4S"], ["5S"]]
        for seat in range(4):
            d = deal(hands=hands, to_play=seat, loose=["KH"])
            after = sc.apply(d, throw(seat, hands[seat][0]))
            assert after.to_play == (seat + 1) % 4

    def test_the_turn_skips_seats_that_hold_no_card(self):
        d = deal(hands=[["2S"], [], ["4S"], ["5S"]], to_play=0, loose=["KH"])
        assert sc.apply(d, throw(0, "2S")).to_play == 2

    @pytest.mark.parametrize(("seat", "team"), [(0, 0), (1, 1), (2, 0), (3, 1)])
    def test_seats_0_and_2_are_team_0_and_seats_1_and_3_team_1(self, seat, team):
        others = iter(["3S", "3H", "3D", "3C"])
        hands = [["7H", "2C"] if s == seat else [next(others)] for s in range(4)]
        d = deal(hands=hands, to_play=seat, loose=["7S", "KH"])
        after = sc.apply(d, capture(seat, "7H", "7S"))
        piles = after.to_dict()["piles"]
        assert sorted(piles[team]) == ["7H", "7S"]
        assert piles[1 - team] == []
        assert after.to_dict()["last_capture"] == team


class TestS3S4TheDeal:
    @pytest.mark.parametrize("dealer", [0, 1, 2, 3])
    def test_the_bidder_right_of_the_dealer_gets_the_first_four_cards(self, dealer):
        deck = shuffled_deck(dealer)
        d = sc.new_deal(dealer, deck)
        bidder = (dealer + 1) % 4
        pos = d.to_dict()
        assert pos["phase"] == "bid"
        assert pos["to_play"] == bidder
        assert pos["dealer"] == dealer
        assert sorted(pos["hands"][bidder]) == sorted(deck[0:4])
        assert all(pos["hands"][s] == [] for s in range(4) if s != bidder)
        assert sorted(pos["floor"]["loose"]) == sorted(deck[4:8])
        assert pos["stock"] == deck[8:]
        assert pos["plays"] == 0
        assert pos["bid"] is None

    def test_a_deck_with_a_card_twice_is_refused(self):
        deck = sc.ordered_deck()
        deck[51] = deck[0]
        with pytest.raises(sc.InvalidPosition):
            sc.new_deal(0, deck)

    @pytest.mark.parametrize(
        "deck", [[], sc.ordered_deck()[:51], [*sc.ordered_deck()[:51], "XX"], "AS" * 52, None]
    )
    def test_a_deck_that_is_not_52_known_codes_is_refused(self, deck):
        with pytest.raises(sc.InvalidPosition):
            sc.new_deal(0, deck)

    @pytest.mark.parametrize("dealer", [-1, 4, None, True, "0", 1.0])
    def test_a_dealer_that_is_not_a_seat_is_refused(self, dealer):
        with pytest.raises(sc.InvalidPosition):
            sc.new_deal(dealer, sc.ordered_deck())
