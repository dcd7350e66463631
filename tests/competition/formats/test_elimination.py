"""Brackets: standard seeding, byes, paths, one champion, match counts, double elimination."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

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
from competition.formats.elimination import DROP_ORDERS, _possible_rematches
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
        b = double_elimination(list(range(size)))
        orders = [f for f in b.fixtures if f.part == "losers" and f.round == 2]
        assert orders
        counts = _possible_rematches(size, rounds, [DROP_ORDERS[0]] * (rounds - 1))
        assert counts[2] == 0


@pytest.mark.parametrize("rounds", [3, 4, 5])
def test_drop_orders_are_no_worse_than_always_reversing(rounds: int) -> None:
    size = 2**rounds
    b = double_elimination(list(range(size)))
    chosen = []
    for t in range(2, rounds + 1):
        f = b.fixture(f"L{2 * (t - 1)}-1")
        chosen.append(f.slot_b)
    assert all(isinstance(s, LoserOf) for s in chosen)
    # the chosen orders, found by the builder, score at most what reversing every round does
    from competition.formats import elimination as el

    picked = []
    for t in range(2, rounds + 1):
        m = size // 2**t
        drops = [
            int(b.fixture(f"L{2 * (t - 1)}-{i}").slot_b.fixture.split("-")[1])
            for i in range(1, m + 1)
        ]  # type: ignore[union-attr]
        picked.append(next(o for o in el.DROP_ORDERS if o(m) == drops))
    assert _possible_rematches(size, rounds, picked) <= _possible_rematches(
        size, rounds, [el.DROP_ORDERS[0]] * (rounds - 1)
    )


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
