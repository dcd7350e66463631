"""Groups then knockout: snake seeding is balanced, group winners are kept apart."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from competition.formats import (
    group_stage,
    knockout_seeds,
    single_elimination,
    snake_groups,
    standard_order,
)
from tests.engine.helpers import examples


@examples(100)
@given(st.integers(1, 12), st.integers(2, 9))
def test_snake_seeding_is_balanced(groups: int, per_group: int) -> None:
    n = groups * per_group
    dealt = snake_groups(list(range(1, n + 1)), groups=groups)
    assert sorted(t for g in dealt for t in g) == list(range(1, n + 1))
    assert {len(g) for g in dealt} == {per_group}
    for band in range(per_group):  # one team of every band of seeds per group
        members = set(range(band * groups + 1, (band + 1) * groups + 1))
        assert all(len(members & set(g)) == 1 for g in dealt)
    if per_group % 2 == 0:  # full back-and-forth passes: every group's seed total is equal
        assert len({sum(g) for g in dealt}) == 1


def test_uneven_fields_differ_by_at_most_one() -> None:
    dealt = snake_groups(list(range(11)), groups=3)
    assert sorted(len(g) for g in dealt) == [3, 4, 4]
    stage = group_stage(list(range(11)), groups=3)
    assert [g.name for g in stage] == ["A", "B", "C"]
    assert all(len(g.rounds) == len(g.entrants) - 1 + len(g.entrants) % 2 for g in stage)


def meeting_round(size: int, s: int, t: int) -> int:
    position = {seed: i for i, seed in enumerate(standard_order(size))}
    return (position[s] ^ position[t]).bit_length()


@examples(60)
@given(st.integers(2, 16), st.integers(1, 4))
def test_group_winners_and_group_mates_meet_as_late_as_possible(groups: int, advance: int) -> None:
    seeds = knockout_seeds(groups=groups, advance=advance)
    total = groups * advance
    size = 1 << (total - 1).bit_length()
    assert sorted(seeds) == sorted((g, p) for g in range(groups) for p in range(1, advance + 1))
    assert [seeds[i] for i in range(groups)] == [(g, 1) for g in range(groups)]
    rounds = size.bit_length() - 1
    # two group winners can never meet before the round seeding allows (1 and 2: the final)
    assert meeting_round(size, 1, 2) == rounds
    # a runner-up never meets its own group winner in round 1 (with 2+ groups)
    for seed, (g, place) in enumerate(seeds, start=1):
        if place == 2:
            winner = g + 1
            assert meeting_round(size, seed, winner) > 1


def test_four_groups_give_the_familiar_crossover() -> None:
    seeds = knockout_seeds(groups=4, advance=2)
    names = ["ABCD"[g] + str(p) for g, p in seeds]
    bracket = single_elimination(list(range(1, 9)))
    first = [
        (names[f.slot_a.number - 1], names[f.slot_b.number - 1])
        for f in bracket.fixtures
        if f.round == 1
    ]  # type: ignore[union-attr]
    assert first == [("A1", "B2"), ("D1", "C2"), ("B1", "A2"), ("C1", "D2")]
    # A1 and A2 are in different halves: they can meet only in the final
    assert meeting_round(8, names.index("A1") + 1, names.index("A2") + 1) == 3
