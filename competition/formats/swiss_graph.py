"""The weighted graph of one Swiss round, and the values a pairing is told in.

``swiss`` explains the weights and solves the graph; this module builds it from the
standings and the history, prices a matching of it, and proves a matching optimal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from math import gcd
from typing import Literal

from .common import Entrant, FormatError, Pairing, pair_key
from .matching import Solver, max_weight_perfect_matching

Method = Literal["slide", "fold", "adjacent"]


@dataclass(frozen=True, slots=True)
class Float:
    """A team paired outside its score: ``down`` to a lower score or ``up`` to a higher."""

    entrant: Entrant
    direction: Literal["down", "up"]
    score: int
    opponent: Entrant
    opponent_score: int


@dataclass(frozen=True, slots=True, order=True)
class SwissCost:
    """A pairing's cost per priority, compared in this order (lower is better)."""

    rematches: int
    bye_rank: int
    score_gaps: int
    fold: int
    closeness: int


@dataclass(frozen=True, slots=True)
class SwissRound:
    """One Swiss round's pairings (by table), the bye, the floats and what they cost.

    The pairing is proven optimal for rematches, bye and score gaps; for fold when
    ``fold_proven`` (otherwise it is the best among pairs within the window). ``window``
    is the search window of the graph finally solved (None: the complete graph),
    ``edges`` its size, ``solver`` the matching library that solved it.
    """

    number: int
    pairings: tuple[Pairing, ...]
    bye: Entrant | None
    floats: tuple[Float, ...]
    cost: SwissCost
    window: int | None
    fold_proven: bool
    solver: str
    edges: int


