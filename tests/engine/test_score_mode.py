"""Score mode: sc.check_result accepts exactly the deal results some deal can have (D2, W1-W2).

Three kinds of evidence: hand-made cases of each refusal and each edge; every result the
engine itself scores (random complete deals under random sweep values) is accepted; and a
brute force over the placements of sweeps on the 48 plays, written independently of the
engine, agrees with the check on every result with few sweeps and on results with many.
"""

import random
from functools import cache
from itertools import combinations, combinations_with_replacement

import pytest
from hypothesis import given
from hypothesis import strategies as st

import seep_core as sc
from tests.engine.helpers import examples

#: the four seats as dealers: the bidder's team is team 0 when seat 3 or 1 deals
DEALER_OF_BIDDER_TEAM = {0: 3, 1: 0}


def result(points, sweeps, dealer, rules=None):
    return sc.check_result(points, sweeps, dealer, rules)


def refusal(points, sweeps, dealer, rules=None) -> sc.IllegalMove:
    with pytest.raises(sc.IllegalMove) as info:
        sc.check_result(points, sweeps, dealer, rules)
    assert info.value.message
    return info.value


class TestCardPoints:
    def test_card_points_adding_up_to_100_are_accepted(self):
        assert result([57, 43], [[], []], 3) == {
            "points": [57, 43],
            "sweeps": [[], []],
            "total": [57, 43],
        }
        assert result([100, 0], [[], []], 0)["total"] == [100, 0]

    def test_card_points_not_adding_up_to_100_are_refused_in_words(self):
        error = refusal([60, 37], [[], []], 3)
        assert (error.rule, error.code) == ("D2", "points_not_100")
        assert error.message == "card points add up to 100 in every deal; these add up to 97"

    @pytest.mark.parametrize("points", [[101, -1], [-5, 105]])
    def test_a_team_cannot_score_under_0_or_over_100_card_points(self, points):
        error = refusal(points, [[], []], 3)
        assert (error.rule, error.code) == ("D2", "bad_points")

    @pytest.mark.parametrize(
        "points", [None, 100, [100], [50, 50, 0], [50.0, 50], ["50", "50"], [True, 99], {}]
    )
    def test_card_points_that_are_not_two_whole_numbers_are_malformed(self, points):
        with pytest.raises(sc.MalformedMove) as info:
            sc.check_result(points, [[], []], 3)
        assert info.value.code == "bad_result"


class TestShapes:
    @pytest.mark.parametrize(
        "sweeps",
        [None, [], [[50]], [[50], [], []], [50, 50], [[50.0], []], [["50"], []], [[True], []]],
    )
    def test_sweeps_that_are_not_two_lists_of_whole_numbers_are_malformed(self, sweeps):
        with pytest.raises(sc.MalformedMove) as info:
            sc.check_result([50, 50], sweeps, 3)
        assert info.value.code == "bad_result"

    @pytest.mark.parametrize("dealer", [-1, 4, None, "0", 1.0, True])
    def test_the_dealer_is_a_seat(self, dealer):
        with pytest.raises(sc.SeepError) as info:
            sc.check_result([50, 50], [[], []], dealer)
        assert info.value.code == "bad_seat"

    def test_tuples_are_read_like_lists_and_come_back_as_lists(self):
        assert result((50, 50), ((50,), ()), 3) == result([50, 50], [[50], []], 3)


