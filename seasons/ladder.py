"""A season's ladder from its evenings (pure: no Django, no database).

Each evening a member played earns points by the season's rule: by the place their team
finished (``points[0]`` for first, ``points[1]`` for second...; no points past the list), or
``points[0]`` for each match won.

With ``best`` set, only a member's best ``best`` evenings count, for everything the ladder
ranks by: their points, first places and matches won are those of the counted evenings alone
(an evening left out counts for nothing, not even a tie-break). The best are the evenings
that earned the most points; among evenings of equal points, a first place before any other,
then more matches won, then the earlier (``best_evenings``).

Members rank by points, then by first places, then by matches won: members level on all
three share a rank, and the next rank skips as many ("1, 2, 2, 4"). Within a shared rank
they are listed by fewer evenings played, then by name, so a tie is shown in one order every
time.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date

PLACES, WINS = "places", "wins"


@dataclass(frozen=True, slots=True)
class Rule:
    """How an evening scores: ``kind`` PLACES or WINS, ``points``, and the best N that count."""

    kind: str
    points: tuple[int, ...]
    best: int | None = None

    def evening_points(self, place: int | None, won: int) -> int:
        """Return what one evening earns: by place (None: no place yet) or by matches won.

        >>> Rule(PLACES, (10, 6, 4)).evening_points(2, 0), Rule(WINS, (3,)).evening_points(None, 2)
        (6, 6)
        """
        if self.kind == WINS:
            return self.points[0] * won
        if place is None or not 1 <= place <= len(self.points):
            return 0
        return self.points[place - 1]


@dataclass(frozen=True, slots=True)
class Evening:
    """One member's evening: its tournament, date, their team's place and their matches."""

    tournament_id: int
    date: date
    player_id: int
    place: int | None
    won: int
    played: int


@dataclass(frozen=True, slots=True)
class Line:
    """A member's line on the ladder."""

    rank: int
    player_id: int
    points: int
    evenings: int  # played in the season so far
    counted: int  # of which count (the best N)
    wins: int  # first places
    won: int  # matches won


def best_evenings(played: Sequence[Evening], rule: Rule) -> list[Evening]:
    """Return the member's evenings that count: all, or the best ``rule.best`` (module
    docstring), best first.

    >>> d, e = date(2026, 3, 6), date(2026, 3, 13)
    >>> two = [Evening(1, d, 7, 2, 3, 3), Evening(2, e, 7, 1, 1, 3)]
    >>> [x.tournament_id for x in best_evenings(two, Rule(WINS, (1,), best=1))]
    [1]
    """
    ordered = sorted(
        played,
        key=lambda e: (
            -rule.evening_points(e.place, e.won), e.place != 1, -e.won, e.date, e.tournament_id
        ),
    )  # fmt: skip
    return ordered if rule.best is None else ordered[: rule.best]


def ladder(evenings: Iterable[Evening], rule: Rule, names: Mapping[int, str]) -> list[Line]:
    """Return the ladder of ``evenings`` under ``rule``, best first (``names`` break ties).

    >>> d = date(2026, 3, 6)
    >>> rows = [Evening(1, d, 7, 1, 3, 3), Evening(1, d, 8, 2, 2, 3), Evening(2, d, 8, 1, 3, 3)]
    >>> [(x.rank, x.player_id, x.points) for x in ladder(rows, Rule(PLACES, (10, 6), best=1), {})]
    [(1, 7, 10), (1, 8, 10)]
    """
    by_player: dict[int, list[Evening]] = {}
    for evening in evenings:
        by_player.setdefault(evening.player_id, []).append(evening)
    lines = []
    for player, played in by_player.items():
        best = best_evenings(played, rule)
        lines.append(
            (
                sum(rule.evening_points(e.place, e.won) for e in best),
                sum(1 for e in best if e.place == 1),
                sum(e.won for e in best),
                len(played),
                len(best),
                player,
            )
        )
    lines.sort(key=lambda x: (-x[0], -x[1], -x[2], x[3], names.get(x[5], ""), x[5]))
    out: list[Line] = []
    for n, (points, wins, won, count, counted, player) in enumerate(lines, start=1):
        same = out and (out[-1].points, out[-1].wins, out[-1].won) == (points, wins, won)
        rank = out[-1].rank if same else n
        out.append(Line(rank, player, points, count, counted, wins, won))
    return out


def places(ranked: Sequence[Sequence[tuple[int, int]]]) -> dict[int, int]:
    """Return each team's place in an evening from its stages' final rankings, last stage first.

    Each ranking is (team, rank) pairs best first; teams level in a stage share a place. A
    team placed by a later stage comes before every team only an earlier stage placed; among
    those, its rank there decides (teams a later stage already placed are skipped).

    >>> places([[(5, 1), (6, 2)], [(6, 1), (5, 2), (7, 3), (8, 3)]])
    {5: 1, 6: 2, 7: 3, 8: 3}
    """
    out: dict[int, int] = {}
    for ranking in ranked:
        offset = len(out)
        last: tuple[int, int] | None = None  # (rank, place) of the team before
        for n, (team, rank) in enumerate((t, r) for t, r in ranking if t not in out):
            place = last[1] if last is not None and last[0] == rank else offset + n + 1
            out[team] = place
            last = (rank, place)
    return out