class SwissGraph:
    """The weighted graph of one Swiss round, indexed by place (0 = top, n = BYE)."""

    def __init__(
        self,
        standings: Sequence[tuple[Entrant, int]],
        played: Iterable[tuple[Entrant, Entrant]],
        byes: Iterable[Entrant],
        method: Method,
    ) -> None:
        if method not in ("slide", "fold", "adjacent"):
            raise FormatError(f"unknown pairing method {method!r}", code="bad_method")
        teams: list[Entrant] = []
        scores: list[int] = []
        for row in standings:
            entrant, score = row
            if type(entrant) is not int or type(score) is not int:
                raise FormatError(f"a standing is (entrant, points), not {row!r}", code="bad_row")
            if scores and score > scores[-1]:
                raise FormatError(
                    f"standings must be ranked: {entrant} has {score} after {scores[-1]}",
                    code="not_ranked",
                )
            teams.append(entrant)
            scores.append(score)
        if len(set(teams)) != len(teams):
            raise FormatError("an entrant is listed twice", code="duplicate_entrant")
        if len(teams) < 2:
            raise FormatError("Swiss needs at least 2 entrants", code="too_few")
        self.teams = teams
        self.n = n = len(teams)
        self.odd = n % 2
        self.index = index = {t: i for i, t in enumerate(teams)}
        meetings: Counter[tuple[int, int]] = Counter()
        for a, b in played:
            if a in index and b in index and a != b:
                meetings[pair_key(index[a], index[b])] += 1
        self.meetings = meetings
        had = Counter(index[e] for e in byes if e in index)
        fewest = min((had[i] for i in range(n)), default=0)
        self.eligible = {i for i in range(n) if had[i] == fewest} if self.odd else set()
        unit = 0
        for s in scores:
            unit = gcd(unit, s - scores[-1])
        unit = unit or 1
        self.levels = [(s - scores[-1]) // unit for s in scores]
        self.scores = scores
        # the bye to the lowest-ranked eligible team; below[i]: eligible teams below i
        self.nominal_bye = max(self.eligible) if self.odd else None
        below, count = [0] * n, 0
        for i in range(n - 1, -1, -1):
            below[i] = count
            count += i in self.eligible
        self.below = below
        self.nominal = self._nominal(method)
        self.score_gap_bound = self._score_gap_bound()
        # place values: each above all that the lower priorities can add up to
        pairs = (n + self.odd) // 2
        top_gap = (self.levels[0] - self.levels[-1]) ** 2
        self.b0 = pairs * (n + 1) ** 2 + 1
        self.b1 = pairs * 2 * (n + 1) + 1
        self.b2 = pairs * top_gap + 1
        self.b3 = n
        worst = max(meetings.values(), default=0)
        top = ((worst * self.b3 + n) * self.b2 + top_gap) * self.b1 + 2 * (n + 1)
        self.top = top * self.b0 + (n + 1) ** 2 + 1

    def _nominal(self, method: Method) -> list[int]:
        """Return each place's nominal opponent (n: BYE), the pairing without history."""
        n = self.n
        nominal = [-1] * (n + 1)
        if self.nominal_bye is not None:
            nominal[self.nominal_bye], nominal[n] = n, self.nominal_bye
        places = [i for i in range(n) if i != self.nominal_bye]
        carry: int | None = None
        start = 0
        while start < len(places):
            end = start
            level = self.levels[places[start]]
            while end < len(places) and self.levels[places[end]] == level:
                end += 1
            group = places[start:end]
            start = end
            if carry is not None:
                nominal[carry], nominal[group[0]] = group[0], carry
                group = group[1:]
            carry = group.pop() if len(group) % 2 else None
            half = len(group) // 2
            for k in range(half):
                if method == "slide":
                    a, b = group[k], group[k + half]
                elif method == "fold":
                    a, b = group[k], group[-1 - k]
                else:
                    a, b = group[2 * k], group[2 * k + 1]
                nominal[a], nominal[b] = b, a
        assert carry is None, "an even number of places always pairs up"
        return nominal

    def _score_gap_bound(self) -> int:
        """Return the least score_gaps of any pairing with the nominal bye (see the module)."""
        levels = [self.levels[i] for i in range(self.n) if i != self.nominal_bye]
        bound = 0
        for above in range(1, len(levels)):
            if above % 2 and levels[above] != levels[above - 1]:
                bound += (levels[above - 1] - levels[above]) ** 2
        return bound

    def proves(self, cost: SwissCost, *, budget: int, solver: Solver) -> bool:
        """Return whether no pairing of all pairs beats ``cost`` on priorities 1-4.

        True when ``cost`` has no rematch, the bye at the bottom and score gaps at a lower
        bound: the odd-boundary bound, or else the relaxed problem's optimum (see the
        module), solved when its graph has at most ``budget`` edges.
        """
        if cost.rematches or cost.bye_rank:
            return False
        if cost.score_gaps == self.score_gap_bound:
            return True
        least = self._least_score_gaps(cost.score_gaps, budget, solver)
        return least == cost.score_gaps

    def _least_score_gaps(self, ceiling: int, budget: int, solver: Solver) -> int | None:
        """Return a lower bound on score_gaps with no rematch and the nominal bye.

        The relaxed problem: a score group of more than ``ceiling + 1`` teams forgets its
        history and keeps ``ceiling`` or ``ceiling + 1`` anonymous teams (its parity).
        None when its graph would exceed ``budget`` edges.
        """
        groups: dict[int, list[int]] = {}
        for i in range(self.n):
            if i != self.nominal_bye:
                groups.setdefault(self.levels[i], []).append(i)
        vertices: list[tuple[int, int]] = []  # (level, place), place -1: anonymous
        for level, members in groups.items():
            size = len(members)
            if size <= ceiling + 1:
                vertices += [(level, i) for i in members]
            else:
                vertices += [(level, -1)] * (ceiling + (size - ceiling) % 2)
        vertices.sort(reverse=True)
        meetings = self.meetings
        edges = []
        for a, (level_a, i) in enumerate(vertices):
            for b in range(a + 1, len(vertices)):
                level_b, j = vertices[b]
                squared_gap = (level_a - level_b) ** 2
                if squared_gap > ceiling:
                    break  # levels only fall: every later vertex is further
                if i >= 0 and j >= 0 and pair_key(i, j) in meetings:
                    continue
                edges.append((a, b, ceiling + 1 - squared_gap))
            if len(edges) > budget:
                return None
        matched = max_weight_perfect_matching(len(vertices), edges, solver=solver)
        if 2 * len(matched) != len(vertices):
            return None
        return sum((vertices[a][0] - vertices[b][0]) ** 2 for a, b in matched)

    def edge_cost(self, i: int, j: int) -> SwissCost:
        """Return the cost of pairing places i < j (j = n: the bye for i)."""
        nominal = self.nominal
        fold = abs(j - nominal[i]) + abs(i - nominal[j])
        close = (j - i) ** 2
        if j == self.n:
            return SwissCost(0, self.below[i], 0, fold, close)
        gap = self.levels[i] - self.levels[j]
        return SwissCost(self.meetings.get((i, j), 0), 0, gap * gap, fold, close)

    def edges(self, width: int | None) -> list[tuple[int, int, int]]:
        """Return the candidate edges with weights: all pairs, or those near in place.

        Sorted by place pair, so the same input always gives the solver the same graph.
        """
        n = self.n
        later: Sequence[Iterable[int]] = (
            [range(i + 1, n) for i in range(n)] if width is None else self._near(width)
        )
        levels, nominal = self.levels, self.nominal
        b0, b1, b2, b3, top = self.b0, self.b1, self.b2, self.b3, self.top
        rematch_unit, gap_unit = b3 * b2 * b1 * b0, b1 * b0
        gap_cost = [d * d * gap_unit for d in range(levels[0] - levels[-1] + 1)]
        met: list[dict[int, int]] = [{} for _ in range(n)]
        for (i, j), times in self.meetings.items():
            met[i][j] = times
        out = []
        for i in range(n):
            level, centre, met_i = levels[i], nominal[i], met[i]
            for j in later[i]:
                cost = gap_cost[level - levels[j]] + (abs(j - centre) + abs(i - nominal[j])) * b0
                if met_i and j in met_i:
                    cost += met_i[j] * rematch_unit
                out.append((i, j, top - cost - (j - i) ** 2))
        for i in sorted(self.eligible):
            fold = abs(n - nominal[i]) + abs(i - nominal[n])
            out.append((i, n, top - self.below[i] * b2 * b1 * b0 - fold * b0 - (n - i) ** 2))
        return out

    def _near(self, width: int) -> list[list[int]]:
        """Return, for each place, the later places within ``width`` of it or its nominal.

        A pair is near when either team is within ``width`` places of the other or of the
        other's nominal opponent.
        """
        n = self.n
        later: list[set[int]] = [set(range(i + 1, min(n, i + width + 1))) for i in range(n)]
        for i in range(n):
            centre = self.nominal[i]
            if centre == n:
                continue
            low, high = max(0, centre - width), min(n, centre + width + 1)
            later[i].update(range(max(low, i + 1), high))
            for j in range(low, min(high, i)):
                later[j].add(i)
        return [sorted(js) for js in later]

    def cost(self, matched: Iterable[tuple[int, int]]) -> SwissCost:
        """Return the total cost of matched place pairs (i < j)."""
        r = b = s = f = t = 0
        for i, j in matched:
            c = self.edge_cost(i, j)
            r, b, s, f = r + c.rematches, b + c.bye_rank, s + c.score_gaps, f + c.fold
            t += c.closeness
        return SwissCost(r, b, s, f, t)

    def result(
        self,
        number: int,
        matched: list[tuple[int, int]],
        cost: SwissCost,
        window: int | None,
        fold_proven: bool,
        solver: str,
        edges: int,
    ) -> SwissRound:
        """Return the matching as a SwissRound: tables in the order of the top team."""
        teams, scores, n = self.teams, self.scores, self.n
        if len(matched) * 2 != n + self.odd:
            raise AssertionError("the matching is not perfect")
        bye = next((teams[i] for i, j in matched if j == n), None)
        games = sorted((i, j) for i, j in matched if j != n)
        pairings = tuple(
            Pairing(table, teams[i], teams[j]) for table, (i, j) in enumerate(games, start=1)
        )
        floats = []
        for i, j in games:
            if scores[i] != scores[j]:
                floats.append(Float(teams[i], "down", scores[i], teams[j], scores[j]))
                floats.append(Float(teams[j], "up", scores[j], teams[i], scores[i]))
        return SwissRound(
            number, pairings, bye, tuple(floats), cost, window, fold_proven, solver, edges
        )
