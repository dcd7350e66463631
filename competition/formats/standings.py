"""A stage's standings: match points, then the chosen tie-breaks in order.

Teams level on match points are split by the first tie-break; those still level by the
next, and so on. Teams share a rank only when every chosen tie-break is exhausted (ranks
go 1, 2, 2, 4). ``as_of_round=N`` ranks on the rounds up to N only: every figure,
opponents' points included, is as it stood then.

Head-to-head is a mini-table among exactly the teams tied at that point (match points from
their games with each other only). When it splits them, each sub-group still level gets a
mini-table among exactly its own members, again and again while that splits; a group it
cannot split goes on to the next tie-break.

>>> rows = [Match(1, Side(1, "win"), Side(2, "loss")), Match(1, Side(3, "bye"))]
>>> [(r.rank, r.entrant, r.points) for r in standings(rows, tiebreaks=["head_to_head"]).rows]
[(1, 1, 2), (1, 3, 2), (3, 2, 0)]
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .common import Entrant, FormatError
from .tiebreaks import (
    TIEBREAKS,
    Match,
    Points,
    Side,  # noqa: F401  (the doctest uses it)
    TieBreak,
    Value,
    head_to_head,
    match_points,
    per_entrant,
)


@dataclass(frozen=True, slots=True)
class Row:
    """One team's line: rank, match points, each chosen tie-break's value (in the stage's
    order; head_to_head is None where it was not needed), and the record.

    ``played`` counts matches with an opponent (forfeits included, byes not); ``won``
    includes forfeit wins, ``lost`` forfeits.
    """

    rank: int
    entrant: Entrant
    points: int
    tiebreaks: tuple[tuple[TieBreak, Value | None], ...]
    played: int
    won: int
    drawn: int
    lost: int
    byes: int

    def value(self, name: TieBreak) -> Value | None:
        """Return the value of one tie-break; raises KeyError if it was not chosen."""
        for key, value in self.tiebreaks:
            if key == name:
                return value
        raise KeyError(name)


@dataclass(frozen=True, slots=True)
class Standings:
    """The ranked rows, the tie-breaks used, the random draw's seed, and the last round
    counted (None: all)."""

    rows: tuple[Row, ...]
    tiebreaks: tuple[TieBreak, ...]
    seed: int | None
    as_of_round: int | None


def standings(
    matches: Iterable[Match],
    *,
    points: Points | None = None,
    tiebreaks: Sequence[TieBreak] = (),
    entrants: Iterable[Entrant] = (),
    as_of_round: int | None = None,
    seed: int | None = None,
) -> Standings:
    """Return the standings of a stage from its matches.

    ``entrants`` adds teams that have no row yet; ``seed`` is required with the "random"
    tie-break (record it, so the draw can be repeated).
    """
    points = points or Points()
    chosen = tuple(tiebreaks)
    for name in chosen:
        if name not in TIEBREAKS:
            raise FormatError(f"unknown tie-break {name!r}", code="bad_tiebreak")
    if len(set(chosen)) != len(chosen):
        raise FormatError("a tie-break is chosen twice", code="bad_tiebreak")
    rows = [m for m in matches if as_of_round is None or m.round <= as_of_round]
    teams = set(entrants)
    record: dict[Entrant, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    for m in rows:
        for side, other in m.sides():
            teams.add(side.entrant)
            line = record[side.entrant]
            if other is None:
                line[4] += 1
                continue
            line[0] += 1
            line[{"win": 1, "draw": 2, "loss": 3, "forfeit": 3}[side.outcome]] += 1
    total = match_points(rows, points)
    ordered = sorted(teams)
    values: dict[TieBreak, dict[Entrant, Value]] = {
        name: per_entrant(name, rows, points, ordered, seed)
        for name in chosen
        if name != "head_to_head"
    }
    h2h: dict[Entrant, Value] = {}
    groups: dict[int, list[Entrant]] = defaultdict(list)
    for e in ordered:
        groups[total.get(e, 0)].append(e)
    ranked: list[list[Entrant]] = []
    for score in sorted(groups, reverse=True):
        ranked.extend(_split(groups[score], chosen, values, rows, points, h2h))
    out = []
    place = 1
    for group in ranked:
        for e in group:
            played, won, drawn, lost, byes = record[e]
            breaks = tuple(
                (name, h2h.get(e) if name == "head_to_head" else values[name][e]) for name in chosen
            )
            out.append(Row(place, e, total.get(e, 0), breaks, played, won, drawn, lost, byes))
        place += len(group)
    return Standings(tuple(out), chosen, seed, as_of_round)


def _split(
    group: list[Entrant],
    chosen: Sequence[TieBreak],
    values: dict[TieBreak, dict[Entrant, Value]],
    rows: Sequence[Match],
    points: Points,
    h2h: dict[Entrant, Value],
) -> list[list[Entrant]]:
    """Return the group split into ranked sub-groups by the tie-breaks, in order."""
    if len(group) == 1 or not chosen:
        return [group]
    name, rest = chosen[0], chosen[1:]
    if name == "head_to_head":
        mini = head_to_head(rows, points, group)
        for e, v in mini.items():
            h2h.setdefault(e, v)
        parts = _by_value(group, mini)
        if len(parts) == 1:
            return _split(group, rest, values, rows, points, h2h)
        # a still-level sub-group gets a mini-table of its own members (head_to_head again)
        return [sub for part in parts for sub in _split(part, chosen, values, rows, points, h2h)]
    parts = _by_value(group, values[name])
    return [sub for part in parts for sub in _split(part, rest, values, rows, points, h2h)]


def _by_value(group: list[Entrant], value: Mapping[Entrant, Value]) -> list[list[Entrant]]:
    """Return the group's entrants grouped by value, highest first (each in id order)."""
    buckets: dict[Value, list[Entrant]] = defaultdict(list)
    for e in group:
        buckets[value[e]].append(e)
    return [sorted(buckets[v]) for v in sorted(buckets, reverse=True)]
