"""Swiss: the priorities in order, checked against a brute-force search on small fields."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from competition.formats import FormatError, SwissCost, pairing_cost, swiss_pairings
from tests.engine.helpers import examples


def every_pairing(
    places: list[int], bye_ok: set[int]
) -> list[tuple[list[tuple[int, int]], int | None]]:
    """Return every perfect pairing of the places (with a bye from bye_ok if odd)."""
    out: list[tuple[list[tuple[int, int]], int | None]] = []

    def pair(rest: list[int], acc: list[tuple[int, int]]) -> None:
        if not rest:
            out.append((list(acc), None))
            return
        first = rest[0]
        for k in range(1, len(rest)):
            pair(rest[1:k] + rest[k + 1 :], [*acc, (first, rest[k])])

    if len(places) % 2:
        for b in sorted(bye_ok):
            before = len(out)
            pair([p for p in places if p != b], [])
            for i in range(before, len(out)):
                out[i] = (out[i][0], b)
    else:
        pair(places, [])
    return out


def simulate(
    n: int, rounds: int, seed: int
) -> tuple[list[tuple[int, int]], list[tuple[int, int]], list[int]]:
    """Return (standings, played, byes) after ``rounds`` of Swiss with random results."""
    rng = random.Random(seed)
    teams = list(range(1, n + 1))
    score = dict.fromkeys(teams, 0)
    played: list[tuple[int, int]] = []
    byes: list[int] = []
    for number in range(1, rounds + 1):
        ranked = sorted(teams, key=lambda t: (-score[t], t))
        r = swiss_pairings(
            [(t, score[t]) for t in ranked], round_number=number, played=played, byes=byes
        )
        for p in r.pairings:
            played.append((p.a, p.b))
            roll = rng.random()
            if roll < 0.15:
                score[p.a] += 1
                score[p.b] += 1
            else:
                score[p.a if roll < 0.6 else p.b] += 2
        if r.bye is not None:
            byes.append(r.bye)
            score[r.bye] += 2
    ranked = sorted(teams, key=lambda t: (-score[t], t))
    return [(t, score[t]) for t in ranked], played, byes


def history(
    draw: st.DrawFn, n: int
) -> tuple[list[tuple[int, int]], list[tuple[int, int]], list[int]]:
    scores = sorted(draw(st.lists(st.integers(0, 4), min_size=n, max_size=n)), reverse=True)
    standings = [(t + 1, s) for t, s in enumerate(scores)]
    pairs = [(a, b) for a in range(1, n + 1) for b in range(a + 1, n + 1)]
    played = draw(st.lists(st.sampled_from(pairs), max_size=2 * n))
    byes = draw(st.lists(st.integers(1, n), max_size=3))
    return standings, played, byes


@st.composite
def small_fields(draw: st.DrawFn) -> tuple[list[tuple[int, int]], list[tuple[int, int]], list[int]]:
    return history(draw, draw(st.integers(2, 10)))


@examples(150)
@given(small_fields(), st.sampled_from(["slide", "fold", "adjacent"]))
def test_the_pairing_is_the_best_a_brute_force_search_finds(field, method) -> None:
    standings, played, byes = field
    got = swiss_pairings(standings, round_number=3, played=played, byes=byes, method=method)
    fewest = min(Counter(byes)[t] for t, _ in standings) if len(standings) % 2 else 0
    bye_ok = {t for t, _ in standings if Counter(byes)[t] == fewest}
    best = min(
        pairing_cost(standings, pairs, bye=bye, played=played, byes=byes, method=method)
        for pairs, bye in every_pairing([t for t, _ in standings], bye_ok)
    )
    assert got.cost == best
    assert (
        pairing_cost(
            standings,
            [(p.a, p.b) for p in got.pairings],
            bye=got.bye,
            played=played,
            byes=byes,
            method=method,
        )
        == got.cost
    )


@examples(100)
@given(small_fields())
def test_every_team_plays_once_and_avoidable_rematches_are_avoided(field) -> None:
    standings, played, byes = field
    got = swiss_pairings(standings, round_number=2, played=played, byes=byes)
    seen = [e for p in got.pairings for e in (p.a, p.b)] + ([got.bye] if got.bye else [])
    assert sorted(seen) == sorted(t for t, _ in standings)
    assert [p.table for p in got.pairings] == list(range(1, len(got.pairings) + 1))
    # the rematch count is the least over all pairings that keep the bye rule
    counts = Counter(byes)
    fewest = min(counts[t] for t, _ in standings)
    bye_ok = {t for t, _ in standings if counts[t] == fewest}
    meets = Counter(frozenset(p) for p in played if p[0] != p[1])
    least = min(
        sum(meets[frozenset(pair)] for pair in pairs)
        for pairs, _ in every_pairing([t for t, _ in standings], bye_ok)
    )
    assert sum(meets[frozenset((p.a, p.b))] for p in got.pairings) == least


@examples(30)
@given(st.integers(3, 15).filter(lambda n: n % 2), st.integers(0, 10**6))
def test_byes_spread_nobody_gets_a_second_before_everyone_had_one(n: int, seed: int) -> None:
    rng = random.Random(seed)
    teams = list(range(1, n + 1))
    score = dict.fromkeys(teams, 0)
    played: list[tuple[int, int]] = []
    byes: list[int] = []
    for number in range(1, 2 * n + 1):
        ranked = sorted(teams, key=lambda t: (-score[t], t))
        r = swiss_pairings(
            [(t, score[t]) for t in ranked], round_number=number, played=played, byes=byes
        )
        assert r.bye is not None
        had = Counter(byes)
        assert had[r.bye] == min(had[t] for t in teams)
        byes.append(r.bye)
        for p in r.pairings:
            played.append((p.a, p.b))
            score[rng.choice((p.a, p.b))] += 2
        score[r.bye] += 2
    assert set(Counter(byes).values()) == {2}


def test_the_bye_goes_to_the_lowest_ranked_team_without_one() -> None:
    standings = [(1, 4), (2, 2), (3, 2), (4, 0), (5, 0)]
    assert swiss_pairings(standings, round_number=3).bye == 5
    assert swiss_pairings(standings, round_number=3, byes=[5]).bye == 4


def test_score_groups_pair_by_slide_and_floats_are_recorded() -> None:
    standings = [(1, 4), (2, 4), (3, 4), (4, 2), (5, 2), (6, 2), (7, 0), (8, 0)]
    r = swiss_pairings(standings, round_number=3)
    assert [(p.a, p.b) for p in r.pairings] == [(1, 2), (3, 4), (5, 6), (7, 8)]
    assert [(f.entrant, f.direction) for f in r.floats] == [(3, "down"), (4, "up")]
    assert r.cost == SwissCost(0, 0, 1, 0, r.cost.closeness)
    eight = [(t, 0) for t in range(1, 9)]
    slide = swiss_pairings(eight, round_number=1)
    assert [(p.a, p.b) for p in slide.pairings] == [(1, 5), (2, 6), (3, 7), (4, 8)]
    fold = swiss_pairings(eight, round_number=1, method="fold")
    assert [(p.a, p.b) for p in fold.pairings] == [(1, 8), (2, 7), (3, 6), (4, 5)]


def test_a_rematch_is_avoided_by_floating_rather_than_repeating() -> None:
    standings = [(1, 2), (2, 2), (3, 0), (4, 0)]
    r = swiss_pairings(standings, round_number=2, played=[(1, 2)])
    assert r.cost.rematches == 0
    assert [(p.a, p.b) for p in r.pairings] == [(1, 3), (2, 4)]


def test_an_unavoidable_rematch_is_played_once_more_not_twice() -> None:
    r = swiss_pairings([(1, 0), (2, 0)], round_number=3, played=[(1, 2), (1, 2)])
    assert r.cost.rematches == 2 and len(r.pairings) == 1


@pytest.mark.parametrize(("n", "rounds"), [(64, 4), (101, 5), (200, 6)])
def test_pruned_search_finds_what_the_complete_graph_finds(n: int, rounds: int) -> None:
    standings, played, byes = simulate(n, rounds, n)
    pruned = swiss_pairings(standings, round_number=rounds + 1, played=played, byes=byes, window=4)
    full = swiss_pairings(standings, round_number=rounds + 1, played=played, byes=byes, window=None)
    proven = (pruned.cost.rematches, pruned.cost.bye_rank, pruned.cost.score_gaps)
    assert proven == (full.cost.rematches, full.cost.bye_rank, full.cost.score_gaps)
    assert pruned.cost.fold >= full.cost.fold
    if pruned.fold_proven:
        assert pruned.cost.fold == full.cost.fold
    assert full.window is None and full.edges > pruned.edges


def proven(cost: SwissCost) -> tuple[int, int, int]:
    """Return the priorities every result is proven optimal for (fold only sometimes)."""
    return cost.rematches, cost.bye_rank, cost.score_gaps


@st.composite
def crowded_histories(
    draw: st.DrawFn,
) -> tuple[list[tuple[int, int]], list[tuple[int, int]], list[int]]:
    """Return 6 to 40 teams, many of whom have met teams near them in the standings.

    Every team has met its next ``band`` teams, and some neighbours met again: a late
    Swiss round's history, where small score groups have played among themselves and must
    float more than their parity alone asks (so the parity bound is often not met).
    """
    n = draw(st.integers(6, 40))
    scores = sorted(draw(st.lists(st.integers(0, 8), min_size=n, max_size=n)), reverse=True)
    standings = [(t + 1, s) for t, s in enumerate(scores)]
    band = draw(st.integers(0, 3))
    played = [(t, t + k) for t in range(1, n + 1) for k in range(1, band + 1) if t + k <= n]
    near = st.tuples(st.integers(1, n), st.integers(1, 3)).map(lambda p: (p[0], p[0] + p[1]))
    played += draw(st.lists(near.filter(lambda p: p[1] <= n), max_size=n))
    byes = draw(st.lists(st.integers(1, n), max_size=4))
    return standings, played, byes


@examples(80)
@given(crowded_histories(), st.integers(1, 3), st.sampled_from(["slide", "fold", "adjacent"]))
def test_a_narrow_window_is_as_good_as_all_pairs_on_random_histories(
    field, window: int, method
) -> None:
    standings, played, byes = field
    args = {"round_number": 4, "played": played, "byes": byes, "method": method}
    narrow = swiss_pairings(standings, window=window, **args)
    full = swiss_pairings(standings, window=None, **args)
    assert proven(narrow.cost) == proven(full.cost)
    assert narrow.cost.fold >= full.cost.fold
    if narrow.fold_proven:
        assert narrow.cost.fold == full.cost.fold


@examples(40)
@given(st.integers(10, 48), st.integers(3, 12), st.integers(1, 3), st.integers(0, 10**6))
def test_a_narrow_window_is_as_good_as_all_pairs_in_late_rounds(
    n: int, rounds: int, window: int, seed: int
) -> None:
    standings, played, byes = simulate(n, rounds, seed)
    args = {"round_number": rounds + 1, "played": played, "byes": byes}
    narrow = swiss_pairings(standings, window=window, **args)
    full = swiss_pairings(standings, window=None, **args)
    assert proven(narrow.cost) == proven(full.cost)
    assert narrow.cost.fold >= full.cost.fold
    if narrow.fold_proven:
        assert narrow.cost.fold == full.cost.fold


def test_leaders_who_have_met_float_down_without_widening_the_search() -> None:
    # parity alone lets the two leaders meet (a bound of no float); their meeting makes
    # both float, and the relaxed problem proves that from the first window
    standings = [(1, 4), (2, 4)] + [(t, 2) for t in range(3, 41)]
    r = swiss_pairings(standings, round_number=3, played=[(1, 2)], window=2)
    full = swiss_pairings(standings, round_number=3, played=[(1, 2)], window=None)
    assert r.window == 2 and r.edges < full.edges
    assert proven(r.cost) == proven(full.cost) == (0, 0, 2)
    assert {f.entrant for f in r.floats if f.direction == "down"} == {1, 2}


@pytest.mark.parametrize(("n", "rounds"), [(16, 3), (33, 5), (60, 6)])
def test_networkx_and_rustworkx_agree_on_the_same_weights(n: int, rounds: int) -> None:
    standings, played, byes = simulate(n, rounds, 7 * n)
    args = {"round_number": rounds + 1, "played": played, "byes": byes}
    fast = swiss_pairings(standings, solver="rustworkx", **args)
    slow = swiss_pairings(standings, solver="networkx", **args)
    assert (fast.solver, slow.solver) == ("rustworkx", "networkx")
    assert fast.cost == slow.cost


def test_the_same_input_gives_the_same_pairing() -> None:
    standings, played, byes = simulate(90, 5, 3)
    runs = {
        swiss_pairings(standings, round_number=6, played=played, byes=byes).pairings
        for _ in range(5)
    }
    assert len(runs) == 1


def test_bad_input_is_refused_with_a_code() -> None:
    cases = [
        ([(1, 0), (2, 2)], {}, "not_ranked"),
        ([(1, 0), (1, 0)], {}, "duplicate_entrant"),
        ([(1, 0)], {}, "too_few"),
        ([(1, 0), (2, 0)], {"method": "zigzag"}, "bad_method"),
        ([(1, 0), (2, 0)], {"solver": "igraph"}, "bad_solver"),
        ([(1, 0), (2, 0)], {"window": 0}, "bad_window"),
    ]
    for standings, extra, code in cases:
        with pytest.raises(FormatError) as e:
            swiss_pairings(standings, round_number=1, **extra)
        assert e.value.code == code
    with pytest.raises(FormatError):
        swiss_pairings([(1, 0), (2, 0)], round_number=0)
