"""Brackets: standard seeding, byes, paths, one champion, match counts, double elimination,
and the losers' bracket rematches its drop orders let happen."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bench.drop_orders import losers_rematches, peer_orders
from competition.formats import (
    Bracket,
    BracketState,
    FormatError,
    LoserOf,
    Seed,
    WinnerOf,
    advance,
    double_elimination,
    single_elimination,
    standard_order,
)
from competition.formats.drop_orders import (
    DROP_ORDERS,
    ORDERINGS,
    _possible_rematches,
    drop_order_names,
    expected_losers_rematches,
)
from competition.formats.drop_table import DROP_TABLE
from tests.engine.helpers import examples


def play_out(bracket: Bracket, rng: random.Random) -> tuple[BracketState, int]:
    """Play the bracket to its end with random winners, ready fixtures in random order."""
    results: dict[str, int] = {}
    while True:
        state = advance(bracket, results)
        ready = state.ready()
        if not ready:
            return state, len(results)
        f = rng.choice(ready)
        results[f.key] = rng.choice([f.a, f.b])


def check_structure(bracket: Bracket) -> None:
    keys = [f.key for f in bracket.fixtures]
    assert len(keys) == len(set(keys))
    seen: list[object] = []
    for i, f in enumerate(bracket.fixtures):
        for slot in (f.slot_a, f.slot_b):
            if isinstance(slot, WinnerOf | LoserOf):
                assert slot.fixture in keys[:i], "a fixture comes after what feeds it"
            seen.append(slot)
        for dest, kind in ((f.winner_to, WinnerOf), (f.loser_to, LoserOf)):
            if dest is not None:
                target = bracket.fixture(dest[0])
                assert (target.slot_a if dest[1] == "a" else target.slot_b) == kind(f.key)
    assert len(seen) == len(set(seen)), "every team has exactly one way in"
    assert sorted(s.number for s in seen if isinstance(s, Seed)) == list(
        range(1, len(bracket.seeds) + 1)
    )


def test_standard_seeding_keeps_the_top_seeds_apart() -> None:
    assert standard_order(16) == (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)
    b = single_elimination(list(range(1, 17)))
    final = b.fixture("R4-1")
    assert (final.slot_a, final.slot_b) == (WinnerOf("R3-1"), WinnerOf("R3-2"))
    top, bottom = standard_order(16)[:8], standard_order(16)[8:]
    assert 1 in top and 2 in bottom and {3, 4} <= set(top) | set(bottom)
    assert {3, 4} & set(top) and {3, 4} & set(bottom)


@pytest.mark.parametrize("n", [5, 6, 12, 13, 100])
def test_byes_go_to_the_top_seeds(n: int) -> None:
    b = single_elimination(list(range(n)))
    size = 1 << (n - 1).bit_length()
    first = {s.number for f in b.fixtures if f.round == 1 for s in (f.slot_a, f.slot_b)}
    assert first == set(range(size - n + 1, n + 1))


@examples(120)
@given(st.integers(2, 128), st.booleans(), st.integers(0, 2**32))
def test_single_elimination_has_one_champion_and_n_minus_1_matches(n, third, seed) -> None:
    b = single_elimination(list(range(1000, 1000 + n)), third_place=third)
    check_structure(b)
    state, played = play_out(b, random.Random(seed))
    assert state.finished and state.champion is not None
    assert played == n - 1 + (third and n >= 4)
    assert len(b.fixtures) == played
    out = [e for e, _ in state.eliminated]
    assert sorted([*out, state.champion]) == list(b.seeds)


@examples(120)
@given(st.integers(2, 128), st.booleans(), st.integers(0, 2**32))
def test_double_elimination_sends_teams_out_after_two_losses(n, reset, seed) -> None:
    b = double_elimination(list(range(1000, 1000 + n)), reset=reset)
    check_structure(b)
    state, played = play_out(b, random.Random(seed))
    assert state.finished and state.champion is not None
    losses = Counter(f.loser for f in state.fixtures if f.status == "decided")
    gf1 = next(f for f in state.fixtures if f.key == "GF1")
    for team in b.seeds:
        if team == state.champion:
            assert losses[team] <= 1
        elif not reset and team == gf1.loser and gf1.loser == gf1.a:
            assert (
                losses[team] == 1
            )  # without a reset, the winners' champion can go out once beaten
        else:
            assert losses[team] == 2
    assert played in (2 * n - 2, 2 * n - 1)
    assert played == 2 * n - 2 + (losses[state.champion] == 1 and reset)
    assert sorted([e for e, _ in state.eliminated] + [state.champion]) == sorted(b.seeds)


def test_the_reset_is_played_only_if_the_losers_champion_wins_the_first_final() -> None:
    b = double_elimination([1, 2])
    first = advance(b, {"W1-1": 1})
    assert [f.status for f in first.fixtures] == ["decided", "ready", "waiting"]
    assert advance(b, {"W1-1": 1, "GF1": 1}).champion == 1
    assert [f.status for f in advance(b, {"W1-1": 1, "GF1": 1}).fixtures][-1] == "void"
    reset = advance(b, {"W1-1": 1, "GF1": 2})
    assert reset.fixtures[-1].status == "ready" and reset.champion is None
    assert advance(b, {"W1-1": 1, "GF1": 2, "GF2": 2}).champion == 2
    with pytest.raises(FormatError):
        advance(b, {"W1-1": 1, "GF1": 1, "GF2": 1})


def test_the_first_drop_round_can_never_hold_a_rematch() -> None:
    for rounds in range(3, 8):
        size = 2**rounds
        counts = _possible_rematches(size, rounds, [DROP_ORDERS[0]] * (rounds - 1))
        assert counts[2] == 0
        measured = [ORDERINGS[name] for name in drop_order_names(size)]
        assert _possible_rematches(size, rounds, measured)[2] == 0


@pytest.mark.parametrize("rounds", [3, 4, 5])
def test_the_old_rule_is_no_worse_than_always_reversing_on_possible_rematches(
    rounds: int,
) -> None:
    """The rule of the brackets drawn before the measured table, which they keep."""
    size = 2**rounds
    b = double_elimination(list(range(size)), drop_orders="fewest_possible")
    picked = []
    for t in range(2, rounds + 1):
        m = size // 2**t
        drops = []
        for i in range(1, m + 1):
            slot = b.fixture(f"L{2 * (t - 1)}-{i}").slot_b
            assert isinstance(slot, LoserOf)
            drops.append(int(slot.fixture.split("-")[1]))
        picked.append(next(o for o in DROP_ORDERS if o(m) == drops))
    assert _possible_rematches(size, rounds, picked) <= _possible_rematches(
        size, rounds, [DROP_ORDERS[0]] * (rounds - 1)
    )


# --- Rematches that happen -----------------------------------------------------------------

#: brackets-manager.js's fixed table of drop orders (its ``defaultMinorOrdering``, the table
#: of the bracket's size for a field with byes; bench/drop_orders.py's PEER) on this
#: project's brackets: the expected number of losers' bracket matches between two teams
#: that met already, every match won 50/50 at random, by field size (exact values rounded
#: up to 4 places; bench/drop_orders.py)
PEER_BASELINE = {
    4: 0.5, 5: 0.6875, 6: 0.625, 7: 0.625, 8: 0.625, 9: 0.8516, 10: 1.0782, 11: 1.0547,
    12: 1.0313, 13: 1.0313, 14: 1.0313, 15: 1.0313, 16: 1.0313, 17: 1.0049, 18: 0.9786,
    19: 0.9522, 20: 0.9258, 21: 0.8985, 22: 0.8711, 23: 0.8438, 24: 0.8165, 25: 0.8165,
    26: 0.8165, 27: 0.8165, 28: 0.8165, 29: 0.8165, 30: 0.8165, 31: 0.8165, 32: 0.8165,
    33: 1.3034, 34: 1.2864, 35: 1.2695, 36: 1.2525, 37: 1.2355, 38: 1.2186, 39: 1.2016,
    40: 1.1846, 41: 1.1676, 42: 1.1506, 43: 1.1335, 44: 1.1165, 45: 1.0995, 46: 1.0824,
    47: 1.0654, 48: 1.0484, 49: 1.0484, 50: 1.0484, 51: 1.0484, 52: 1.0484, 53: 1.0484,
    54: 1.0484, 55: 1.0484, 56: 1.0484, 57: 1.0484, 58: 1.0484, 59: 1.0484, 60: 1.0484,
    61: 1.0484, 62: 1.0484, 63: 1.0484, 64: 1.0484, 65: 0.8056, 66: 0.8074, 67: 0.8092,
    68: 0.811, 69: 0.8128, 70: 0.8146, 71: 0.8164, 72: 0.8182, 73: 0.82, 74: 0.8218,
    75: 0.8237, 76: 0.8255, 77: 0.8273, 78: 0.8291, 79: 0.8309, 80: 0.8327, 81: 0.8345,
    82: 0.8363, 83: 0.8381, 84: 0.8399, 85: 0.8417, 86: 0.8435, 87: 0.8453, 88: 0.8471,
    89: 0.8489, 90: 0.8507, 91: 0.8525, 92: 0.8543, 93: 0.8561, 94: 0.858, 95: 0.8598,
    **dict.fromkeys(range(96, 129), 0.8616),
}  # fmt: skip
#: their sum over 4..128 teams, and the measured table's (89.151, rounded up)
PEER_TOTAL, MEASURED_TOTAL = 114.86, 89.152


def test_the_drop_orders_let_no_more_rematches_happen_than_the_peers_fixed_table() -> None:
    """For every field of 4 to 128 teams: exact expectations, no sample."""
    worse, total = {}, Fraction(0)
    for n in range(4, 129):
        b = double_elimination(list(range(1, n + 1)))
        expected = expected_losers_rematches(b)
        total += expected
        if expected > PEER_BASELINE[n]:
            worse[n] = (float(expected), PEER_BASELINE[n])
        # and when the higher seed wins every match, one rematch at most (the peer's too)
        assert losers_rematches(b, min) <= 1, n
    assert not worse, worse
    assert total <= MEASURED_TOTAL < 0.8 * PEER_TOTAL


def test_the_baseline_is_the_peers_table_on_these_brackets() -> None:
    for n in range(4, 129):
        b = double_elimination(list(range(n)), drop_orders=peer_orders(n))
        assert 0 <= PEER_BASELINE[n] - expected_losers_rematches(b) < Fraction(1, 10**4), n
    assert sum(PEER_BASELINE.values()) == pytest.approx(PEER_TOTAL, abs=0.01)


#: the fields whose measured drop orders are not the orders of their bracket size (as the
#: permutations they make), so brackets-manager.js told one list of orders per bracket size
#: builds another losers' bracket there (docs/competition.md, "Comparing with
#: brackets-manager.js"); the exact expected rematches with the field's orders and with the
#: bracket size's, on the field's own bracket and byes
FIELD_NOT_SIZE = {
    10: (Fraction(11, 16), Fraction(45, 64)),
    17: (Fraction(3, 4), Fraction(387, 512)),
    18: (Fraction(767, 1024), Fraction(195, 256)),
    19: (Fraction(767, 1024), Fraction(393, 512)),
    20: (Fraction(383, 512), Fraction(99, 128)),
    21: (Fraction(383, 512), Fraction(391, 512)),
    22: (Fraction(765, 1024), Fraction(193, 256)),
    34: (Fraction(11967, 16384), Fraction(187, 256)),
    35: (Fraction(11935, 16384), Fraction(373, 512)),
    36: (Fraction(5951, 8192), Fraction(93, 128)),
    37: (Fraction(5935, 8192), Fraction(371, 512)),
    38: (Fraction(11837, 16384), Fraction(185, 256)),
    39: (Fraction(11805, 16384), Fraction(369, 512)),
    40: (Fraction(2943, 4096), Fraction(23, 32)),
    41: (Fraction(2935, 4096), Fraction(11743, 16384)),
    42: (Fraction(11707, 16384), Fraction(5855, 8192)),
    43: (Fraction(11675, 16384), Fraction(11677, 16384)),
    44: (Fraction(5821, 8192), Fraction(2911, 4096)),
    45: (Fraction(5805, 8192), Fraction(11611, 16384)),
    46: (Fraction(11577, 16384), Fraction(5789, 8192)),
}


def size_orders(n: int) -> tuple[str, ...]:
    """Return the drop orders of n's bracket size, for the drop rounds of two losers or more."""
    rounds = (n - 1).bit_length()
    return drop_order_names(2**rounds)[: max(rounds - 2, 0)]