class TestSweepValues:
    def test_a_value_no_sweep_is_worth_is_refused(self):
        error = refusal([50, 50], [[30], []], 3)
        assert (error.rule, error.code) == ("W1", "impossible_sweep")
        assert "30" in error.message and "50" in error.message

    def test_a_sweep_worth_nothing_is_not_recorded(self):
        error = refusal([50, 50], [[], [0]], 3)
        assert (error.rule, error.code) == ("W1", "sweep_worth_nothing")

    def test_a_negative_sweep_is_no_sweep_at_all(self):
        error = refusal([50, 50], [[-50], []], 3)
        assert (error.rule, error.code) == ("W1", "impossible_sweep")

    def test_only_the_bidders_team_can_sweep_on_the_first_play(self):
        # dealer 3: seat 0 bids, team 0 makes the odd plays, play 1 among them
        assert result([50, 50], [[25], []], 3)["sweeps"] == [[25], []]
        error = refusal([50, 50], [[], [25]], 3)
        assert (error.rule, error.code) == ("W2", "sweep_wrong_team")
        # dealer 0: seat 1 bids, so now team 1 may
        assert result([50, 50], [[], [25]], 0)["sweeps"] == [[], [25]]

    def test_there_is_one_first_play(self):
        error = refusal([50, 50], [[25, 25], []], 3)
        assert (error.rule, error.code) == ("W2", "first_sweep_twice")

    def test_a_last_play_sweep_worth_points_is_the_dealers_teams_once(self):
        rules = sc.Rules(last_sweep=20)
        assert result([50, 50], [[], [20]], 3, rules)["sweeps"] == [[], [20]]
        wrong_team = refusal([50, 50], [[20], []], 3, rules)
        assert (wrong_team.rule, wrong_team.code) == ("W2", "sweep_wrong_team")
        twice = refusal([50, 50], [[], [20, 20]], 3, rules)
        assert (twice.rule, twice.code) == ("W2", "last_sweep_twice")

    def test_one_first_and_one_last_play_sweep_of_the_same_value_go_to_the_two_teams(self):
        # the old check took any 25 for a first-play sweep and refused the dealer's team one
        rules = sc.Rules(last_sweep=25)
        assert result([50, 50], [[], [25]], 3, rules)["sweeps"] == [[], [25]]
        assert result([50, 50], [[25], [25]], 3, rules)["sweeps"] == [[25], [25]]
        assert refusal([50, 50], [[25, 25], []], 3, rules).code == "first_sweep_twice"
        assert refusal([50, 50], [[], [25, 25]], 3, rules).code == "last_sweep_twice"

    def test_a_first_play_value_equal_to_the_sweep_value_is_an_ordinary_sweep(self):
        rules = sc.Rules(first_sweep=50)
        assert result([50, 50], [[], [50, 50]], 3, rules)["sweeps"] == [[], [50, 50]]
        assert result([50, 50], [[50] * 24, []], 3, rules)["total"] == [1250, 50]

    def test_with_sweeps_worth_nothing_only_first_play_sweeps_are_recorded(self):
        rules = sc.Rules(sweep=0)
        assert result([50, 50], [[25], []], 3, rules)["sweeps"] == [[25], []]
        assert refusal([50, 50], [[50], []], 3, rules).code == "impossible_sweep"

    def test_sweeps_come_back_in_the_order_of_the_plays(self):
        rules = sc.Rules(last_sweep=20)
        assert result([50, 50], [[50, 50, 25], [20, 50]], 3, rules)["sweeps"] == [
            [25, 50, 50],
            [50, 20],
        ]


class TestHowManySweeps:
    def test_the_bidders_team_may_sweep_every_odd_play(self):
        # plays 1, 3, ..., 47: the first worth 25, the other 23 worth 50
        got = result([50, 50], [[25] + [50] * 23, []], 3)
        assert got["total"] == [50 + 25 + 23 * 50, 50]

    def test_the_dealers_team_may_sweep_every_even_play_the_last_worth_nothing(self):
        assert result([50, 50], [[], [50] * 23], 3)["total"] == [50, 50 + 23 * 50]

    def test_24_sweeps_worth_50_do_not_fit_under_the_default_values(self):
        for sweeps in ([[50] * 24, []], [[], [50] * 24], [[50] * 12, [50] * 12]):
            error = refusal([50, 50], sweeps, 3)
            assert (error.rule, error.code) == ("W1", "too_many_sweeps")

    def test_24_sweeps_may_split_between_the_teams(self):
        # team 0 sweeps plays 1, 3, ..., 23 and team 1 plays 26, 28, ..., 48 (worth 20)
        rules = sc.Rules(last_sweep=20)
        got = result([50, 50], [[25] + [50] * 11, [50] * 11 + [20]], 3, rules)
        assert got["sweeps"] == [[25] + [50] * 11, [50] * 11 + [20]]

    @pytest.mark.parametrize("count", [25, 30, 47])
    def test_more_than_24_sweeps_never_fit(self, count):
        rules = sc.Rules(first_sweep=50, last_sweep=50)  # every play worth the same
        half = count // 2
        error = refusal([50, 50], [[50] * half, [50] * (count - half)], 3, rules)
        assert (error.rule, error.code) == ("W1", "too_many_sweeps")
        assert str(count) in error.message

    def test_a_first_play_sweep_leaves_the_second_play_without_one(self):
        # 25 on play 1 and then 23 more for team 1 would need play 2 or two in a row
        assert refusal([50, 50], [[25], [50] * 23], 3).code == "too_many_sweeps"
        assert result([50, 50], [[25], [50] * 22], 3)["sweeps"] == [[25], [50] * 22]


