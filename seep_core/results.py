"""Checking a deal result entered in score mode (docs/rules.md D2, W1-W2): is it a result some
deal can have?

A score-keeper enters each team's card points and sweep values, and who dealt. The card points
must add up to 100 (D2). The sweeps must fit on the deal's 48 plays: the bidder's team makes
the odd plays and the dealer's team the even ones (S4), a sweep on play 1 is worth
``first_sweep``, on play 48 ``last_sweep`` and on any other play ``sweep`` (W1, W2, V1), a
sweep worth nothing is not recorded, and no two plays in a row can both be sweeps (a sweep
leaves the floor empty, so the next play has nothing to capture and must throw). Whether they
fit is decided by an exact search over the plays, so coinciding values (``first_sweep ==
sweep``, ...) need no special case.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .errors import IllegalMove, MalformedMove, SeepError
from .rules import DEFAULT_RULES, Rules

#: the plays of a deal (S4)
PLAYS = 48


def check_result(
    points: Any, sweeps: Any, dealer: Any, rules: Rules | None = None
) -> dict[str, list[Any]]:
    """Return an entered deal result, checked, in the form ``sc.score`` gives a played deal.

    ``points`` is each team's card points ``[a, b]``, ``sweeps`` each team's sweep values
    ``[[...], [...]]`` (in any order), ``dealer`` the seat that dealt. The result comes back
    as ``{"points", "sweeps", "total"}`` with each team's sweeps in the order of the plays
    that make them. Raises ``IllegalMove`` (rule D2, W1 or W2) for a result no deal can have,
    ``MalformedMove`` for one that cannot be read, ``SeepError`` for a bad dealer.

    >>> check_result([57, 43], [[50], [50, 25]], dealer=0)  # seat 1 bids: team 1 plays first
    {'points': [57, 43], 'sweeps': [[50], [25, 50]], 'total': [107, 118]}
    """
    rules = rules or DEFAULT_RULES
    if type(dealer) is not int or not 0 <= dealer <= 3:
        raise SeepError(f"the dealer is a seat 0-3, not {dealer!r}", code="bad_seat")
    a, b = _card_points(points)
    entered = _sweep_lists(sweeps)
    bidder_team = (dealer + 1) % 2
    worth = [_worth(play, rules) for play in range(PLAYS + 1)]  # worth[0] is unused
    team_of = [bidder_team if play % 2 else 1 - bidder_team for play in range(PLAYS + 1)]
    _check_values(entered, worth, team_of, bidder_team)
    swept = _sweep_plays(entered, worth, team_of)
    if swept is None:
        raise _no_such_deal(entered, worth, bidder_team)
    ordered: list[list[int]] = [[], []]
    for play in swept:
        ordered[team_of[play]].append(worth[play])
    return {
        "points": [a, b],
        "sweeps": ordered,
        "total": [a + sum(ordered[0]), b + sum(ordered[1])],
    }


def _card_points(points: Any) -> tuple[int, int]:
    """Return the two teams' card points, whole numbers 0-100 adding up to 100 (D2)."""
    if (
        not isinstance(points, list | tuple)
        or len(points) != 2
        or not all(type(p) is int for p in points)
    ):
        raise MalformedMove(
            f"card points are two whole numbers, one per team, not {points!r}", code="bad_result"
        )
    for team, p in enumerate(points):
        if not 0 <= p <= 100:
            raise IllegalMove(
                f"team {team}'s card points are {p}: a team scores 0 to 100 card points, "
                "the deck holding 100",
                rule="D2",
                code="bad_points",
            )
    if points[0] + points[1] != 100:
        raise IllegalMove(
            f"card points add up to 100 in every deal; these add up to {points[0] + points[1]}",
            rule="D2",
            code="points_not_100",
        )
    return points[0], points[1]


def _sweep_lists(sweeps: Any) -> tuple[list[int], list[int]]:
    """Return the two teams' sweep values, read as lists of whole numbers."""
    if (
        not isinstance(sweeps, list | tuple)
        or len(sweeps) != 2
        or not all(isinstance(s, list | tuple) for s in sweeps)
        or not all(type(v) is int for s in sweeps for v in s)
    ):
        raise MalformedMove(
            "sweeps are two lists, one per team, of the points each sweep is worth",
            code="bad_result",
        )
    return list(sweeps[0]), list(sweeps[1])


def _worth(play: int, rules: Rules) -> int:
    """Return what a sweep on ``play`` (1-48) is worth (W1, W2, V1)."""
    if play == 1:
        return rules.first_sweep
    if play == PLAYS:
        return rules.last_sweep
    return rules.sweep


