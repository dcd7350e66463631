"""D: the deck and the card points (docs/rules.md D1-D2)."""

import pytest

import seep_core as sc


class TestD1Deck:
    def test_the_deck_holds_52_distinct_codes_in_card_order(self):
        deck = sc.ordered_deck()
        assert len(deck) == 52
        assert len(set(deck)) == 52
        assert deck[:5] == ["AS", "AH", "AD", "AC", "2S"]
        assert deck[-1] == "KC"
        assert "10D" in deck

    def test_a_card_code_parses_and_prints_back(self):
        for code in sc.ordered_deck():
            assert sc.Card.parse(code).code() == code
        assert sc.Card.parse("10D").value == 10
        assert sc.Card.parse("JC").value == 11
        assert sc.Card.parse("AS").value == 1

    @pytest.mark.parametrize("code", ["1S", "10X", "JOKER", "", "as", "T D", "11H"])
    def test_an_unknown_card_code_is_refused_as_a_value_error(self, code):
        with pytest.raises(ValueError):
            sc.Card.parse(code)


class TestD2Points:
    def test_the_whole_deck_is_worth_100_points(self):
        assert sc.points(sc.ordered_deck()) == 100

    def test_the_spades_score_their_capture_value_91_in_all(self):
        spades = [c for c in sc.ordered_deck() if c.endswith("S")]
        assert sc.points(spades) == 91
        assert sc.points(["AS"]) == 1
        assert sc.points(["7S"]) == 7
        assert sc.points(["KS"]) == 13

    def test_the_other_aces_score_one_each(self):
        assert sc.points(["AH"]) == sc.points(["AD"]) == sc.points(["AC"]) == 1

    def test_the_ten_of_diamonds_scores_six(self):
        assert sc.points(["10D"]) == 6

    def test_the_35_other_cards_score_nothing(self):
        scoring = {c for c in sc.ordered_deck() if c.endswith("S")} | {"AH", "AD", "AC", "10D"}
        others = [c for c in sc.ordered_deck() if c not in scoring]
        assert len(others) == 35
        assert all(sc.points([c]) == 0 for c in others)

    def test_points_of_a_mixed_hand(self):
        assert sc.points(["KS", "AH", "10D", "7H"]) == 20

    def test_points_of_an_unknown_code_is_a_value_error(self):
        with pytest.raises(ValueError):
            sc.points(["ZZ"])
