"""Groups then knockout: round-robin groups seeded in snake order, the top places of each
group seeded into an elimination bracket with group winners kept apart.

Snake seeding deals the seeds across the groups and back: with 4 groups, seeds 1-4 go to
A B C D, seeds 5-8 to D C B A, 9-12 to A B C D again. Every group then holds one team of
each band of seeds, and group sizes differ by at most one.

Knockout seeding (``knockout_seeds``): the group winners take seeds 1..G in group order,
so they meet as late as seeding allows (winners on opposite halves where there are two
or more). Each further place (the runners-up, then the thirds...) fills the next G seeds,
from the last seed up, each with the group, among those left, whose own teams it would
meet latest in the bracket (the lowest group letter on a tie). With an even number of
groups this gives the familiar A1 v B2, B1 v A2, C1 v D2, D1 v C2, with A1 and A2 in
different halves.

>>> snake_groups([1, 2, 3, 4, 5, 6, 7, 8], groups=2)
((1, 4, 5, 8), (2, 3, 6, 7))
>>> [f"{group_name(g)}{place}" for g, place in knockout_seeds(groups=4, advance=2)]
['A1', 'B1', 'C1', 'D1', 'C2', 'D2', 'A2', 'B2']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .brackets import bracket_size, standard_order
from .common import Entrant, FormatError, Round, check_entrants
from .roundrobin import round_robin


@dataclass(frozen=True, slots=True)
class Group:
    """One group: its index (0 = A), its entrants in seed order and its rounds."""

    index: int
    entrants: tuple[Entrant, ...]
    rounds: tuple[Round, ...]

    @property
    def name(self) -> str:
        """The group's letter name: A, B, ... Z, AA, AB, ..."""
        return group_name(self.index)


def group_name(index: int) -> str:
    """Return a group's name from its index: 0 -> A, 25 -> Z, 26 -> AA."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


def snake_groups(entrants: Sequence[Entrant], *, groups: int) -> tuple[tuple[Entrant, ...], ...]:
    """Return the entrants (in seed order) dealt into ``groups`` groups in snake order."""
    teams = check_entrants(entrants)
    if type(groups) is not int or not 1 <= groups <= len(teams) // 2:
        raise FormatError(
            f"{len(teams)} entrants make 1 to {len(teams) // 2} groups of two or more, "
            f"not {groups!r}",
            code="bad_groups",
        )
    out: list[list[Entrant]] = [[] for _ in range(groups)]
    for i, team in enumerate(teams):
        band, column = divmod(i, groups)
        out[column if band % 2 == 0 else groups - 1 - column].append(team)
    return tuple(tuple(g) for g in out)


def group_stage(entrants: Sequence[Entrant], *, groups: int, legs: int = 1) -> tuple[Group, ...]:
    """Return the groups (snake-seeded) with each group's round-robin rounds."""
    return tuple(
        Group(i, members, round_robin(members, legs=legs))
        for i, members in enumerate(snake_groups(entrants, groups=groups))
    )


def knockout_seeds(*, groups: int, advance: int) -> tuple[tuple[int, int], ...]:
    """Return the knockout's seeds as (group index, place) pairs, the top seed first.

    Pass the teams in this order to ``single_elimination`` or ``double_elimination``.
    """
    if type(groups) is not int or groups < 1 or type(advance) is not int or advance < 1:
        raise FormatError("groups and advance are whole numbers >= 1", code="bad_groups")
    total = groups * advance
    if total < 2:
        raise FormatError("a knockout needs at least 2 teams", code="too_few")
    size, _ = bracket_size(total)
    position = {seed: i for i, seed in enumerate(standard_order(size))}
    seeds: dict[int, tuple[int, int]] = {g + 1: (g, 1) for g in range(groups)}
    for place in range(2, advance + 1):
        left = list(range(groups))
        for seed in range(place * groups, (place - 1) * groups, -1):

            def latest(group: int, seed: int = seed) -> tuple[int, int]:
                rounds = [
                    (position[seed] ^ position[other]).bit_length()
                    for other, (g, _) in seeds.items()
                    if g == group
                ]
                return (min(rounds), -group)

            best = max(left, key=latest)
            left.remove(best)
            seeds[seed] = (best, place)
    return tuple(seeds[s] for s in range(1, total + 1))