def test_only_10_17_to_22_and_34_to_46_teams_have_drop_orders_of_their_own() -> None:
    """Everywhere else from 5 to 128 teams the field's orders are its bracket size's, so one
    list per bracket size (brackets-manager's way) reproduces the bracket; at these the
    field's orders let strictly fewer rematches happen, and the two brackets are the same up
    to the first drop round (winners' bracket, losers' round 1) and differ from it on."""
    own = {}
    for n in range(5, 129):
        size = 2 ** (n - 1).bit_length()

        def perms(names: tuple[str, ...], size: int = size) -> list[list[int]]:
            return [ORDERINGS[name](size >> t) for t, name in enumerate(names, start=2)]

        if perms(drop_order_names(n)) != perms(drop_order_names(size)):
            own[n] = drop_order_names(n)
    assert sorted(own) == sorted(FIELD_NOT_SIZE)
    for n, (field, bracket_size) in FIELD_NOT_SIZE.items():
        ours = double_elimination(list(range(1, n + 1)))
        theirs = double_elimination(list(range(1, n + 1)), drop_orders=size_orders(n))
        assert expected_losers_rematches(ours) == field < bracket_size, n
        assert expected_losers_rematches(theirs) == bracket_size, n
        assert ours.seeds == theirs.seeds
        pairs = list(zip(ours.fixtures, theirs.fixtures, strict=True))
        # the same fixtures, the same teams in every winners' fixture; only where some
        # winners' losers go (round 2 on) and so the losers' fixtures from round 2 on differ
        assert all(f.key == g.key for f, g in pairs), n
        slots = {
            (f.part, f.round) for f, g in pairs if (f.slot_a, f.slot_b) != (g.slot_a, g.slot_b)
        }
        sent = {(f.part, f.round) for f, g in pairs if f.loser_to != g.loser_to}
        assert {part for part, _ in slots} == {"losers"} and min(r for _, r in slots) == 2, n
        assert {part for part, _ in sent} == {"winners"} and min(r for _, r in sent) == 2, n