# --- every result the engine scores is accepted ---------------------------------------------

SWEEP_VALUES = st.sampled_from([0, 10, 25, 50])
RULES = st.builds(
    sc.Rules,
    sweep=SWEEP_VALUES,
    first_sweep=SWEEP_VALUES,
    last_sweep=SWEEP_VALUES,
    minimum=st.integers(0, 50),
    auto_join_sets=st.booleans(),
    max_houses=st.sampled_from([None, 1, 2]),
)


def played_deal(deck, dealer, rules, rnd):
    """Play a deal to its end at random, preferring captures (they make sweeps)."""
    deal = sc.new_deal(dealer, deck, rules)
    while legal := sc.legal_moves(deal):
        captures = [m for m in legal if m["action"] == "capture"]
        deal = sc.apply(deal, rnd.choice(captures if captures and rnd.random() < 0.8 else legal))
    return deal


class TestTheEnginesOwnResults:
    @examples(150, shrink=False)
    @given(
        deck=st.permutations(sc.ordered_deck()),
        dealer=st.integers(0, 3),
        rules=RULES,
        rnd=st.randoms(use_true_random=False),
    )
    def test_every_result_of_a_played_deal_is_accepted_as_it_is(self, deck, dealer, rules, rnd):
        deal = played_deal(deck, dealer, rules, rnd)
        if deal.phase == "redealt":
            return  # thrown in: no result to enter
        scored = sc.score(deal)
        assert sc.check_result(scored["points"], scored["sweeps"], dealer, rules) == scored
        shuffled = [rnd.sample(s, len(s)) for s in scored["sweeps"]]
        assert sc.check_result(scored["points"], shuffled, dealer, rules) == scored


# --- a brute force over the placements of sweeps --------------------------------------------


def placements(k: int, plays: int = 48):
    """Yield every set of ``k`` plays out of 1..plays with no two in a row (as tuples).

    Such sets correspond one to one with k-subsets of 1..plays-k+1: subtract i from the i-th.
    """
    for chosen in combinations(range(1, plays - k + 2), k):
        yield tuple(c + i for i, c in enumerate(chosen))


@cache
def shapes(k: int) -> frozenset:
    """Return what tells the placements of ``k`` sweeps apart for their result: whether play
    1 and play 48 sweep, and how many of the odd plays 3-47 and even plays 2-46 do.
    """
    out = set()
    for swept in placements(k):
        odd = sum(1 for p in swept if p % 2 and p != 1)
        even = sum(1 for p in swept if not p % 2 and p != 48)
        out.add((1 in swept, 48 in swept, odd, even))
    return frozenset(out)


def brute_results(rules: sc.Rules, bidder_team: int, sizes) -> set:
    """Return every result (each team's sorted sweep values) that sweeps on ``sizes`` plays
    give: play 1 is worth first_sweep, play 48 last_sweep, the others sweep; the bidder's
    team makes the odd plays; a sweep worth 0 is not recorded.
    """
    out = set()
    for k in sizes:
        for first, last, odd, even in shapes(k):
            teams: tuple[list[int], list[int]] = ([], [])
            teams[bidder_team].extend([rules.first_sweep] * first + [rules.sweep] * odd)
            teams[1 - bidder_team].extend([rules.sweep] * even + [rules.last_sweep] * last)
            out.add(tuple(tuple(sorted(v for v in t if v)) for t in teams))
    return out


