"""Swiss pairing as one maximum-weight perfect matching, priorities strictly in order.

Input: the ranked standings (entrants best first, each with its match points; points never
rise down the list), the history (pairs already played, byes already had) and the round
number. Output: the pairings with table numbers (table 1 holds the top-ranked team), the
bye, and the floats (a team paired with a different score: the higher one floats down, the
lower one floats up).

Every team is a vertex; with an odd count a BYE vertex joins them. Each possible pair is
an edge whose cost counts, from the most to the least important:

1. **bye rule** (a hard rule, not a weight): only the teams with the fewest byes so far
   have an edge to BYE, so nobody gets a second bye while another team has had none. A
   perfect matching always exists (BYE and any eligible team, the rest all together).
2. ``rematches``: how many times the two have already met. Nobody meets again while
   some pairing avoids it (given rule 1: a second free win changes the standings more
   than a repeated real game, so the bye rule ranks first).
3. ``bye_rank``: for the BYE edge, how many eligible teams are ranked below its team, so
   the bye goes to the lowest-ranked team without one.
4. ``score_gaps``: the squared gap between the two scores (in units of the points'
   common divisor). Teams meet their own score group; a float crosses as few points as
   possible, and two one-step floats beat one two-step float (a square punishes distance
   more than it counts floats).
5. ``fold``: how far the pair is from the nominal pairing, in places:
   ``|place(b) - place(nominal(a))| + |place(a) - place(nominal(b))|``. The nominal
   pairing is the textbook one without history: the bye to the lowest-ranked eligible
   team, score groups from the top, an odd group's lowest team floating down to meet the
   top team of the next group, each group then paired by ``method``: ``slide`` (1 v 5,
   2 v 6, 3 v 7, 4 v 8 in a group of eight, as Dutch Swiss does), ``fold`` (1 v 8,
   2 v 7...) or ``adjacent`` (1 v 2, 3 v 4...).
6. ``closeness``: the squared gap in places, only to break ties between pairings equal on
   everything above (symmetric groups often are): the closer places meet.

The cost of an edge is
``(((rematches * B3 + bye_rank) * B2 + score_gaps) * B1 + fold) * B0 + closeness`` and its
weight is ``TOP - cost``; every matching has the same number of edges E = ceil(n / 2), so
the heaviest matching is the cheapest. Each place value is larger than the most that all
lower priorities can add up to over a whole matching: ``B0 = E * (n + 1)² + 1``,
``B1 = E * 2(n + 1) + 1`` (no edge's fold cost exceeds 2n), ``B2 = E * max_gap + 1``
(``max_gap``: the squared gap between the top and the bottom score), ``B3 = n`` (one BYE
edge, its ``bye_rank`` below n). So one unit of a priority outweighs any possible total of
the priorities below it, and the optimum is the lexicographic minimum of (rematches,
bye_rank, score_gaps, fold, closeness). At 1,024 teams the weights stay below 2^100.

**Pruning, and why it keeps the optimum.** The complete graph has n²/2 edges; at 1,024
teams the blossom algorithm then takes seconds. So the graph first holds, for each team,
only the teams within ``window`` places of itself or of its nominal opponent (plus its
BYE edge when eligible); it contains the nominal pairing, so a perfect matching exists.
The result is then checked against lower bounds that hold for the complete graph:

- rematches ≥ 0 and bye_rank ≥ 0;
- with the bye fixed, score_gaps ≥ the sum over each boundary between adjacent score
  groups with an odd number of teams above it of the boundary's squared gap: at least one
  pair crosses such a boundary, and (x + y)² ≥ x² + y², so crossing two boundaries with
  one pair costs at least as much as crossing them separately.

The third bound is loose when the history forbids what parity alone allows (the two
leaders have met, so both float down where the bound counts no float). A second lower
bound then comes from a relaxed problem small enough to solve exactly. Let g be the score
gaps found. A better pairing has no rematch, the bye at the bottom and score gaps below g,
so fewer than g pairs joining different score groups (each costs at least 1), and no pair
with a squared gap above g. Relax: a score group of more than g + 1 teams forgets its
history (its teams may meet anyone, so they become interchangeable), and keeps only g or
g + 1 of its teams, the number with its own parity. That loses nothing: fewer than g of
the group's teams play outside it, the rest pair among themselves at no cost, and an even
number of those can be set aside. Smaller groups keep every team and every past meeting
among themselves. The relaxed graph (about 200 teams at 1,024 entrants) is solved
exactly for the least score gaps; any better pairing of the real field would be a
cheaper pairing of the relaxed one, so when its optimum is g nothing beats g. It is
solved only when its graph has at most four times the window's edges (about what the
next window would hold).

When the pruned optimum meets the bounds (no rematch, the bye to the lowest eligible
team, score gaps at either lower bound), no pairing of the complete graph is better on
those priorities, and the pruned optimum is also optimal for ``fold`` whenever its total
fold cost is at most 2 x ``window`` + 1: an improving exchange would need an edge outside
the window, whose fold cost alone is at least 2 x ``window`` + 2 (both its teams are more
than ``window`` places from the other's nominal opponent). When no bound is met the window
grows fourfold (at last: the complete graph). So every result is optimal for priorities
1-4; fold is proven optimal when ``SwissRound.fold_proven`` (its total is at most
2 x ``window`` + 1), and is otherwise the best among pairs within the window: a team is
never moved further than ``window`` places from its nominal opponent for the sake of the
fold preference alone. Growing the window until fold is proven costs seconds at 1,024
teams with many score groups (the proof needs the window to reach half the total fold
cost), so it is not done; ``window=None`` gives the complete graph when it matters.
Closeness, a tie-break, is optimal within the graph solved.

>>> r = swiss_pairings([(1, 2), (2, 2), (3, 0), (4, 0)], round_number=2, played=[(1, 2)])
>>> [(p.table, p.a, p.b) for p in r.pairings], [(f.entrant, f.direction) for f in r.floats]
([(1, 1, 3), (2, 2, 4)], [(1, 'down'), (3, 'up'), (2, 'down'), (4, 'up')])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from math import gcd
from typing import Literal

from .common import Entrant, FormatError, Pairing, pair_key
from .matching import Solver, max_weight_perfect_matching, solver_name

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


def swiss_pairings(
    standings: Sequence[tuple[Entrant, int]],
    *,
    round_number: int,
    played: Iterable[tuple[Entrant, Entrant]] = (),
    byes: Iterable[Entrant] = (),
    method: Method = "slide",
    solver: Solver = "auto",
    window: int | None = 24,
) -> SwissRound:
    """Return the Swiss pairings of a round.

    ``standings``: ``(entrant, match points)`` best first. ``played``: every pair that has
    met (a pair twice if they met twice); ``byes``: every bye had (an entrant once per
    bye). Pairs and byes of entrants not in the standings (withdrawn teams) are ignored.
    ``window=None`` solves the complete graph at once.
    """
    if type(round_number) is not int or round_number < 1:
        raise FormatError(f"round_number is >= 1, not {round_number!r}", code="bad_round")
    if window is not None and (type(window) is not int or window < 1):
        raise FormatError(f"window is None or >= 1, not {window!r}", code="bad_window")
    problem = _Problem(standings, played, byes, method)
    name = solver_name(solver)
    width = window
    while True:
        if width is not None and width >= problem.n - 1:
            width = None  # the window already holds every pair
        edges = problem.edges(width)
        matched = max_weight_perfect_matching(problem.n + problem.odd, edges, solver=name)
        cost = problem.cost(matched)
        if width is None or problem.proves(cost, budget=4 * len(edges), solver=name):
            break
        width *= 4  # a lower bound is not met: maybe a wider graph meets it
    proven = width is None or cost.fold <= 2 * width + 1
    return problem.result(round_number, matched, cost, width, proven, name, len(edges))


def pairing_cost(
    standings: Sequence[tuple[Entrant, int]],
    pairs: Iterable[tuple[Entrant, Entrant]],
    *,
    bye: Entrant | None = None,
    played: Iterable[tuple[Entrant, Entrant]] = (),
    byes: Iterable[Entrant] = (),
    method: Method = "slide",
) -> SwissCost:
    """Return what a given pairing costs under the weights ``swiss_pairings`` uses.

    Raises FormatError unless the pairs and the bye cover every entrant exactly once and
    the bye (if any) is a team eligible for it.
    """
    problem = _Problem(standings, played, byes, method)
    index = problem.index
    matched = []
    for a, b in pairs:
        if a not in index or b not in index:
            raise FormatError(f"pair ({a}, {b}) names an unknown entrant", code="bad_pairing")
        i, j = sorted((index[a], index[b]))
        matched.append((i, j))
    if bye is not None:
        if bye not in index or index[bye] not in problem.eligible:
            raise FormatError(f"entrant {bye} may not have the bye", code="bad_pairing")
        matched.append((index[bye], problem.n))
    covered = sorted(v for pair in matched for v in pair)
    if covered != list(range(problem.n + problem.odd)):
        raise FormatError("the pairing must cover every entrant exactly once", code="bad_pairing")
    return problem.cost(matched)


class _Problem:
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
