"""The tie-breaks, each a pure function of a stage's results, and the values they rank by.

The inputs are ``Match`` rows (one per match, or per bye) with each team's ``Side``: its
outcome and its figures from the match. Every function returns a value per entrant where
higher is better; ``standings`` applies them in the order the stage chose.

How byes and forfeits count (a team cannot choose them, so they neither help nor hurt it
beyond their match points):

- The Seep figures (bazzis, running difference, points difference, deals, sweeps) add what
  the row says: a bye or a forfeit normally records zeros.
- ``buchholz``: the sum of the opponents' match points; a round without an opponent met
  over the table (a bye, a forfeit either way) counts as an opponent with the team's own
  match points. ``buchholz_cut1`` drops the lowest of those contributions.
- ``sonneborn_berger``: the opponents' match points for each game won plus half of them
  for each game drawn, over games played at the table only: a bye or a forfeit win beats
  nobody, so it adds nothing.
- ``head_to_head``: only games played between the tied teams; see ``head_to_head``.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, get_args

from .common import Entrant, FormatError

Outcome = Literal["win", "draw", "loss", "forfeit", "bye"]
Value = int | Fraction

#: outcome pairs a match may record (a's, b's)
VALID_OUTCOMES = {
    ("win", "loss"),
    ("loss", "win"),
    ("draw", "draw"),
    ("win", "forfeit"),
    ("forfeit", "win"),
    ("forfeit", "forfeit"),
}


@dataclass(frozen=True, slots=True)
class Side:
    """One team's part in a match: its outcome and its figures from the match.

    ``forfeit``: this team forfeited (its opponent wins by forfeit); ``bye``: no opponent.
    ``running_difference`` is the match's final running difference from this team's side
    (back to 0 whenever a bazzi is won, so 0 at the end of most matches of 1 bazzi);
    ``points_difference`` is its deal totals minus the other team's, over every deal.
    """

    entrant: Entrant
    outcome: Outcome
    bazzis_won: int = 0
    bazzis_lost: int = 0
    running_difference: int = 0
    deals_won: int = 0
    sweeps: int = 0
    points_difference: int = 0


@dataclass(frozen=True, slots=True)
class Match:
    """A stage's match in a round (``b`` None: ``a`` had a bye)."""

    round: int
    a: Side
    b: Side | None = None

    def __post_init__(self) -> None:
        if type(self.round) is not int or self.round < 1:
            raise FormatError(f"a round is a number >= 1, not {self.round!r}", code="bad_row")
        if self.b is None:
            if self.a.outcome != "bye":
                raise FormatError("a row without an opponent is a bye", code="bad_row")
        elif (self.a.outcome, self.b.outcome) not in VALID_OUTCOMES:
            raise FormatError(
                f"round {self.round}: {self.a.outcome}/{self.b.outcome} is not a result",
                code="bad_row",
            )
        elif self.a.entrant == self.b.entrant:
            raise FormatError("a team cannot play itself", code="bad_row")

    @property
    def played(self) -> bool:
        """Whether the match was played at the table (not a bye, not a forfeit)."""
        return self.b is not None and "forfeit" not in (self.a.outcome, self.b.outcome)

    def sides(self) -> tuple[tuple[Side, Side | None], ...]:
        """Return (side, opponent's side) for each team of the match."""
        if self.b is None:
            return ((self.a, None),)
        return ((self.a, self.b), (self.b, self.a))


@dataclass(frozen=True, slots=True)
class Points:
    """Match points per outcome; ``forfeit`` is what the forfeiting team gets (the other
    team gets ``win``)."""

    win: int = 2
    draw: int = 1
    loss: int = 0
    bye: int = 2
    forfeit: int = 0

    def of(self, outcome: Outcome) -> int:
        """Return the match points for an outcome."""
        return int(getattr(self, outcome))


TieBreak = Literal[
    "bazzis_won",
    "bazzi_difference",
    "running_difference",
    "points_difference",
    "deals_won",
    "sweeps",
    "head_to_head",
    "buchholz",
    "buchholz_cut1",
    "sonneborn_berger",
    "random",
]
#: every tie-break, in the order of ``TieBreak``
TIEBREAKS: tuple[TieBreak, ...] = get_args(TieBreak)
#: each tie-break's name in words, as docs/competition.md writes it (the keys are what the
#: API, the admin and the desk take), in the order of ``TIEBREAKS``
TIEBREAK_LABELS: dict[str, str] = {
    "bazzis_won": "bazzis won",
    "bazzi_difference": "bazzi difference",
    "running_difference": "running difference",
    "points_difference": "points difference",
    "deals_won": "deals won",
    "sweeps": "sweeps",
    "head_to_head": "head-to-head",
    "buchholz": "Buchholz",
    "buchholz_cut1": "Buchholz cut-1",
    "sonneborn_berger": "Sonneborn-Berger",
    "random": "random draw",
}


def match_points(matches: Iterable[Match], points: Points) -> dict[Entrant, int]:
    """Return each entrant's match points."""
    out: dict[Entrant, int] = defaultdict(int)
    for m in matches:
        for side, _ in m.sides():
            out[side.entrant] += points.of(side.outcome)
    return dict(out)


