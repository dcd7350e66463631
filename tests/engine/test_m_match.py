"""M: the match format, through ``sc.start_match(...).after_deal(...)`` (docs/rules.md M1)."""

import pytest

import seep_core as sc

# deal totals that end a bazzi at once (L3): the other team scores under 9
TEAM0_BAZZI = [95, 5]
TEAM1_BAZZI = [5, 95]


def play(fmt, *totals, first_dealer=0, rules=None):
    match = sc.start_match(first_dealer, fmt, rules)
    for t in totals:
        match = match.after_deal(t)
    return match


class TestPlayNBazzis:
    def test_a_match_of_three_bazzis_ends_after_the_third_bazzi(self):
        fmt = sc.MatchFormat(bazzis=3)
        two = play(fmt, TEAM0_BAZZI, TEAM1_BAZZI)
        assert not two.over
        three = two.after_deal(TEAM1_BAZZI)
        assert three.over
        assert three.winner == 1
        assert three.bazzis == (1, 2)
        assert not three.draw

    def test_deals_without_a_bazzi_do_not_end_the_match(self):
        m = play(sc.MatchFormat(bazzis=1), [60, 40], [50, 50], [40, 60])
        assert not m.over
        assert m.deals == 3
        assert m.difference == 0

    def test_a_tie_in_bazzis_with_no_difference_is_a_draw_where_draws_are_allowed(self):
        m = play(sc.MatchFormat(bazzis=2, draws=True), TEAM0_BAZZI, TEAM1_BAZZI)
        assert m.over
        assert m.winner is None
        assert m.draw

    def test_without_draws_play_goes_on_until_the_tie_is_broken(self):
        fmt = sc.MatchFormat(bazzis=2, draws=False)
        m = play(fmt, TEAM0_BAZZI, TEAM1_BAZZI)
        assert not m.over
        m = m.after_deal([50, 50])
        assert not m.over  # still level
        m = m.after_deal([45, 55])
        assert m.over
        assert m.winner == 1
        assert m.bazzis == (1, 1)


class TestFirstToNBazzis:
    def test_the_first_team_to_n_bazzis_wins(self):
        fmt = sc.MatchFormat(bazzis=2, first_to=True)
        m = play(fmt, TEAM0_BAZZI, TEAM1_BAZZI)
        assert not m.over
        m = m.after_deal(TEAM0_BAZZI)
        assert m.over
        assert m.winner == 0
        assert m.bazzis == (2, 1)

    def test_first_to_one_ends_with_the_first_bazzi(self):
        m = play(sc.MatchFormat(bazzis=1, first_to=True), [60, 40], TEAM1_BAZZI)
        assert m.over
        assert m.winner == 1


class TestDealCap:
    def test_a_capped_match_is_decided_by_bazzis_first(self):
        fmt = sc.MatchFormat(bazzis=3, deal_cap=2)
        m = play(fmt, TEAM1_BAZZI, [90, 20])
        assert m.over
        assert m.difference == 70
        assert m.winner == 1

    def test_a_capped_match_level_on_bazzis_is_decided_by_the_running_difference(self):
        m = play(sc.MatchFormat(bazzis=3, deal_cap=2), [60, 40], [45, 55])
        assert m.over
        assert m.winner == 0
        assert m.difference == 10

    def test_a_capped_first_to_match_is_decided_at_the_cap(self):
        m = play(
            sc.MatchFormat(bazzis=5, first_to=True, deal_cap=3), TEAM0_BAZZI, [30, 60], [40, 50]
        )
        assert m.over
        assert m.winner == 0
        assert m.bazzis == (1, 0)

    def test_an_exact_tie_at_the_cap_is_a_draw_where_allowed(self):
        m = play(sc.MatchFormat(bazzis=3, deal_cap=2), [60, 40], [40, 60])
        assert m.over
        assert m.draw

    def test_an_exact_tie_at_the_cap_plays_on_in_an_elimination_match(self):
        fmt = sc.MatchFormat(bazzis=3, deal_cap=2, draws=False)
        m = play(fmt, [60, 40], [40, 60])
        assert not m.over
        m = m.after_deal([50, 50])
        assert not m.over
        m = m.after_deal([50, 49])
        assert m.over
        assert m.winner == 0
        assert m.deals == 4

    def test_the_match_is_not_over_before_the_cap(self):
        m = play(sc.MatchFormat(bazzis=3, deal_cap=3), [60, 40], [45, 55])
        assert not m.over


class TestMatchBookkeeping:
    def test_no_deal_may_follow_the_end_of_the_match(self):
        m = play(sc.MatchFormat(bazzis=1), TEAM0_BAZZI)
        with pytest.raises(sc.SeepError) as info:
            m.after_deal([50, 50])
        assert info.value.rule == "M1"

    def test_the_dealer_follows_r1_to_r3_deal_after_deal(self):
        m = sc.start_match(0, sc.MatchFormat(bazzis=5))
        assert m.dealer == 0
        m = m.after_deal([40, 60])  # dealer 0's team behind: 0 deals again
        assert m.dealer == 0
        m = m.after_deal([70, 30])  # team 0 ahead by 20: the deal passes to 1
        assert m.dealer == 1
        m = m.after_deal([30, 50])  # level: 1 deals again
        assert m.dealer == 1
        m = m.after_deal([5, 95])  # team 1 (the dealer's) wins a bazzi: partner of 2 -> 0
        assert m.dealer == 0
        m = m.after_deal([5, 95])  # team 1 wins again, dealer 0 behind: partner of 0 -> 2
        assert m.dealer == 2

    def test_the_match_keeps_the_ledger_of_sc_ledger(self):
        totals = [[60, 40], [30, 90], [80, 20], [90, 10], [5, 95], [60, 50]]
        m = sc.start_match(1, sc.MatchFormat(bazzis=10))
        for t, expected in zip(totals, sc.ledger(totals), strict=True):
            m = m.after_deal(t)
            assert m.difference == expected["difference"]
            assert m.last_step.to_dict() == expected
        assert m.bazzis == (1, 1)
        assert m.deals == 6

    def test_the_match_uses_its_rules_for_the_ledger(self):
        m = play(sc.MatchFormat(bazzis=1), [60, 40], rules=sc.Rules(bazzi_lead=20))
        assert m.over
        assert m.winner == 0

    def test_a_match_round_trips_through_its_json_form(self):
        m = play(
            sc.MatchFormat(bazzis=3, deal_cap=9),
            [60, 40],
            TEAM1_BAZZI,
            [55, 45],
            rules=sc.Rules(minimum=20),
        )
        assert sc.MatchProgress.from_dict(m.to_dict()) == m

    @pytest.mark.parametrize(
        "data",
        [
            {"bazzis": 0},
            {"bazzis": 100},
            {"bazzis": True},
            {"deal_cap": 0},
            {"first_to": 1},
            {"draws": "no"},
            {"rounds": 3},
            [],
            "x",
        ],
    )
    def test_a_bad_match_format_is_refused(self, data):
        with pytest.raises(sc.InvalidFormat):
            sc.MatchFormat.from_dict(data)

    def test_a_format_round_trips_through_its_json_form(self):
        fmt = sc.MatchFormat(bazzis=4, first_to=True, deal_cap=30, draws=False)
        assert sc.MatchFormat.from_dict(fmt.to_dict()) == fmt
        assert sc.MatchFormat.from_dict(None) == sc.MatchFormat()
