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

from collections.abc import Iterable, Sequence

from .common import Entrant, FormatError
from .matching import Solver, max_weight_perfect_matching, solver_name
from .swiss_graph import Float, Method, SwissCost, SwissGraph, SwissRound

__all__ = ["Float", "Method", "SwissCost", "SwissRound", "pairing_cost", "swiss_pairings"]


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
    problem = SwissGraph(standings, played, byes, method)
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
    problem = SwissGraph(standings, played, byes, method)
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
