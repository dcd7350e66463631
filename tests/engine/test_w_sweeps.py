"""W: sweeps (docs/rules.md W1-W2)."""

import seep_core as sc
from tests.engine.helpers import build, capture, deal, deck_starting_with, house, moves_of, throw


class TestW1Sweep:
    def test_a_capture_that_empties_the_floor_is_a_sweep_worth_50(self):
        d = deal(hands=[["7H", "2C"], ["3C"], [], []], loose=["3S", "4D"], sweeps=[[], [50]])
        after = sc.apply(d, capture(0, "7H", "3S", "4D"))
        assert after.to_dict()["sweeps"] == [[50], [50]]
        assert sc.score(after)["sweeps"] == [[50], [50]]

    def test_a_sweep_by_team_1_is_recorded_for_team_1(self):
        d = deal(hands=[["2C"], ["7H", "3C"], [], []], to_play=1, loose=["7S"])
        after = sc.apply(d, capture(1, "7H", "7S"))
        assert after.to_dict()["sweeps"] == [[], [50]]

    def test_capturing_a_house_that_is_all_the_floor_is_a_sweep(self):
        d = deal(hands=[["9H", "2C"], ["9C"], [], []], houses=[house(9, ["4S", "5S"], owners=[1])])
        after = sc.apply(d, capture(0, "9H", "H9"))
        assert after.to_dict()["sweeps"] == [[50], []]

    def test_a_capture_that_leaves_a_house_is_not_a_sweep(self):
        d = deal(
            hands=[["7H", "2C"], ["9C"], [], []],
            loose=["7S"],
            houses=[house(9, ["4S", "5S"], owners=[1])],
        )
        after = sc.apply(d, capture(0, "7H", "7S"))
        assert after.to_dict()["sweeps"] == [[], []]

    def test_a_capture_that_leaves_a_loose_card_is_not_a_sweep(self):
        d = deal(hands=[["7H", "2C"], ["3C"], [], []], loose=["7S", "KD"])
        after = sc.apply(d, capture(0, "7H", "7S"))
        assert after.to_dict()["sweeps"] == [[], []]

    def test_a_build_or_throw_never_sweeps(self):
        d = deal(hands=[["4H", "9C"], ["3C"], [], []], loose=["5S"])
        assert sc.apply(d, build(0, "4H", 9, "5S")).to_dict()["sweeps"] == [[], []]


class TestW2FirstAndLastPlaySweeps:
    def test_an_opening_sweep_is_worth_25(self):
        # bid 13; the floor 5+8 and 6+7 are two sets of 13, so KS takes all four
        deck = deck_starting_with("KS", "2H", "3H", "4H", "5S", "6H", "7D", "8C")
        d = sc.apply(sc.new_deal(3, deck), {"seat": 0, "action": "bid", "value": 13})
        assert moves_of(d, "KS") == [capture(0, "KS", "5S", "6H", "7D", "8C")]
        after = sc.apply(d, capture(0, "KS", "5S", "6H", "7D", "8C"))
        assert after.to_dict()["sweeps"] == [[25], []]
        assert sc.score(after) == {"points": [18, 0], "sweeps": [[25], []], "total": [43, 0]}

    def test_a_last_play_sweep_is_worth_nothing_and_not_recorded(self):
        d = deal(
            hands=[["9D"], [], [], []],
            loose=["4S", "5H"],
            sweeps=[[50], []],
            piles=[["KS"], ["QS"]],
            last_capture=1,
        )
        after = sc.apply(d, capture(0, "9D", "4S", "5H"))
        assert after.phase == "over"
        assert after.to_dict()["sweeps"] == [[50], []]
        assert sc.score(after) == {"points": [17, 12], "sweeps": [[50], []], "total": [67, 12]}

    def test_a_sweep_while_another_seat_still_holds_cards_is_not_the_last_play(self):
        d = deal(hands=[["9D"], [], ["2C"], []], loose=["4S", "5H"])
        after = sc.apply(d, capture(0, "9D", "4S", "5H"))
        assert after.phase == "play"
        assert after.to_dict()["sweeps"] == [[50], []]

    def test_a_card_still_to_be_dealt_means_the_opening_is_not_the_last_play(self):
        deck = deck_starting_with("KS", "2H", "3H", "4H", "5S", "6H", "7D", "8C")
        d = sc.apply(sc.new_deal(3, deck), {"seat": 0, "action": "bid", "value": 13})
        after = sc.apply(d, capture(0, "KS", "5S", "6H", "7D", "8C"))
        assert after.phase == "play"
        assert after.to_dict()["sweeps"][0] == [25]

    def test_the_last_play_throw_is_no_sweep(self):
        d = deal(hands=[["QD"], [], [], []], loose=["4S"], last_capture=0)
        after = sc.apply(d, throw(0, "QD"))
        assert after.to_dict()["sweeps"] == [[], []]
