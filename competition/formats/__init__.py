"""Tournament formats and standings as pure functions: no database, no Django.

Entrants are opaque ints (team ids). Every function is deterministic: the same inputs give
the same output, and the only randomness (the random tie-break) comes from a seed passed in.

>>> from competition import formats as cf
>>> [(p.a, p.b) for p in cf.round_robin([1, 2, 3, 4])[0].pairings]
[(2, 3), (4, 1)]
"""

from .common import Entrant, FormatError, Pairing, Round
from .elimination import (
    Bracket,
    BracketState,
    DropOrders,
    Fixture,
    FixtureState,
    LoserOf,
    Seed,
    Slot,
    WinnerOf,
    advance,
    double_elimination,
    single_elimination,
    standard_order,
)
from .groups import Group, group_name, group_stage, knockout_seeds, snake_groups
from .matching import Solver
from .roundrobin import round_robin, table_counts
from .standings import Row, Standings, standings
from .swiss import Float, Method, SwissCost, SwissRound, pairing_cost, swiss_pairings
from .tiebreaks import TIEBREAK_LABELS, TIEBREAKS, Match, Outcome, Points, Side, TieBreak, Value

__all__ = [
    "TIEBREAKS",
    "TIEBREAK_LABELS",
    "Bracket",
    "BracketState",
    "DropOrders",
    "Entrant",
    "Fixture",
    "FixtureState",
    "Float",
    "FormatError",
    "Group",
    "LoserOf",
    "Match",
    "Method",
    "Outcome",
    "Pairing",
    "Points",
    "Round",
    "Row",
    "Seed",
    "Side",
    "Slot",
    "Solver",
    "Standings",
    "SwissCost",
    "SwissRound",
    "TieBreak",
    "Value",
    "WinnerOf",
    "advance",
    "double_elimination",
    "group_name",
    "group_stage",
    "knockout_seeds",
    "pairing_cost",
    "round_robin",
    "single_elimination",
    "snake_groups",
    "standard_order",
    "standings",
    "swiss_pairings",
    "table_counts",
]
