"""C: capturing (docs/rules.md C1-C3), with the worked examples of C2."""

import pytest

import seep_core as sc
from tests.engine.helpers import capture, deal, floor_of, house, refused, takes


class TestC1WhatACardCaptures:
    def test_a_card_captures_a_single_loose_card_of_equal_value(self):
        d = deal(hands=[["7H"], ["2C"], [], []], loose=["7S", "KD"])
        assert takes(d, "7H", "capture") == [["7S"]]

    def test_a_card_captures_a_set_of_loose_cards_summing_to_its_value(self):
        d = deal(hands=[["7H"], ["2C"], [], []], loose=["AS", "2D", "4C", "KD"])
        assert takes(d, "7H", "capture") == [["AS", "2D", "4C"]]

    def test_a_card_captures_the_house_of_exactly_its_value(self):
        d = deal(
            hands=[["9H"], ["9C"], [], []],
            houses=[house(9, ["4S", "5S"], owners=[1])],
            loose=["KD"],
        )
        assert takes(d, "9H", "capture") == [["H9"]]
        after = sc.apply(d, capture(0, "9H", "H9"))
        assert sorted(after.to_dict()["piles"][0]) == ["4S", "5S", "9H"]
        assert floor_of(after) == {"loose": ["KD"], "houses": []}

    def test_a_house_never_counts_as_part_of_a_set(self):
        d = deal(
            hands=[["JH"], ["9C"], [], []],
            houses=[house(9, ["4S", "5S"], owners=[1])],
            loose=["2D"],
        )
        assert takes(d, "JH", "capture") == []
        refused(d, capture(0, "JH", "2D", "H9"), "C1", "capture_wrong_house")

    def test_a_card_may_not_capture_a_house_of_another_value(self):
        d = deal(
            hands=[["10H"], ["9C"], [], []],
            houses=[house(9, ["4S", "5S"], owners=[1])],
        )
        refused(d, capture(0, "10H", "H9"), "C1", "capture_wrong_house")

    def test_cards_taken_that_do_not_split_into_sets_of_the_value_are_refused(self):
        d = deal(hands=[["9H"], ["2C"], [], []], loose=["2S", "4D", "5C", "KD"])
        refused(d, capture(0, "9H", "2S", "4D"), "C1", "capture_not_sets")
        refused(d, capture(0, "9H", "4D", "5C", "KD"), "C1", "capture_not_sets")


class TestC2MaximalCapture:
    JACK_FLOOR = ["2S", "3H", "5D", "6C"]

    def test_jack_over_2_3_5_6_offers_both_maximal_takes(self):
        d = deal(hands=[["JH"], ["2C"], [], []], loose=self.JACK_FLOOR)
        assert takes(d, "JH", "capture") == [["2S", "3H", "6C"], ["5D", "6C"]]

    @pytest.mark.parametrize(
        ("take", "left"), [(["2S", "3H", "6C"], ["5D"]), (["5D", "6C"], ["2S", "3H"])]
    )
    def test_jack_over_2_3_5_6_lets_the_player_choose(self, take, left):
        d = deal(hands=[["JH"], ["2C"], [], []], loose=self.JACK_FLOOR)
        after = sc.apply(d, capture(0, "JH", *reversed(take)))
        assert floor_of(after)["loose"] == left
        assert sorted(after.to_dict()["piles"][0]) == sorted([*take, "JH"])

    def test_jack_over_2_3_5_6_may_not_take_nothing(self):
        d = deal(hands=[["JH"], ["2C"], [], []], loose=self.JACK_FLOOR)
        refused(d, capture(0, "JH"), "C2")

    def test_a_jack_that_leaves_a_loose_jack_behind_is_refused(self):
        d = deal(hands=[["JH"], ["2C"], [], []], loose=[*self.JACK_FLOOR, "JD"])
        assert takes(d, "JH", "capture") == [["2S", "3H", "6C", "JD"], ["5D", "6C", "JD"]]
        refused(d, capture(0, "JH", "2S", "3H", "6C"), "C2", "capture_not_maximal")
        refused(d, capture(0, "JH", "JD"), "C2", "capture_not_maximal")

    def test_eight_over_a_3_5_7_8_must_take_all_five(self):
        # the sets of 8 are 8, A+7 and 3+5: disjoint, so the only maximal take is all of them
        d = deal(hands=[["8H"], ["2C"], [], []], loose=["AS", "3S", "5S", "7S", "8S"])
        assert takes(d, "8H", "capture") == [["AS", "3S", "5S", "7S", "8S"]]
        for partial in (["8S"], ["AS", "7S"], ["3S", "5S"], ["AS", "7S", "8S"], ["3S", "5S", "8S"]):
            refused(d, capture(0, "8H", *partial), "C2", "capture_not_maximal")
        after = sc.apply(d, capture(0, "8H", "AS", "3S", "5S", "7S", "8S"))
        assert sorted(after.to_dict()["piles"][0]) == ["3S", "5S", "7S", "8H", "8S", "AS"]

    def test_a_capture_must_take_the_house_of_the_cards_value(self):
        d = deal(
            hands=[["9H"], ["9C"], [], []],
            houses=[house(9, ["4S", "5S"], owners=[1])],
            loose=["2D", "7C", "KD"],
        )
        assert takes(d, "9H", "capture") == [["2D", "7C", "H9"]]
        refused(d, capture(0, "9H", "2D", "7C"), "C2", "capture_not_maximal")
        refused(d, capture(0, "9H", "H9"), "C2", "capture_not_maximal")

    def test_the_order_of_take_does_not_matter(self):
        d = deal(
            hands=[["9H"], ["9C"], [], []],
            houses=[house(9, ["4S", "5S"], owners=[1])],
            loose=["2D", "7C"],
        )
        a = sc.apply(d, capture(0, "9H", "H9", "7C", "2D"))
        b = sc.apply(d, capture(0, "9H", "2D", "7C", "H9"))
        assert a == b


class TestC3CapturedCardsGoToThePile:
    def test_captured_cards_and_the_card_played_go_to_the_capturing_teams_pile(self):
        d = deal(
            hands=[["2C"], ["7H", "QC"], [], []],
            to_play=1,
            loose=["3S", "4D", "KD"],
            piles=[["AS"], ["AH"]],
        )
        after = sc.apply(d, capture(1, "7H", "3S", "4D"))
        pos = after.to_dict()
        assert pos["piles"] == [["AS"], ["AH", "3S", "4D", "7H"]]
        assert pos["floor"]["loose"] == ["KD"]
        assert pos["last_capture"] == 1
        assert pos["hands"][1] == ["QC"]