def figure(matches: Iterable[Match], name: str) -> dict[Entrant, int]:
    """Return per entrant the sum of a figure: bazzis_won, bazzi_difference,
    running_difference, points_difference, deals_won or sweeps.

    >>> m = Match(1, Side(1, "win", bazzis_won=2, bazzis_lost=1), Side(2, "loss", 1, 2))
    >>> figure([m], "bazzi_difference")
    {1: 1, 2: -1}
    """
    out: dict[Entrant, int] = defaultdict(int)
    for m in matches:
        for side, _ in m.sides():
            if name == "bazzi_difference":
                out[side.entrant] += side.bazzis_won - side.bazzis_lost
            elif name in (
                "bazzis_won", "running_difference", "points_difference", "deals_won", "sweeps"
            ):  # fmt: skip
                out[side.entrant] += getattr(side, name)
            else:
                raise FormatError(f"unknown figure {name!r}", code="bad_tiebreak")
    return dict(out)


def buchholz_contributions(matches: Iterable[Match], points: Points) -> dict[Entrant, list[int]]:
    """Return per entrant what each of its rounds adds to Buchholz (see the module)."""
    rows = list(matches)
    total = match_points(rows, points)
    out: dict[Entrant, list[int]] = defaultdict(list)
    for m in rows:
        for side, other in m.sides():
            if m.played and other is not None:
                out[side.entrant].append(total[other.entrant])
            else:
                out[side.entrant].append(total[side.entrant])
    return dict(out)


def buchholz(matches: Iterable[Match], points: Points) -> dict[Entrant, int]:
    """Return each entrant's Buchholz: its opponents' match points (byes and forfeits
    count as an opponent with the team's own points).

    >>> rows = [Match(1, Side(1, "win"), Side(2, "loss")), Match(1, Side(3, "bye"))]
    >>> buchholz(rows, Points())
    {1: 0, 2: 2, 3: 2}
    """
    return {e: sum(c) for e, c in buchholz_contributions(matches, points).items()}


def buchholz_cut1(matches: Iterable[Match], points: Points) -> dict[Entrant, int]:
    """Return each entrant's Buchholz without its lowest contribution."""
    return {e: sum(c) - min(c) for e, c in buchholz_contributions(matches, points).items() if c}


def sonneborn_berger(matches: Iterable[Match], points: Points) -> dict[Entrant, Fraction]:
    """Return each entrant's Sonneborn-Berger: beaten opponents' match points plus half of
    drawn opponents', over games played at the table.

    >>> rows = [Match(1, Side(1, "draw"), Side(2, "draw"))]
    >>> rows.append(Match(2, Side(1, "win"), Side(3, "loss")))
    >>> {e: str(v) for e, v in sonneborn_berger(rows, Points()).items()}
    {1: '1/2', 2: '3/2', 3: '0'}
    """
    rows = list(matches)
    total = match_points(rows, points)
    out: dict[Entrant, Fraction] = defaultdict(Fraction)
    for m in rows:
        for side, other in m.sides():
            out[side.entrant] += 0
            if not m.played or other is None:
                continue
            if side.outcome == "win":
                out[side.entrant] += total[other.entrant]
            elif side.outcome == "draw":
                out[side.entrant] += Fraction(total[other.entrant], 2)
    return dict(out)


def head_to_head(
    matches: Iterable[Match], points: Points, tied: Iterable[Entrant]
) -> dict[Entrant, int]:
    """Return the mini-table among exactly the ``tied`` teams: each one's match points from
    its games (played or forfeited) against the others of them, byes left out.

    >>> rows = [Match(1, Side(1, "win"), Side(2, "loss"))]
    >>> rows.append(Match(2, Side(1, "loss"), Side(3, "win")))
    >>> head_to_head(rows, Points(), [1, 2])
    {1: 2, 2: 0}
    """
    members = set(tied)
    out = dict.fromkeys(sorted(members), 0)
    for m in matches:
        if m.b is None or m.a.entrant not in members or m.b.entrant not in members:
            continue
        for side, _ in m.sides():
            out[side.entrant] += points.of(side.outcome)
    return out


def random_draw(entrants: Iterable[Entrant], seed: int) -> dict[Entrant, int]:
    """Return a drawn order (higher wins) from the recorded ``seed``: the same seed and
    entrants always give the same draw, and no two entrants draw the same value."""
    teams = sorted(set(entrants))
    random.Random(seed).shuffle(teams)
    return {e: len(teams) - i for i, e in enumerate(teams)}


def per_entrant(
    name: TieBreak,
    matches: Sequence[Match],
    points: Points,
    entrants: Iterable[Entrant],
    seed: int | None,
) -> dict[Entrant, Value]:
    """Return a tie-break's value for every entrant (head_to_head excepted: it depends on
    who is tied)."""
    teams = list(entrants)
    values: dict[Entrant, Value]
    if name in (
        "bazzis_won", "bazzi_difference", "running_difference", "points_difference",
        "deals_won", "sweeps",
    ):  # fmt: skip
        values = dict(figure(matches, name))
    elif name == "buchholz":
        values = dict(buchholz(matches, points))
    elif name == "buchholz_cut1":
        values = dict(buchholz_cut1(matches, points))
    elif name == "sonneborn_berger":
        values = dict(sonneborn_berger(matches, points))
    elif name == "random":
        if seed is None:
            raise FormatError("the random tie-break needs a recorded seed", code="no_seed")
        values = dict(random_draw(teams, seed))
    else:
        raise FormatError(f"unknown tie-break {name!r}", code="bad_tiebreak")
    return {e: values.get(e, 0) for e in teams}
