"""The rating fold on its own: what a game does, the drift of time away, and what a member's
rating depends on (property tests: no database)."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seasons import ladder, rating
from seasons.rating import Game, Rating

START = datetime(2026, 1, 2, 19, tzinfo=UTC)
DAY = START.date()


def game(match_id: int, at: datetime, teams: Any, winner: int | None) -> Game:
    """A game of the evening of ``at`` that ended at ``at``."""
    return Game(match_id, at.date(), at, teams, winner)


def test_the_winners_go_up_the_losers_down_and_everyone_grows_surer() -> None:
    after, changes = rating.fold([game(1, START, ((1, 2), (3, 4)), winner=0)])
    assert after[1].mu == after[2].mu > rating.MU > after[3].mu == after[4].mu
    assert all(after[p].sigma < rating.SIGMA for p in (1, 2, 3, 4))
    assert [c.game.result_of(c.team) for c in changes] == ["won", "won", "lost", "lost"]


def test_a_draw_between_equals_moves_nobodys_mu() -> None:
    after, _ = rating.fold([game(1, START, ((1, 2), (3, 4)), winner=None)])
    assert all(math.isclose(after[p].mu, rating.MU) for p in (1, 2, 3, 4))
    assert all(after[p].sigma < rating.SIGMA for p in (1, 2, 3, 4))


def test_a_newcomer_moves_more_than_a_settled_partner() -> None:
    settled = Rating(30.0, 2.0, 50, DAY)
    later = START + timedelta(days=7)
    after, _ = rating.fold([game(1, later, ((1, 2), (3, 4)), winner=0)], {1: settled})
    assert after[2].mu - rating.MU > after[1].mu - settled.mu > 0


def test_a_game_of_fewer_than_four_members_is_refused() -> None:
    with pytest.raises(ValueError, match="four different members"):
        rating.rate(game(1, START, ((1, 2), (2, 3)), winner=0), {})


def test_time_away_past_the_grace_gives_certainty_back_up_to_a_newcomers() -> None:
    settled = Rating(31.0, 2.0, 80, DAY)
    assert rating.drifted(settled, DAY + timedelta(days=20)) == settled
    three_months = rating.drifted(settled, DAY + timedelta(days=28 + 90))
    assert 2.0 < three_months.sigma < rating.SIGMA and three_months.mu == settled.mu
    expected = math.sqrt(4.0 + rating.SIGMA**2 * 90 / 365)
    assert math.isclose(three_months.sigma, expected)
    assert rating.drifted(settled, DAY + timedelta(days=5 * 365)).sigma == rating.SIGMA


MEMBERS = st.integers(min_value=1, max_value=12)


@st.composite
def evenings(draw: st.DrawFn) -> list[Game]:
    """Evenings a week or more apart; at each, tables of four different members."""
    games, day, match_id = [], START, 0
    for _ in range(draw(st.integers(1, 5))):
        day += timedelta(days=draw(st.sampled_from([7, 7, 14, 120])))
        for minute in range(draw(st.integers(1, 4))):
            four = draw(st.lists(MEMBERS, min_size=4, max_size=4, unique=True))
            match_id += 1
            winner = draw(st.sampled_from([0, 1, None]))
            at = day + timedelta(minutes=minute)
            teams = ((min(four[:2]), max(four[:2])), (min(four[2:]), max(four[2:])))
            games.append(game(match_id, at, teams, winner))
    return games


@settings(max_examples=60, deadline=None)
@given(evenings())
def test_the_same_games_in_any_order_give_the_same_ratings(games: list[Game]) -> None:
    """The fold sorts by key: who computes, and in which order the games arrive, is moot."""
    forward, _ = rating.fold(games)
    backward, _ = rating.fold(list(reversed(games)))
    assert forward == backward


@settings(max_examples=60, deadline=None)
@given(evenings(), st.data())
def test_folding_in_two_parts_is_folding_at_once(games: list[Game], data: st.DataObject) -> None:
    """What the incremental projection does: the ratings after a prefix, then the rest."""
    ordered = sorted(games, key=lambda g: g.key)
    cut = data.draw(st.integers(0, len(ordered)))
    first, _ = rating.fold(ordered[:cut])
    then, _ = rating.fold(ordered[cut:], first)
    assert then == rating.fold(ordered)[0]


@settings(max_examples=60, deadline=None)
@given(evenings(), st.permutations(range(1, 13)), st.sampled_from([0, 1, None]), st.data())
def test_independent_games_of_an_evening_commute(
    games: list[Game], eight: list[int], winner: int | None, data: st.DataObject
) -> None:
    """Two games of one evening with no member in common give the same ratings whichever
    ended first; games that share a member depend on their order (docs/seasons.md)."""
    day = max(g.day for g in games) + timedelta(days=7)
    at = datetime(day.year, day.month, day.day, 20, tzinfo=UTC)
    teams = [((min(eight[i : i + 2]), max(eight[i : i + 2]))) for i in (0, 2, 4, 6)]
    other = data.draw(st.sampled_from([0, 1, None]))
    first = Game(1001, day, at, (teams[0], teams[1]), winner)
    second = Game(1002, day, at + timedelta(minutes=5), (teams[2], teams[3]), other)
    later = data.draw(evenings())  # and whatever follows, weeks later
    after = [
        Game(2000 + g.match_id, g.day + (day - START.date()), g.finished_at + (day - START.date()),
             g.teams, g.winner)
        for g in later
    ]  # fmt: skip
    swapped = [
        Game(1001, day, second.finished_at, first.teams, first.winner),
        Game(1002, day, first.finished_at, second.teams, second.winner),
    ]
    assert (
        rating.fold([*games, *swapped, *after])[0]
        == rating.fold([*games, first, second, *after])[0]
    )


def test_the_ladder_counts_the_best_evenings_and_shares_a_rank_on_a_tie() -> None:
    day = START.date()
    rows = [
        ladder.Evening(1, day, 7, 1, 3, 3),
        ladder.Evening(2, day, 7, 4, 1, 3),
        ladder.Evening(1, day, 8, 2, 2, 3),
        ladder.Evening(2, day, 8, 2, 2, 3),
        ladder.Evening(2, day, 9, 3, 1, 3),
    ]
    by_places = ladder.ladder(rows, ladder.Rule(ladder.PLACES, (10, 6, 4)), {})
    assert [(x.player_id, x.points, x.rank) for x in by_places] == [
        (8, 12, 1),
        (7, 10, 2),
        (9, 4, 3),
    ]
    best_one = ladder.ladder(rows, ladder.Rule(ladder.PLACES, (10, 6, 4), best=1), {})
    assert [(x.player_id, x.points, x.counted) for x in best_one] == [
        (7, 10, 1),
        (8, 6, 1),
        (9, 4, 1),
    ]
    by_wins = ladder.ladder(rows, ladder.Rule(ladder.WINS, (3,)), {})
    assert [(x.player_id, x.points) for x in by_wins] == [(7, 12), (8, 12), (9, 3)]
    assert by_wins[0].rank == 1 and by_wins[1].rank == 2  # 7 won an evening: ahead on the tie


@settings(max_examples=60, deadline=None)
@given(evenings(), st.data())
def test_partnerships_fold_in_two_parts_as_at_once_and_only_from_their_games(
    games: list[Game], data: st.DataObject
) -> None:
    """What the projection's append does for a pair: on top of the stored ratings; and a
    pair's rating counts exactly the games the two played together."""
    ordered = sorted(games, key=lambda g: g.key)
    cut = data.draw(st.integers(0, len(ordered)))
    whole = rating.fold_pairs(ordered)
    assert rating.fold_pairs(ordered[cut:], rating.fold_pairs(ordered[:cut])) == whole
    assert rating.fold_pairs(list(reversed(ordered))) == whole
    for pair, now in whole.items():
        assert now.matches == sum(pair in g.teams for g in games)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 50), st.floats(0.5, 9)), min_size=4, max_size=4))
def test_the_chance_to_win_is_the_models_own(four: list[tuple[float, float]]) -> None:
    """``win_probability`` is openskill's prediction, and the two sides' chances sum to 1."""
    model = rating.MODEL
    teams = [
        [model.rating(mu=m, sigma=s) for m, s in four[:2]],
        [model.rating(mu=m, sigma=s) for m, s in four[2:]],
    ]
    chance = rating.win_probability(four[:2], four[2:])
    assert chance == pytest.approx(model.predict_win(teams)[0], abs=1e-9)
    assert chance + rating.win_probability(four[2:], four[:2]) == pytest.approx(1.0)


def test_a_rating_is_provisional_below_the_settled_count() -> None:
    assert rating.is_provisional(rating.SETTLED_AFTER - 1)
    assert not rating.is_provisional(rating.SETTLED_AFTER)
    assert not rating.is_provisional(3, settled_after=3)