def accepted(rules: sc.Rules, dealer: int, sweeps) -> bool:
    try:
        sc.check_result([50, 50], [list(s) for s in sweeps], dealer, rules)
    except sc.IllegalMove:
        return False
    return True


BRUTE_RULES = [
    sc.Rules(),
    sc.Rules(first_sweep=50),
    sc.Rules(last_sweep=50),
    sc.Rules(last_sweep=25),
    sc.Rules(sweep=30, first_sweep=10, last_sweep=20),
    sc.Rules(first_sweep=0, last_sweep=0),
    sc.Rules(sweep=0, first_sweep=25, last_sweep=25),
    sc.Rules(sweep=25, first_sweep=25, last_sweep=25),
]


def candidates(values: list[int], size: int):
    """Yield every pair of team sweep lists over ``values`` with ``size`` sweeps in all."""
    for size_0 in range(size + 1):
        for team_0 in combinations_with_replacement(sorted(values), size_0):
            for team_1 in combinations_with_replacement(sorted(values), size - size_0):
                yield team_0, team_1


def near(sweeps, values) -> set:
    """Return ``sweeps`` with one value added to, dropped from or changed in one team's list."""
    out = set()
    for team in (0, 1):
        own = list(sweeps[team])
        changed = [[*own, v] for v in values]
        changed += [own[:i] + own[i + 1 :] for i in range(len(own))]
        changed += [[*own[:i], v, *own[i + 1 :]] for i in range(len(own)) for v in values]
        for new in changed:
            pair = [sweeps[0], sweeps[1]]
            pair[team] = tuple(sorted(new))
            out.add((pair[0], pair[1]))
    return out


@pytest.mark.parametrize("bidder_team", [0, 1])
class TestAgainstABruteForce:
    @pytest.mark.parametrize("rules", BRUTE_RULES, ids=repr)
    def test_results_with_up_to_3_sweeps_are_accepted_exactly_when_some_placement_gives_them(
        self, rules, bidder_team
    ):
        feasible = brute_results(rules, bidder_team, range(4))
        values = sorted({rules.sweep, rules.first_sweep, rules.last_sweep, 7} - {0})
        dealer = DEALER_OF_BIDDER_TEAM[bidder_team]
        tried = [sweeps for size in range(4) for sweeps in candidates(values, size)]
        assert len(tried) > 30
        for sweeps in tried:
            assert accepted(rules, dealer, sweeps) == (sweeps in feasible), sweeps

    @pytest.mark.parametrize("rules", BRUTE_RULES[:5], ids=repr)
    def test_results_with_22_to_25_sweeps_are_accepted_exactly_when_some_placement_gives_them(
        self, rules, bidder_team
    ):
        # A result of n recorded sweeps comes from a placement of exactly n sweeps if it comes
        # from any: dropping the unrecorded ones (worth 0) keeps a placement a placement.
        # So the placements of 22-24 sweeps give every result of 22-24 sweeps, and none has 25.
        feasible = brute_results(rules, bidder_team, (22, 23, 24))
        dealer = DEALER_OF_BIDDER_TEAM[bidder_team]
        values = sorted({rules.sweep, rules.first_sweep, rules.last_sweep, 7} - {0})
        rnd = random.Random(f"{rules!r} {bidder_team}")
        for sweeps in feasible:
            assert accepted(rules, dealer, sweeps), sweeps
        many = sorted(s for s in feasible if len(s[0]) + len(s[1]) >= 22)
        tried = 0
        for sweeps in rnd.sample(many, min(len(many), 6)):
            for changed in near(sweeps, values):
                if len(changed[0]) + len(changed[1]) >= 22:
                    tried += 1
                    assert accepted(rules, dealer, changed) == (changed in feasible), changed
        assert tried or not many  # none when sweeps are worth nothing but on plays 1 and 48