def _check_values(
    entered: tuple[list[int], list[int]], worth: list[int], team_of: list[int], bidder_team: int
) -> None:
    """Refuse a sweep value that no play of its team is worth."""
    for team, values in enumerate(entered):
        for value in values:
            if value == 0:  # W2, V1: a sweep worth nothing is left out of the deal's sweeps
                raise IllegalMove(
                    "a sweep worth nothing is not recorded: leave the 0 out",
                    rule="W1",
                    code="sweep_worth_nothing",
                )
            plays = [p for p in range(1, PLAYS + 1) if worth[p] == value]
            if not plays:
                raise IllegalMove(
                    f"no sweep is worth {value} under this match's rules: "
                    f"{_values_in_words(worth)}",
                    rule="W1",
                    code="impossible_sweep",
                )
            if all(team_of[p] != team for p in plays):
                which = "first" if plays == [1] else "last"
                owner = "bidder's" if team_of[plays[0]] == bidder_team else "dealer's"
                raise IllegalMove(
                    f"a sweep worth {value} is a {which}-play sweep, and the {which} play is the "
                    f"{owner} (team {team_of[plays[0]]}): team {team} cannot have one",
                    rule="W2",
                    code="sweep_wrong_team",
                )


#: a state of the search: the play swept, the count placed of each (team, value), the sweeps
#: placed in all
_State = tuple[bool, tuple[int, ...], int]


def _sweep_plays(
    entered: tuple[list[int], list[int]], worth: list[int], team_of: list[int]
) -> list[int] | None:
    """Return plays (1-48) whose sweeps make exactly the entered values, or None if none do.

    A search over the plays in order: a state is whether the play before swept and how many
    of each (team, value) have been placed; a play may sweep if the one before did not, and
    a sweep's value must still be wanted by its team. A sweep worth nothing is never placed:
    it is not recorded, and leaving it out only frees its neighbours. A state is dropped once
    the plays left could not hold the sweeps still wanted, even every other one sweeping.
    """
    wanted = Counter((team, v) for team, values in enumerate(entered) for v in values)
    keys = sorted(wanted)
    slot = {key: i for i, key in enumerate(keys)}
    target = tuple(wanted[key] for key in keys)
    total = sum(target)
    # every reachable state, with the state it was reached from (to rebuild the plays)
    start: _State = (False, (0,) * len(keys), 0)
    reached: list[dict[_State, _State | None]] = [{start: None}]
    for play in range(1, PLAYS + 1):
        i = slot.get((team_of[play], worth[play]))
        left = PLAYS - play
        states: dict[_State, _State | None] = {}
        for state in reached[-1]:
            swept_before, counts, placed = state
            if total - placed <= (left + 1) // 2:  # this play does not sweep
                states.setdefault((False, counts, placed), state)
            if (
                i is not None
                and not swept_before
                and counts[i] < target[i]
                and total - placed - 1 <= left // 2
            ):
                more = (*counts[:i], counts[i] + 1, *counts[i + 1 :])
                states.setdefault((True, more, placed + 1), state)
        reached.append(states)
    end = next((s for s in reached[-1] if s[1] == target), None)
    plays = []
    for play in range(PLAYS, 0, -1):
        if end is None:
            return None  # no state at the end places every sweep wanted
        if end[0]:
            plays.append(play)
        end = reached[play][end]
    return plays[::-1]


def _values_in_words(worth: list[int]) -> str:
    """Return what sweeps are worth, for a message: 'a sweep is worth 50 (25 on the first
    play, nothing on the last)'.
    """

    def words(value: int) -> str:
        return str(value) if value else "nothing"

    middle = worth[2]
    special = [
        f"{words(worth[play])} on the {name} play"
        for play, name in ((1, "first"), (PLAYS, "last"))
        if worth[play] != middle
    ]
    return f"a sweep is worth {words(middle)}" + (f" ({', '.join(special)})" if special else "")


def _no_such_deal(
    entered: tuple[list[int], list[int]], worth: list[int], bidder_team: int
) -> IllegalMove:
    """Return the refusal of sweeps whose values are each possible but not all together."""
    dealer_team = 1 - bidder_team
    for team, play, name in ((bidder_team, 1, "first"), (dealer_team, PLAYS, "last")):
        value = worth[play]
        times = entered[team].count(value)
        if value != worth[2] and times > 1:
            return IllegalMove(
                f"team {team} enters {times} sweeps worth {value}, the {name} play's value, "
                f"but a deal has one {name} play",
                rule="W2",
                code=f"{name}_sweep_twice",
            )
    count = len(entered[0]) + len(entered[1])
    return IllegalMove(
        f"no deal has these {count} sweeps. A sweep empties the floor, so the play after it "
        f"cannot sweep; team {bidder_team} (the bidder's) makes the odd plays 1 to 47 and team "
        f"{dealer_team} the even plays 2 to {PLAYS}, and {_values_in_words(worth)}",
        rule="W1",
        code="too_many_sweeps",
    )
