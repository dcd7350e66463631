"""B: the bid, the redeal and the opening play (docs/rules.md B1-B5, with S4's dealing)."""

import pytest

import seep_core as sc
from tests.engine.helpers import (
    build,
    capture,
    deal,
    deck_starting_with,
    floor_of,
    refused,
    takes,
    throw,
)


def bid(seat, value):
    return {"seat": seat, "action": "bid", "value": value}


def redeal(seat):
    return {"seat": seat, "action": "redeal"}


def opening(hand, floor, value, dealer=3):
    """Return a deal in phase opening: the bidder (dealer + 1) holds ``hand``."""
    bidder = (dealer + 1) % 4
    hands = [[], [], [], []]
    hands[bidder] = hand
    return deal(
        hands=hands, loose=floor, phase="opening", bid=value, to_play=bidder, dealer=dealer, plays=0
    )


class TestB1Bid:
    def test_the_bidder_may_bid_the_value_of_each_card_above_8_held(self):
        d = sc.new_deal(3, deck_starting_with("9S", "JD", "JH", "3C"))
        assert sc.legal_moves(d) == [bid(0, 9), bid(0, 11)]

    def test_a_bid_makes_the_opening_phase_with_the_bidder_to_play(self):
        d = sc.apply(sc.new_deal(3, deck_starting_with("9S", "JD", "JH", "3C")), bid(0, 11))
        assert d.phase == "opening"
        assert d.bid == 11
        assert d.to_play == 0
        assert d.plays == 0

    def test_a_bid_without_a_card_of_that_value_is_refused(self):
        d = sc.new_deal(3, deck_starting_with("9S", "JD", "JH", "3C"))
        refused(d, bid(0, 10), "B1", "bid_without_card")
        refused(d, bid(0, 13), "B1", "bid_without_card")

    @pytest.mark.parametrize("value", [8, 14, 1, 0, -9])
    def test_a_bid_outside_9_to_13_is_refused(self, value):
        d = sc.new_deal(3, deck_starting_with("9S", "JD", "JH", "3C", "8S"))
        refused(d, bid(0, value), "B1")

    def test_only_the_bidder_bids(self):
        d = sc.new_deal(3, deck_starting_with("9S", "JD", "JH", "3C"))
        refused(d, bid(1, 9), "T0", "not_your_turn")

    def test_the_bidder_may_not_play_a_card_before_bidding(self):
        d = sc.new_deal(3, deck_starting_with("9S", "JD", "JH", "3C"))
        refused(d, throw(0, "3C"), "B1", "wrong_phase")

    def test_a_bid_may_not_be_made_twice(self):
        d = sc.apply(sc.new_deal(3, deck_starting_with("9S", "JD", "JH", "3C")), bid(0, 9))
        refused(d, bid(0, 11), "B1", "wrong_phase")


class TestB2Redeal:
    def test_a_bidder_with_no_card_above_8_can_only_claim_a_redeal(self):
        d = sc.new_deal(1, deck_starting_with("8S", "8H", "AD", "2C"))
        assert sc.legal_moves(d) == [redeal(2)]

    def test_the_redeal_throws_the_deal_in_without_score(self):
        d = sc.apply(sc.new_deal(1, deck_starting_with("8S", "8H", "AD", "2C")), redeal(2))
        assert d.phase == "redealt"
        assert d.to_play is None
        assert d.plays == 0
        assert sc.legal_moves(d) == []
        assert sc.score(d) == {"points": [0, 0], "sweeps": [[], []], "total": [0, 0]}
        refused(d, redeal(2), "B2", "deal_over")

    def test_a_bidder_with_a_card_above_8_may_not_claim_a_redeal(self):
        d = sc.new_deal(1, deck_starting_with("8S", "9H", "AD", "2C"))
        refused(d, redeal(2), "B2", "redeal_with_high_card")

    def test_a_bidder_with_no_card_above_8_may_not_bid(self):
        d = sc.new_deal(1, deck_starting_with("8S", "8H", "AD", "2C"))
        with pytest.raises(sc.IllegalMove) as info:
            sc.apply(d, bid(2, 9))
        assert info.value.rule in {"B1", "B2"}


class TestB3FloorTurnedUp:
    def test_the_floor_is_face_down_before_the_bid_and_face_up_after(self):
        deck = deck_starting_with("9S", "JD", "JH", "3C", "4S", "5H", "6D", "7C")
        d = sc.new_deal(3, deck)
        assert sc.view(d, 0)["floor"] is None
        after = sc.apply(d, bid(0, 9))
        assert sorted(sc.view(after, 0)["floor"]["loose"]) == sorted(["4S", "5H", "6D", "7C"])
        assert sorted(sc.view(after, None)["floor"]["loose"]) == sorted(["4S", "5H", "6D", "7C"])


