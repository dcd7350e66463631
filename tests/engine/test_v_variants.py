"""V: the variants a tournament may choose, through ``sc.Rules(...)`` (docs/rules.md V1-V5)."""

import pytest

import seep_core as sc
from tests.engine.helpers import (
    build,
    capture,
    deal,
    deck_starting_with,
    floor_houses,
    floor_of,
    house,
    moves_of,
    position,
    refused,
    takes,
)

AUTO = sc.Rules(auto_join_sets=True)


class TestRules:
    def test_the_default_rules_are_the_game_as_written(self):
        r = sc.Rules()
        assert (r.sweep, r.first_sweep, r.last_sweep) == (50, 25, 0)
        assert r.minimum == 9
        assert r.bazzi_lead == 100
        assert r.auto_join_sets is False
        assert r.max_houses is None

    def test_rules_round_trip_through_their_json_form(self):
        r = sc.Rules(
            sweep=40,
            first_sweep=20,
            last_sweep=10,
            minimum=0,
            bazzi_lead=150,
            auto_join_sets=True,
            max_houses=2,
        )
        assert sc.Rules.from_dict(r.to_dict()) == r
        assert sc.Rules.from_dict(None) == sc.Rules()
        assert sc.Rules.from_dict({}) == sc.Rules()

    @pytest.mark.parametrize(
        "data",
        [
            {"minimum": 51},
            {"minimum": -1},
            {"minimum": 9.0},
            {"sweep": -50},
            {"sweep": True},
            {"bazzi_lead": 0},
            {"auto_join_sets": 1},
            {"max_houses": 0},
            {"max_houses": "2"},
            {"jokers": True},
            ["sweep"],
            "default",
        ],
    )
    def test_rules_outside_what_rules_md_allows_are_refused(self, data):
        with pytest.raises(sc.InvalidRules):
            sc.Rules.from_dict(data)

    def test_a_position_under_variants_records_them_and_reads_them_back(self):
        d = deal(hands=[["4H", "9C"], ["2C"], [], []], loose=["5D"], rules=AUTO)
        assert d.to_dict()["rules"] == AUTO.to_dict()
        assert sc.Deal.from_dict(d.to_dict()).rules == AUTO
        assert "rules" not in deal(hands=[["4H"], [], [], []]).to_dict()

    def test_a_new_deal_is_played_under_the_rules_given(self):
        d = sc.new_deal(0, sc.ordered_deck(), sc.Rules(max_houses=2))
        assert d.rules == sc.Rules(max_houses=2)


class TestV1SweepValues:
    def test_a_sweep_is_worth_what_the_rules_say(self):
        d = deal(hands=[["7H", "2C"], ["3C"], [], []], loose=["7S"], rules=sc.Rules(sweep=30))
        assert sc.apply(d, capture(0, "7H", "7S")).to_dict()["sweeps"] == [[30], []]

    def test_an_opening_sweep_is_worth_what_the_rules_say(self):
        deck = deck_starting_with("KS", "2H", "3H", "4H", "5S", "6H", "7D", "8C")
        d = sc.new_deal(3, deck, sc.Rules(first_sweep=10))
        d = sc.apply(d, {"seat": 0, "action": "bid", "value": 13})
        after = sc.apply(d, capture(0, "KS", "5S", "6H", "7D", "8C"))
        assert after.to_dict()["sweeps"] == [[10], []]

    def test_a_last_play_sweep_counts_when_the_rules_give_it_a_value(self):
        d = deal(hands=[["9D"], [], [], []], loose=["4S", "5H"], rules=sc.Rules(last_sweep=20))
        after = sc.apply(d, capture(0, "9D", "4S", "5H"))
        assert after.to_dict()["sweeps"] == [[20], []]
        assert sc.score(after)["total"] == [4 + 20, 0]

    def test_a_sweep_worth_nothing_is_not_recorded(self):
        d = deal(hands=[["7H", "2C"], ["3C"], [], []], loose=["7S"], rules=sc.Rules(sweep=0))
        assert sc.apply(d, capture(0, "7H", "7S")).to_dict()["sweeps"] == [[], []]


class TestV2Minimum:
    def test_minimum_0_turns_the_rule_off(self):
        assert sc.ledger([[0, 100], [100, 0]], sc.Rules(minimum=0)) == [
            {"difference": 0, "bazzi": 1, "reason": "lead"},
            {"difference": 0, "bazzi": 0, "reason": "lead"},
        ]
        assert sc.ledger([[5, 95]], sc.Rules(minimum=0, bazzi_lead=200)) == [
            {"difference": -90, "bazzi": None, "reason": None}
        ]

    def test_minimum_50_makes_a_team_under_50_lose_the_bazzi(self):
        assert sc.ledger([[49, 51]], sc.Rules(minimum=50)) == [
            {"difference": 0, "bazzi": 1, "reason": "minimum"}
        ]
        assert sc.ledger([[50, 50]], sc.Rules(minimum=50)) == [
            {"difference": 0, "bazzi": None, "reason": None}
        ]


class TestV3BazziLead:
    def test_the_bazzi_lead_is_what_the_rules_say(self):
        rules = sc.Rules(bazzi_lead=150)
        assert sc.ledger([[80, 20], [70, 30]], rules) == [
            {"difference": 60, "bazzi": None, "reason": None},
            {"difference": 100, "bazzi": None, "reason": None},
        ]
        assert sc.ledger([[80, 20], [70, 30], [75, 25]], rules)[-1] == {
            "difference": 0,
            "bazzi": 0,
            "reason": "lead",
        }


