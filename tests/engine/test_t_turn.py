"""T: a turn, throwing loose and keeping keys (docs/rules.md T0-T2)."""

import seep_core as sc
from tests.engine.helpers import build, capture, deal, floor_of, house, refused, throw


class TestT0OneCardPerTurn:
    def test_only_the_player_in_turn_may_play(self):
        d = deal(hands=[["2S"], ["3S"], [], []], to_play=0, loose=["KH"])
        refused(d, throw(1, "3S"), "T0", "not_your_turn")

    def test_every_legal_move_plays_one_card_of_the_player_in_turn(self):
        d = deal(hands=[["2S", "7H", "9D"], ["3S"], [], []], to_play=0, loose=["5H", "4C"])
        for move in sc.legal_moves(d):
            assert move["seat"] == 0
            assert move["card"] in {"2S", "7H", "9D"}
            after = sc.apply(d, move)
            assert len(after.hand(0)) == 2
            assert after.plays == d.plays + 1


class TestT1Throw:
    def test_a_card_that_cannot_capture_is_thrown_loose(self):
        d = deal(hands=[["7H"], ["2C"], [], []], loose=["3S", "5D"])
        assert sc.legal_moves(d) == [throw(0, "7H")]
        after = sc.apply(d, throw(0, "7H"))
        assert floor_of(after)["loose"] == ["3S", "5D", "7H"]
        assert after.hand(0) == []

    def test_a_card_equal_to_a_loose_card_may_not_be_thrown(self):
        d = deal(hands=[["7H"], ["2C"], [], []], loose=["7S"])
        refused(d, throw(0, "7H"), "T1", "must_capture")

    def test_a_card_that_a_loose_set_sums_to_may_not_be_thrown(self):
        d = deal(hands=[["7H"], ["2C"], [], []], loose=["3S", "4D", "KC"])
        refused(d, throw(0, "7H"), "T1", "must_capture")
        assert sc.legal_moves(d) == [capture(0, "7H", "3S", "4D")]

    def test_a_card_of_a_houses_value_may_not_be_thrown(self):
        d = deal(
            hands=[["9H"], ["9C"], [], []],
            houses=[house(9, ["4S", "5S"], owners=[1])],
        )
        refused(d, throw(0, "9H"), "H4", "must_capture")

    def test_using_a_card_in_a_house_is_an_alternative_to_capturing_with_it(self):
        # 4H can capture 4S, or build 9 with 5D (keeping 9C)
        d = deal(hands=[["4H", "9C"], ["2C"], [], []], loose=["4S", "5D"])
        actions = {m["action"] for m in sc.legal_moves(d) if m["card"] == "4H"}
        assert actions == {"capture", "build"}


class TestT2KeepAKey:
    def test_an_owner_may_not_add_their_last_key_to_their_own_house(self):
        d = deal(
            hands=[["9H", "4H"], ["2C"], [], []],
            loose=["5D"],
            houses=[house(9, ["3S", "6S"], owners=[0])],
        )
        refused(d, build(0, "9H", 9), "T2", "no_key")
        refused(d, build(0, "9H", 9, "H9"), "T2", "no_key")

    def test_an_owners_last_card_must_capture_the_house(self):
        d = deal(
            hands=[["9H"], ["2C"], [], []],
            loose=["5D"],
            houses=[house(9, ["3S", "6S"], owners=[0])],
        )
        assert sc.legal_moves(d) == [capture(0, "9H", "H9")]
        refused(d, build(0, "9H", 9), "T2", "no_key")
        refused(d, throw(0, "9H"), "H4", "must_capture")

    def test_an_owner_with_two_keys_may_add_one_of_them(self):
        d = deal(
            hands=[["9H", "9D"], ["2C"], [], []],
            houses=[house(9, ["3S", "6S"], owners=[0])],
        )
        after = sc.apply(d, build(0, "9H", 9))
        assert floor_of(after)["houses"] == [house(9, ["3S", "6S"], ["9H"], owners=[0])]

    def test_an_owner_may_play_another_card_while_keeping_the_key(self):
        d = deal(
            hands=[["9H", "4H"], ["2C"], [], []],
            loose=["5D"],
            houses=[house(9, ["3S", "6S"], owners=[0])],
        )
        after = sc.apply(d, build(0, "4H", 9, "5D"))
        assert floor_of(after)["houses"][0]["sets"] == [["3S", "6S"], ["4H", "5D"]]
        assert after.hand(0) == ["9H"]
