"""Best N and ties, defined: with best N, a member's points, first places and matches won are
those of the counted evenings alone; members level share a rank, "1, 2, 2, 4", on a ladder
and on the rating list alike, in the API and on the pages (issue 47, finding 3)."""

from __future__ import annotations

import doctest
import importlib
from datetime import date, timedelta

import pytest
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.test import APIClient

from seasons import ladder
from seasons.ladder import PLACES, WINS, Evening, Rule
from seasons.models import Season

from .conftest import ClubWorld

D = date(2026, 3, 6)


@pytest.mark.parametrize("name", ["seasons.ladder", "seasons.rating"])
def test_the_docstring_examples_hold(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


def test_with_best_n_an_evening_left_out_counts_for_no_tie_break() -> None:
    # X won two evenings; Y one, winning more matches in it. Best 1: one first place each,
    # and Y's counted evening won more matches: Y is ahead (over every evening, X would be)
    rows = [
        Evening(1, D, 1, 1, 2, 3),
        Evening(2, D + timedelta(7), 1, 1, 2, 3),
        Evening(1, D, 2, 2, 1, 3),
        Evening(2, D + timedelta(7), 2, 1, 3, 3),
    ]
    lines = ladder.ladder(rows, Rule(PLACES, (10, 6), best=1), {1: "X", 2: "Y"})
    assert [(x.player_id, x.rank, x.points, x.wins, x.won) for x in lines] == [
        (2, 1, 10, 1, 3),
        (1, 2, 10, 1, 2),
    ]
    assert [(x.evenings, x.counted) for x in lines] == [(2, 1), (2, 1)]


evenings = st.lists(
    st.tuples(
        st.integers(1, 6),  # the tournament
        st.integers(1, 5),  # the member
        st.none() | st.integers(1, 4),  # the place
        st.integers(0, 3),  # matches won
    ),
    max_size=30,
    unique_by=lambda x: (x[0], x[1]),
)


@given(
    rows=evenings,
    kind=st.sampled_from([PLACES, WINS]),
    best=st.none() | st.integers(1, 4),
    points=st.lists(st.integers(0, 12), min_size=1, max_size=4),
)
def test_a_ladder_counts_the_best_n_and_ranks_level_members_alike(
    rows: list[tuple[int, int, int | None, int]], kind: str, best: int | None, points: list[int]
) -> None:
    rule = Rule(kind, tuple(points[:1] if kind == WINS else points), best)
    played = [Evening(t, D + timedelta(days=7 * t), p, place, won, 3) for t, p, place, won in rows]
    lines = ladder.ladder(played, rule, {})
    for line in lines:
        mine = [e for e in played if e.player_id == line.player_id]
        earned = sorted((rule.evening_points(e.place, e.won) for e in mine), reverse=True)
        counted = earned if best is None else earned[:best]
        kept = ladder.best_evenings(mine, rule)
        assert line.points == sum(counted) and line.counted == len(counted) == len(kept)
        assert line.evenings == len(mine)
        assert line.wins == sum(e.place == 1 for e in kept)
        assert line.won == sum(e.won for e in kept)
    # competition ranking: level on (points, first places, matches won) share a rank, and the
    # next rank is one more than the members above it
    for n, line in enumerate(lines):
        level = n and (lines[n - 1].points, lines[n - 1].wins, lines[n - 1].won) == (
            line.points,
            line.wins,
            line.won,
        )
        assert line.rank == (lines[n - 1].rank if level else n + 1)


@pytest.mark.django_db
def test_level_members_share_a_rank_on_the_list_and_the_ladder_in_the_api_and_the_page(
    club_world: ClubWorld,
) -> None:
    # A&B beat C&D, G&H beat E&F, then A&B beat E&F: partners are level on everything
    evening = club_world.evening(date(2026, 1, 2))
    club_world.play(evening, (0, 1, 2, 3), winner=0)
    club_world.play(evening, (4, 5, 6, 7), winner=1)
    club_world.play(club_world.evening(date(2026, 1, 9)), (0, 1, 4, 5), winner=0)
    season = Season.objects.create(
        club=club_world.club, name="Winter", starts_on=date(2026, 1, 1),
        ends_on=date(2026, 3, 31), rule=Season.Rule.WINS, points=[3],
    )  # fmt: skip
    api = APIClient()
    api.force_authenticate(club_world.director)
    page = Client()
    page.force_login(club_world.director)
    listed = api.get(f"/api/v1/clubs/{club_world.club.pk}/ratings/").json()["results"]
    shown = page.get(f"/c/{club_world.club.slug}/").context
    names = [r["member"]["name"][-1] for r in listed]
    ranks = [r["rank"] for r in listed]
    assert ranks == [r.rank for r in shown["ratings"]]
    assert names == [r.player.name[-1] for r in shown["ratings"]]
    assert ranks == [1, 1, 3, 3, 5, 5, 7, 7], names
    lines = api.get(f"/api/v1/seasons/{season.pk}/ladder/").json()["results"]
    assert [x["rank"] for x in lines] == [1, 1, 3, 3, 5, 5, 5, 5]  # 6, 6, 3, 3, then 0s
    assert [x["rank"] for x in lines] == [x.line.rank for x in shown["lines"]]