class TestV4AutoJoinSets:
    def test_loose_sets_of_the_value_join_a_new_house_automatically(self):
        d = deal(hands=[["4H", "9S"], ["3C"], [], []], loose=["5D", "2C", "7S"], rules=AUTO)
        assert takes(d, "4H", "build", 9) == [["2C", "5D", "7S"]]
        refused(d, build(0, "4H", 9, "5D"), "V4", "build_not_maximal")
        after = sc.apply(d, build(0, "4H", 9, "5D", "2C", "7S"))
        assert floor_of(after)["loose"] == []

    def test_where_sets_overlap_the_player_chooses_a_maximal_collection(self):
        # 2+7 and 2+7 share the 2: either 7 may go with it, not both, not neither
        d = deal(hands=[["4H", "9S"], ["3C"], [], []], loose=["5D", "2C", "7S", "7H"], rules=AUTO)
        assert takes(d, "4H", "build", 9) == [["2C", "5D", "7H"], ["2C", "5D", "7S"]]
        refused(d, build(0, "4H", 9, "5D"), "V4", "build_not_maximal")

    def test_loose_sets_join_a_house_that_grows_by_adding(self):
        d = deal(
            hands=[["4H", "9D"], ["9H"], [], []],
            loose=["5C", "3D", "6D", "KC"],
            houses=[house(9, ["9C"], ["4S", "5S"], owners=[1])],
            rules=AUTO,
        )
        assert takes(d, "4H", "build", 9) == [["3D", "5C", "6D"]]

    def test_loose_sets_join_a_house_raised_by_breaking(self):
        d = deal(
            hands=[["2H", "JD"], ["9C"], [], []],
            loose=["5C", "6D", "KC"],
            houses=[house(9, ["4S", "5S"], owners=[1])],
            rules=AUTO,
        )
        assert moves_of(d, "2H", "build") == [build(0, "2H", 11, "5C", "6D", "H9")]
        refused(d, build(0, "2H", 11, "H9"), "V4", "build_not_maximal")
        after = sc.apply(d, build(0, "2H", 11, "H9", "5C", "6D"))
        assert sorted(map(sorted, floor_houses(after)[11]["sets"])) == [
            ["2H", "4S", "5S"],
            ["5C", "6D"],
        ]

    def test_without_v4_a_break_takes_no_loose_set(self):
        d = deal(
            hands=[["2H", "JD"], ["9C"], [], []],
            loose=["5C", "6D", "KC"],
            houses=[house(9, ["4S", "5S"], owners=[1])],
        )
        assert moves_of(d, "2H", "build") == [build(0, "2H", 11, "H9")]
        refused(d, build(0, "2H", 11, "H9", "5C", "6D"), "H7", "bad_break")

    def test_a_maximal_join_may_leave_cards_that_sum_to_no_set(self):
        d = deal(hands=[["4H", "9S"], ["3C"], [], []], loose=["5D", "2C", "7S", "8C"], rules=AUTO)
        after = sc.apply(d, build(0, "4H", 9, "5D", "2C", "7S"))
        assert floor_of(after)["loose"] == ["8C"]


class TestV5MaxHouses:
    TWO = sc.Rules(max_houses=2)

    def two_houses(self, hand, loose=()):
        return deal(
            hands=[hand, ["9C", "QC"], [], []],
            loose=list(loose),
            rules=self.TWO,
            houses=[house(9, ["4S", "5S"], owners=[1]), house(12, ["5D", "7D"], owners=[1])],
        )

    def test_a_third_house_may_not_be_built(self):
        d = self.two_houses(["4H", "KD"], loose=["6H", "3C"])
        # raising the 9 to 13 stays legal: it makes no new house
        assert moves_of(d, "4H", "build") == [build(0, "4H", 13, "H9")]
        refused(d, build(0, "4H", 13, "6H", "3C"), "V5", "too_many_houses")

    def test_without_the_limit_the_third_house_is_built(self):
        d = deal(
            hands=[["4H", "KD"], ["9C", "QC"], [], []],
            loose=["6H", "3C"],
            houses=[house(9, ["4S", "5S"], owners=[1]), house(12, ["5D", "7D"], owners=[1])],
        )
        assert takes(d, "4H", "build", 13) == [["3C", "6H"], ["H9"]]

    def test_adding_to_a_house_on_the_floor_is_still_allowed(self):
        d = self.two_houses(["3H", "QH"], loose=["4C", "5C"])
        assert takes(d, "3H", "build", 12) == [["4C", "5C"], ["H9"]]

    def test_breaking_is_still_allowed_it_does_not_add_a_house(self):
        d = self.two_houses(["AH", "10H"])
        assert moves_of(d, "AH", "build") == [build(0, "AH", 10, "H9")]
        after = sc.apply(d, build(0, "AH", 10, "H9"))
        assert sorted(floor_houses(after)) == [10, 12]

    def test_a_position_with_more_houses_than_allowed_is_refused(self):
        pos = position(
            hands=[["9H", "QH", "KH"], [], [], []],
            rules=sc.Rules(max_houses=2),
            houses=[
                house(9, ["4S", "5S"], owners=[0]),
                house(12, ["5D", "7D"], owners=[0]),
                house(13, ["6D", "7C"], owners=[0]),
            ],
        )
        with pytest.raises(sc.InvalidPosition) as info:
            sc.Deal.from_dict(pos)
        assert info.value.rule == "V5"