def test_at_10_teams_the_winners_of_round_1s_matches_losers_play_losers_round_2() -> None:
    """10 teams, a bracket of 16: only 8 v 9 (W1-2) and 7 v 10 (W1-6) are played, their
    losers are losers' round 1's only survivors, so two of winners' round 2's four losers
    meet them in losers' round 2 and two go straight to losers' round 3. The field's orders
    (half shift first) make the losers of W2-1 and W2-3 (who may be the teams that beat
    those survivors) play losers' round 2; the orders of 16 teams (reverse first) send them
    straight on, a round closer to losers' round 5 where the two can meet again."""
    b = double_elimination(list(range(1, 11)))
    assert [
        (f.key, f.slot_a, f.slot_b) for f in b.fixtures if f.part == "winners" and f.round == 1
    ] == [("W1-2", Seed(8), Seed(9)), ("W1-6", Seed(7), Seed(10))]
    assert (b.fixture("W2-1").slot_a, b.fixture("W2-1").slot_b) == (Seed(1), WinnerOf("W1-2"))
    assert (b.fixture("W2-3").slot_a, b.fixture("W2-3").slot_b) == (Seed(2), WinnerOf("W1-6"))

    def drops(bracket: Bracket) -> list[tuple[str, object, object]]:
        return [(f.key, f.slot_a, f.slot_b) for f in bracket.fixtures if f.round in (2, 3)]

    assert drop_order_names(10)[0] == "half_shift" and size_orders(10)[0] == "reverse"
    assert [(f.key, f.round) for f in b.fixtures if f.part == "losers"][:4] == [
        ("L2-1", 2), ("L2-3", 2), ("L3-1", 3), ("L3-2", 3)
    ]  # fmt: skip
    assert [d for d in drops(b) if d[0][0] == "L"] == [
        ("L2-1", LoserOf("W1-2"), LoserOf("W2-3")),
        ("L2-3", LoserOf("W1-6"), LoserOf("W2-1")),
        ("L3-1", WinnerOf("L2-1"), LoserOf("W2-4")),
        ("L3-2", WinnerOf("L2-3"), LoserOf("W2-2")),
    ]
    sixteen = double_elimination(list(range(1, 11)), drop_orders=size_orders(10))
    assert [d for d in drops(sixteen) if d[0][0] == "L"] == [
        ("L2-1", LoserOf("W1-2"), LoserOf("W2-4")),
        ("L2-3", LoserOf("W1-6"), LoserOf("W2-2")),
        ("L3-1", WinnerOf("L2-1"), LoserOf("W2-3")),
        ("L3-2", WinnerOf("L2-3"), LoserOf("W2-1")),
    ]
    # the 1/64 between them: a round-1 loser (reaching losers' round 5 with 1/8) meets the
    # team that beat it (which went on to lose W2-1 or W2-3: 1/2) there with 1/8 * 1/8 *
    # 1/2 under the field's orders and 1/8 * 1/4 * 1/2 under the bracket size's, twice
    assert expected_losers_rematches(sixteen) - expected_losers_rematches(b) == Fraction(1, 64)


