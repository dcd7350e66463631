"""Checking an entered deal result (score mode): D2 card points, W1-W2 sweeps.

Raises the engine's own errors, so a refused entry reads like a refused move.
"""

from __future__ import annotations

from typing import Any

import seep_core as sc


def check_result(
    points: Any, sweeps: Any, dealer: int, rules: sc.Rules
) -> tuple[list[int], list[list[int]], list[int]]:
    """Return the entered result as (points, sweeps, totals); raise if the rules forbid it."""
    if (
        not isinstance(points, list)
        or len(points) != 2
        or not all(type(p) is int and 0 <= p <= 100 for p in points)
    ):
        raise sc.MalformedMove("card points are two whole numbers 0-100", code="bad_points")
    if sum(points) != 100:
        raise sc.IllegalMove(
            f"card points add up to 100 in every deal, not {sum(points)}",
            code="points_not_100",
            rule="D2",
        )
    if (
        not isinstance(sweeps, list)
        or len(sweeps) != 2
        or not all(isinstance(s, list) and all(type(v) is int for v in s) for s in sweeps)
    ):
        raise sc.MalformedMove("sweeps are two lists of sweep values", code="bad_sweeps")
    allowed = {rules.sweep, rules.first_sweep, rules.last_sweep} - {0}
    bidder_team = (dealer + 1) % 2
    first_play = 0
    for team, values in enumerate(sweeps):
        for value in values:
            if value not in allowed:
                raise sc.IllegalMove(
                    f"a sweep is worth {sorted(allowed)} under this match's rules, not {value}",
                    code="impossible_sweep",
                    rule="W1",
                )
            if value == rules.first_sweep and value != rules.sweep:
                first_play += 1
                if team != bidder_team:
                    raise sc.IllegalMove(
                        "only the bidder's team can sweep on the first play",
                        code="impossible_sweep",
                        rule="W2",
                    )
    if first_play > 1:
        raise sc.IllegalMove(
            "at most one sweep on the first play", code="impossible_sweep", rule="W2"
        )
    if sum(len(s) for s in sweeps) > 47:
        raise sc.IllegalMove("more sweeps than plays", code="impossible_sweep", rule="W1")
    total = [points[0] + sum(sweeps[0]), points[1] + sum(sweeps[1])]
    return list(points), [list(sweeps[0]), list(sweeps[1])], total