class TestB4OpeningPlay:
    # bid 11; JS can capture 5H+6C; 9D could capture 6C+3D were it not the opening
    HAND = ["JS", "4H", "9D", "2C"]
    FLOOR = ["7S", "5H", "3D", "6C"]

    def test_the_opening_may_capture_with_a_card_of_the_bid_value(self):
        d = opening(self.HAND, self.FLOOR, 11)
        assert takes(d, "JS", "capture") == [["5H", "6C"]]
        after = sc.apply(d, capture(0, "JS", "5H", "6C"))
        assert sorted(after.to_dict()["piles"][0]) == ["5H", "6C", "JS"]

    def test_the_opening_may_build_a_house_of_the_bid_value_keeping_a_card_of_it(self):
        d = opening(self.HAND, self.FLOOR, 11)
        # the loose set 5H+6C of the value may come along (H4)
        assert takes(d, "4H", "build") == [["5H", "6C", "7S"], ["7S"]]
        assert takes(d, "2C", "build") == [["3D", "6C"]]
        after = sc.apply(d, build(0, "4H", 11, "7S"))
        assert floor_of(after)["houses"] == [{"value": 11, "sets": [["4H", "7S"]], "owners": [0]}]

    def test_the_opening_may_not_build_with_the_only_card_of_the_bid_value(self):
        d = opening(["JS", "4H"], ["5H", "6C"], 11)
        assert takes(d, "JS", "build") == []
        refused(d, build(0, "JS", 11, "5H", "6C"), "H5", "no_key")

    def test_the_opening_may_throw_a_bid_card_only_when_it_cannot_capture(self):
        refused(opening(self.HAND, self.FLOOR, 11), throw(0, "JS"), "T1", "must_capture")
        d = opening(["JS", "KD"], ["AS", "2H", "3D", "4C"], 11)
        assert sc.legal_moves(d) == [throw(0, "JS")]
        after = sc.apply(d, throw(0, "JS"))
        assert "JS" in floor_of(after)["loose"]

    def test_no_other_opening_play_is_legal(self):
        d = opening(self.HAND, self.FLOOR, 11)
        refused(d, throw(0, "2C"), "B4", "opening_off_bid")
        refused(d, capture(0, "9D", "3D", "6C"), "B4", "opening_off_bid")
        refused(d, build(0, "2C", 9, "7S"), "B4", "opening_off_bid")
        for move in sc.legal_moves(d):
            if move["action"] == "build":
                assert move["value"] == 11
            else:
                assert move["card"] == "JS"

    def test_the_opening_moves_are_exactly_the_three_forms(self):
        d = opening(self.HAND, self.FLOOR, 11)
        assert sorted(sc.legal_moves(d), key=str) == sorted(
            [
                capture(0, "JS", "5H", "6C"),
                build(0, "4H", 11, "7S"),
                build(0, "4H", 11, "5H", "6C", "7S"),
                build(0, "2C", 11, "3D", "6C"),
            ],
            key=str,
        )


class TestB5DealingTheRest:
    # the bidder keeps JS and throws KH (nothing on the floor sums to 13)
    DECK = deck_starting_with("KH", "2H", "3H", "5H", "AC", "2C", "3C", "4C")

    @pytest.mark.parametrize("dealer", [0, 1, 2, 3])
    def test_the_stock_is_dealt_in_packets_of_four_going_right_from_the_bidder(self, dealer):
        deck = self.DECK
        bidder = (dealer + 1) % 4
        d = sc.apply(sc.new_deal(dealer, deck), bid(bidder, 13))
        assert d.to_dict()["stock"] == deck[8:]
        after = sc.apply(d, throw(bidder, "KH"))
        hands = after.to_dict()["hands"]
        packet = [deck[8 + 4 * i : 12 + 4 * i] for i in range(11)]
        expected = {
            bidder: ["2H", "3H", "5H", *packet[0], *packet[4]],
            (bidder + 1) % 4: [*packet[1], *packet[5], *packet[8]],
            (bidder + 2) % 4: [*packet[2], *packet[6], *packet[9]],
            dealer: [*packet[3], *packet[7], *packet[10]],
        }
        for seat in range(4):
            assert sorted(hands[seat]) == sorted(expected[seat]), seat
        assert after.to_dict()["stock"] == []

    def test_after_the_opening_the_bidder_holds_11_cards_and_the_others_12(self):
        d = sc.apply(sc.new_deal(2, self.DECK), bid(3, 13))
        after = sc.apply(d, throw(3, "KH"))
        assert [len(h) for h in after.to_dict()["hands"]] == [12, 12, 12, 11]
        assert after.phase == "play"
        assert after.plays == 1

    def test_play_goes_on_from_the_player_to_the_bidders_right(self):
        d = sc.apply(sc.new_deal(2, self.DECK), bid(3, 13))
        after = sc.apply(d, throw(3, "KH"))
        assert after.to_play == 0
        assert {m["seat"] for m in sc.legal_moves(after)} == {0}