def test_the_table_names_an_order_for_every_drop_round_with_two_losers_or_more() -> None:
    assert sorted(DROP_TABLE) == list(range(5, 129))
    for n, names in DROP_TABLE.items():
        rounds = (n - 1).bit_length()
        assert len(names) == rounds - 2 and set(names) <= set(ORDERINGS), n
        assert drop_order_names(n) == (*names, "natural")
    assert drop_order_names(4) == ("natural",) and drop_order_names(2) == ()
    # past the sizes measured, the rule of before (never "natural" at every round)
    before = ("reverse_half_shift", "half_shift", *["reverse"] * 5)
    assert drop_order_names(129) == before == drop_order_names(129, "fewest_possible")


def every_result(bracket: Bracket) -> list[int]:
    """Return the losers' bracket rematches of every way the two brackets can be won."""
    fixtures = [f for f in bracket.fixtures if f.part != "final"]
    counts = []
    for picks in itertools.product((0, 1), repeat=len(fixtures)):
        choice = iter(picks)
        counts.append(losers_rematches(bracket, lambda a, b, c=choice: (a, b)[next(c)]))
    return counts


@pytest.mark.parametrize(
    ("n", "rule"),
    [
        *itertools.product([4, 5, 6, 7], ["measured", "fewest_possible", ("natural",)]),
        (8, "measured"),
        (8, ("natural", "natural")),
    ],
)
def test_the_expected_rematches_are_the_mean_over_every_result(n: int, rule: object) -> None:
    if isinstance(rule, tuple):
        rule = rule[: max((n - 1).bit_length() - 2, 0)]
    b = double_elimination(list(range(1, n + 1)), drop_orders=rule)  # type: ignore[arg-type]
    counts = every_result(b)
    assert expected_losers_rematches(b) == Fraction(sum(counts), len(counts))


