"""seep_core: the complete rules of four-player Seep as a pure-Python library.

>>> import seep_core as sc
>>> deal = sc.new_deal(dealer=3, deck=sc.ordered_deck())
>>> sc.legal_moves(deal)
[{'seat': 0, 'action': 'redeal'}]

See docs/engine.md for the interface and the JSON formats; docs/rules.md for the rule ids.
"""

from .cards import CODE, Card, points
from .errors import IllegalMove, InvalidPosition, InvalidRules, MalformedMove, SeepError
from .legal import BID_VALUES
from .match import InvalidFormat, MatchFormat, MatchProgress, start_match
from .moves import apply, canonical_move, legal_moves, play, replay, view
from .results import check_result
from .rules import Rules
from .scoring import ledger, next_dealer, score
from .state import Deal, House, new_deal
from .table import Breach, Promise, TableDeal, new_table_deal


def ordered_deck() -> list[str]:
    """Return the 52 card codes in card order (A S H D C, 2 S H D C, ... K S H D C)."""
    return list(CODE)


__all__ = [
    "BID_VALUES",
    "Breach",
    "Card",
    "Deal",
    "House",
    "IllegalMove",
    "InvalidFormat",
    "InvalidPosition",
    "InvalidRules",
    "MalformedMove",
    "MatchFormat",
    "MatchProgress",
    "Promise",
    "Rules",
    "SeepError",
    "TableDeal",
    "apply",
    "canonical_move",
    "check_result",
    "ledger",
    "legal_moves",
    "new_deal",
    "new_table_deal",
    "next_dealer",
    "ordered_deck",
    "play",
    "points",
    "replay",
    "score",
    "start_match",
    "view",
]
