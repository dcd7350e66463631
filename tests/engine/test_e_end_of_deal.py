"""E: the end of the deal and the deal score (docs/rules.md E1-E2)."""

import seep_core as sc
from tests.engine.helpers import capture, deal, throw


class TestE1EndOfTheDeal:
    def test_the_deal_ends_when_the_last_card_is_played(self):
        d = deal(hands=[["QD"], ["2S"], [], []], loose=["4S"], last_capture=1)
        mid = sc.apply(d, throw(0, "QD"))
        assert mid.phase == "play"
        assert mid.to_play == 1
        end = sc.apply(mid, throw(1, "2S"))
        assert end.phase == "over"
        assert end.to_play is None
        assert sc.legal_moves(end) == []

    def test_leftover_cards_go_to_the_team_of_the_last_capture(self):
        d = deal(
            hands=[["QD"], [], [], []], loose=["4S", "10D"], last_capture=1, piles=[["AS"], ["AH"]]
        )
        end = sc.apply(d, throw(0, "QD"))
        pos = end.to_dict()
        assert pos["floor"] == {"loose": [], "houses": []}
        assert sorted(pos["piles"][1]) == sorted(["AH", "4S", "10D", "QD"])
        assert pos["piles"][0] == ["AS"]
        assert sc.score(end)["points"] == [1, 11]

    def test_a_last_capture_that_leaves_cards_takes_them_too(self):
        d = deal(hands=[["QD"], ["7H"], [], []], to_play=1, loose=["7S", "3C"], last_capture=0)
        end = sc.apply(sc.apply(d, capture(1, "7H", "7S")), throw(0, "QD"))
        # after 7H took 7S, QD was thrown: team 1 made the last capture
        assert sorted(end.to_dict()["piles"][1]) == ["3C", "7H", "7S", "QD"]

    def test_leftovers_go_to_nobody_when_nobody_captured(self):
        d = deal(hands=[["QD"], [], [], []], loose=["4S", "10D"], last_capture=None)
        end = sc.apply(d, throw(0, "QD"))
        assert end.phase == "over"
        assert end.to_dict()["piles"] == [[], []]
        assert sc.score(end) == {"points": [0, 0], "sweeps": [[], []], "total": [0, 0]}


class TestE2DealScore:
    def test_the_deal_score_is_card_points_plus_sweeps(self):
        d = deal(
            hands=[["2D"], [], [], []],
            loose=["KH"],
            last_capture=0,
            piles=[["KS", "QS", "AH", "10D"], ["JS", "AD", "5C"]],
            sweeps=[[50, 50], [25]],
        )
        end = sc.apply(d, throw(0, "2D"))
        assert sc.score(end) == {
            "points": [13 + 12 + 1 + 6, 11 + 1],
            "sweeps": [[50, 50], [25]],
            "total": [132, 37],
        }
