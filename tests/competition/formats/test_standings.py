"""Standings and tie-breaks on hand-made tables: each tie-break alone, then together."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from competition.formats import FormatError, Match, Points, Side, standings
from competition.formats.tiebreaks import (
    buchholz,
    buchholz_cut1,
    figure,
    head_to_head,
    random_draw,
    sonneborn_berger,
)
from tests.engine.helpers import examples

P = Points(win=2, draw=1, loss=0, bye=2, forfeit=0)


def game(rnd: int, a: int, b: int, outcome: str = "win", **figures: int) -> Match:
    other = {"win": "loss", "loss": "win", "draw": "draw", "forfeit": "win"}[outcome]
    return Match(rnd, Side(a, outcome, **figures), Side(b, other))  # type: ignore[arg-type]


def bye(rnd: int, a: int) -> Match:
    return Match(rnd, Side(a, "bye"))


def order(table) -> list[tuple[int, int]]:
    return [(r.rank, r.entrant) for r in table.rows]


def test_match_points_then_record() -> None:
    rows = [
        game(1, 1, 2),
        game(1, 3, 4, "draw"),
        game(2, 1, 3),
        bye(2, 4),
        game(2, 2, 5, "forfeit"),
    ]
    table = standings(rows, points=P)
    assert [(r.entrant, r.points) for r in table.rows] == [(1, 4), (4, 3), (5, 2), (3, 1), (2, 0)]
    one = table.rows[0]
    assert (one.played, one.won, one.drawn, one.lost, one.byes) == (2, 2, 0, 0, 0)
    two = next(r for r in table.rows if r.entrant == 2)
    assert (two.played, two.won, two.lost) == (2, 0, 2)  # the forfeit counts as a loss


def test_seep_figures_sum_per_team() -> None:
    rows = [
        Match(1, Side(1, "win", 3, 1, 120, 5, 2), Side(2, "loss", 1, 3, -120, 2, 0)),
        Match(2, Side(1, "loss", 0, 2, -40, 1, 1), Side(3, "win", 2, 0, 40, 3, 0)),
    ]
    assert figure(rows, "bazzis_won") == {1: 3, 2: 1, 3: 2}
    assert figure(rows, "bazzi_difference") == {1: 0, 2: -2, 3: 2}
    assert figure(rows, "running_difference") == {1: 80, 2: -120, 3: 40}
    assert figure(rows, "deals_won") == {1: 6, 2: 2, 3: 3}
    assert figure(rows, "sweeps") == {1: 3, 2: 0, 3: 0}


def test_buchholz_counts_byes_and_forfeits_as_an_opponent_of_ones_own_points() -> None:
    # 1 beats 2, then has a bye; 2 wins by forfeit over 3; 3 beats 4
    rows = [game(1, 1, 2), game(1, 3, 4), bye(2, 1), game(2, 3, 2, "forfeit")]
    points = {1: 4, 2: 2, 3: 2, 4: 0}
    assert buchholz(rows, P) == {
        1: points[2] + points[1],
        2: points[1] + points[2],
        3: points[4] + points[3],
        4: points[3],
    }
    assert buchholz_cut1(rows, P) == {1: 4, 2: 4, 3: 2, 4: 0}


def test_sonneborn_berger_counts_only_games_played_at_the_table() -> None:
    rows = [
        game(1, 1, 2),
        game(1, 3, 4, "draw"),
        bye(2, 1),
        game(2, 3, 2, "forfeit"),
        game(2, 4, 5),
    ]
    # points: 1:4, 2:2 (forfeit win), 3:1, 4:3, 5:0
    sb = sonneborn_berger(rows, P)
    assert sb[1] == 2  # beat 2 (2 points); the bye adds nothing
    assert sb[2] == 0  # its only win was a forfeit
    assert sb[3] == Fraction(3, 2)  # drew with 4 (3 points)
    assert sb[4] == Fraction(1, 2) + 0  # drew with 3 (1 point), beat 5 (0)


def test_three_way_head_to_head_splits_into_a_two_way_one() -> None:
    # 1, 2 and 3 finish on 4 points. Their mini-table: 1 beat 2 and 3 (4), 2 and 3 drew
    # (1 each). 2 and 3 are still level, so they get a mini-table of their own (their one
    # game, a draw), which cannot split them: Buchholz does (2 met 7, stronger than 9).
    rows = [
        game(1, 1, 2),
        game(1, 3, 8),
        game(1, 7, 10),
        game(2, 1, 3),
        game(2, 2, 6),
        game(3, 2, 3, "draw"),
        game(3, 4, 1),
        game(4, 5, 1),
        game(4, 2, 7, "draw"),
        game(4, 3, 9, "draw"),
    ]
    table = standings(rows, points=P, tiebreaks=["head_to_head", "buchholz"])
    assert [(r.entrant, r.points) for r in table.rows[:3]] == [(1, 4), (2, 4), (3, 4)]
    assert head_to_head(rows, P, [1, 2, 3]) == {1: 4, 2: 1, 3: 1}
    assert head_to_head(rows, P, [2, 3]) == {2: 1, 3: 1}
    assert [r.value("head_to_head") for r in table.rows[:3]] == [4, 1, 1]
    assert [r.value("buchholz") for r in table.rows[1:3]] == [11, 9]
    assert [r.rank for r in table.rows[:3]] == [1, 2, 3]
    # without Buchholz, 2 and 3 share second place: every tie-break is exhausted
    alone = standings(rows, points=P, tiebreaks=["head_to_head"])
    assert order(alone)[:3] == [(1, 1), (2, 2), (2, 3)]


def test_head_to_head_is_re_applied_to_a_still_tied_sub_group() -> None:
    # 1-4 all on 4 points. Mini-table of the four: 2 and 3 on 4, 1 and 4 on 2. Each pair
    # then gets its own mini-table: 2 beat 3, 4 beat 1.
    rows = [
        game(1, 2, 3),
        game(1, 4, 1),
        game(2, 3, 1),
        game(2, 3, 4),
        game(3, 1, 2),
        game(3, 2, 4),
        game(4, 1, 5),
        game(4, 4, 6),
    ]
    table = standings(rows, points=P, tiebreaks=["head_to_head"])
    assert {r.entrant: r.points for r in table.rows if r.entrant <= 4} == dict.fromkeys(
        range(1, 5), 4
    )
    assert head_to_head(rows, P, [1, 2, 3, 4]) == {1: 2, 2: 4, 3: 4, 4: 2}
    assert [(r.rank, r.entrant) for r in table.rows[:4]] == [(1, 2), (2, 3), (3, 4), (4, 1)]


def test_ties_share_a_rank_only_when_every_tie_break_is_exhausted() -> None:
    rows = [game(1, 1, 2, "draw"), game(1, 3, 4, "draw")]
    table = standings(rows, points=P, tiebreaks=["head_to_head", "bazzis_won"])
    assert order(table) == [(1, 1), (1, 2), (1, 3), (1, 4)]
    table = standings(rows, points=P, tiebreaks=["head_to_head", "random"], seed=11)
    assert sorted(r.rank for r in table.rows) == [1, 2, 3, 4]
    again = standings(rows, points=P, tiebreaks=["head_to_head", "random"], seed=11)
    assert again == table and table.seed == 11


def test_as_of_round_filters_every_figure_to_that_round() -> None:
    rows = [game(1, 1, 2), game(1, 3, 4), game(2, 2, 3), game(2, 4, 1), game(3, 1, 3)]
    after_one = standings(rows, points=P, tiebreaks=["buchholz"], as_of_round=1)
    assert after_one.as_of_round == 1
    assert {r.entrant: r.points for r in after_one.rows} == {1: 2, 3: 2, 2: 0, 4: 0}
    assert {r.entrant: r.value("buchholz") for r in after_one.rows} == {1: 0, 3: 0, 2: 2, 4: 2}
    full = standings(rows, points=P, tiebreaks=["buchholz"])
    assert {r.entrant: r.points for r in full.rows} == {1: 4, 2: 2, 3: 2, 4: 2}
    assert standings(rows[:2], points=P, tiebreaks=["buchholz"]).rows == after_one.rows


def test_random_draw_needs_a_seed_and_repeats_with_it() -> None:
    assert random_draw([5, 1, 3], 42) == random_draw([3, 5, 1], 42)
    assert sorted(random_draw(range(10), 1).values()) == list(range(1, 11))
    with pytest.raises(FormatError) as e:
        standings([game(1, 1, 2, "draw")], tiebreaks=["random"])
    assert e.value.code == "no_seed"


def test_bad_rows_and_tiebreaks_are_refused() -> None:
    with pytest.raises(FormatError):
        Match(1, Side(1, "win"), Side(2, "win"))
    with pytest.raises(FormatError):
        Match(1, Side(1, "win"))
    with pytest.raises(FormatError):
        standings([], tiebreaks=["coin"])  # type: ignore[list-item]
    with pytest.raises(FormatError):
        standings([], tiebreaks=["buchholz", "buchholz"])


RESULTS = st.lists(
    st.tuples(
        st.integers(1, 6),
        st.integers(1, 8),
        st.integers(1, 8),
        st.sampled_from(["win", "loss", "draw"]),
    ),
    max_size=30,
).map(lambda rows: [game(r, a, b, o) for r, a, b, o in rows if a != b])


@examples(100)
@given(RESULTS)
def test_ranks_follow_points_and_shared_ranks_mean_identical_values(rows) -> None:
    chosen = ["head_to_head", "buchholz", "sonneborn_berger", "bazzi_difference"]
    table = standings(rows, points=P, tiebreaks=chosen)
    points = [r.points for r in table.rows]
    assert points == sorted(points, reverse=True)
    for earlier, later in zip(table.rows, table.rows[1:], strict=False):
        assert earlier.rank <= later.rank
        if earlier.rank == later.rank:
            assert earlier.points == later.points
            assert [v for k, v in earlier.tiebreaks if k != "head_to_head"] == [
                v for k, v in later.tiebreaks if k != "head_to_head"
            ]
    for i, r in enumerate(table.rows):
        assert r.rank == 1 + sum(1 for other in table.rows[:i] if other.rank < r.rank)
