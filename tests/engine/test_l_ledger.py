"""L: the running difference and bazzis, through ``sc.ledger`` (docs/rules.md L1-L3)."""

import pytest

import seep_core as sc


def step(difference, bazzi=None, reason=None):
    return {"difference": difference, "bazzi": bazzi, "reason": reason}


class TestL1RunningDifference:
    def test_the_difference_of_the_deal_scores_is_added_to_the_running_difference(self):
        assert sc.ledger([[60, 40], [30, 70], [55, 45]]) == [step(20), step(-20), step(-10)]

    def test_no_deal_gives_an_empty_ledger(self):
        assert sc.ledger([]) == []

    def test_sweeps_count_in_the_difference(self):
        assert sc.ledger([[60 + 50, 40]]) == [step(70)]


class TestL2Bazzi:
    def test_a_running_lead_of_exactly_100_wins_a_bazzi_and_resets_the_difference(self):
        assert sc.ledger([[80, 20], [70, 30]]) == [step(60), step(0, 0, "lead")]

    def test_a_lead_of_99_does_not_win_a_bazzi(self):
        assert sc.ledger([[80, 20], [69, 30]]) == [step(60), step(99)]

    def test_a_lead_beyond_100_wins_a_bazzi(self):
        assert sc.ledger([[140, 10]]) == [step(0, 0, "lead")]

    def test_team_1_wins_a_bazzi_with_a_lead_of_100(self):
        assert sc.ledger([[30, 70], [20, 80]]) == [step(-40), step(0, 1, "lead")]

    def test_after_a_bazzi_the_difference_starts_again_from_zero(self):
        assert sc.ledger([[80, 20], [70, 30], [60, 40]]) == [
            step(60),
            step(0, 0, "lead"),
            step(20),
        ]

    def test_several_bazzis_follow_one_another(self):
        totals = [[150, 20], [20, 150], [60, 40], [10, 130], [4, 96], [96, 4]]
        assert sc.ledger(totals) == [
            step(0, 0, "lead"),
            step(0, 1, "lead"),
            step(20),
            step(0, 1, "lead"),
            step(0, 1, "minimum"),
            step(0, 0, "minimum"),
        ]


class TestL3Minimum:
    def test_a_team_under_9_loses_the_bazzi_at_once_whatever_the_difference(self):
        # team 0 leads by 90, then scores 8: team 1 wins the bazzi all the same
        assert sc.ledger([[95, 15], [8, 92]]) == [step(80), step(0, 1, "minimum")]

    def test_a_team_under_9_loses_the_bazzi_even_when_leading_by_more_than_100(self):
        assert sc.ledger([[5, 95]]) == [step(0, 1, "minimum")]
        assert sc.ledger([[95, 5]]) == [step(0, 0, "minimum")]

    def test_8_points_plus_a_50_sweep_is_58_and_not_under_the_minimum(self):
        assert sc.ledger([[8 + 50, 92]]) == [step(-34)]

    def test_exactly_9_points_is_not_under_the_minimum(self):
        assert sc.ledger([[9, 91]]) == [step(-82)]

    def test_8_points_is_under_the_minimum(self):
        assert sc.ledger([[92, 8]]) == [step(0, 0, "minimum")]

    def test_the_minimum_wins_over_a_lead_that_would_reach_100(self):
        assert sc.ledger([[60, 40], [92, 8]]) == [step(20), step(0, 0, "minimum")]

    def test_the_minimum_resets_the_difference(self):
        assert sc.ledger([[60, 40], [92, 8], [50, 40]]) == [
            step(20),
            step(0, 0, "minimum"),
            step(10),
        ]


class TestLedgerInput:
    @pytest.mark.parametrize(
        "totals",
        [
            None,
            5,
            "60,40",
            [[60]],
            [[60, 40, 0]],
            [[-1, 101]],
            [[60.0, 40]],
            [[True, 40]],
            [["60", "40"]],
            [None],
            {"a": 1},
        ],
    )
    def test_malformed_totals_are_refused_as_value_errors(self, totals):
        with pytest.raises(ValueError):
            sc.ledger(totals)