@pytest.mark.parametrize("n", [24, 128])
def test_a_seeded_sample_of_play_outs_agrees_with_the_expectation(n: int) -> None:
    rng = random.Random(n)
    b = double_elimination(list(range(1, n + 1)))
    runs = 400
    mean = sum(losers_rematches(b, lambda x, y: rng.choice((x, y))) for _ in range(runs)) / runs
    assert mean == pytest.approx(float(expected_losers_rematches(b)), abs=0.2)


def test_unknown_drop_orders_are_refused() -> None:
    for bad in ("best", ("sideways",), ("reverse",) * 4):
        with pytest.raises(FormatError) as e:
            double_elimination(list(range(16)), drop_orders=bad)  # type: ignore[arg-type]
        assert e.value.code == "bad_drop_orders"


def test_results_that_do_not_fit_are_refused() -> None:
    b = single_elimination([1, 2, 3, 4])
    with pytest.raises(FormatError) as e:
        advance(b, {"R1-1": 3})
    assert e.value.code == "bad_winner"
    with pytest.raises(FormatError) as e:
        advance(b, {"R2-1": 1})
    assert e.value.code == "not_ready"
    with pytest.raises(FormatError) as e:
        advance(b, {"X": 1})
    assert e.value.code == "unknown_fixture"


def test_a_bye_fixture_simply_advances_its_team() -> None:
    b = single_elimination([10, 20, 30, 40, 50])
    state = advance(b, {})
    by_key = {f.key: f for f in state.fixtures}
    assert by_key["R2-1"].a == 10 and by_key["R2-1"].b is None
    assert by_key["R2-2"].a == 20 and by_key["R2-2"].b == 30 and by_key["R2-2"].status == "ready"
