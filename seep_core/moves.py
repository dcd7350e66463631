"""The move calls of the engine: play, apply, canonical_move, replay (and legal_moves).

Each validates the move once (``validation``) and applies it once (``transition``); what they
accept is exactly what ``legal_moves`` (``legal``) lists.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import MalformedMove
from .legal import legal_moves
from .state import Deal
from .transition import after
from .validation import move_dict, read_move

__all__ = ["apply", "canonical_move", "legal_moves", "play", "replay"]


def play(deal: Deal, move: Mapping[str, Any]) -> tuple[dict[str, Any], Deal]:
    """Return ``move`` in canonical form and the position after it; ``deal`` is unchanged.

    The move is checked and applied once: this is the call for recording a move, where both
    the canonical move (to store) and the new position (to go on from) are needed. Raises
    ``IllegalMove`` (with the rule id) for a move the rules forbid and ``MalformedMove`` for
    one that cannot be read.

    >>> import seep_core as sc
    >>> deal = sc.new_deal(3, sc.ordered_deck())
    >>> move, deal = sc.play(deal, {"action": "redeal", "seat": 0})
    >>> move, deal.phase
    ({'seat': 0, 'action': 'redeal'}, 'redealt')
    """
    checked = read_move(deal, move)
    return move_dict(checked), after(deal, checked)


def apply(deal: Deal, move: Mapping[str, Any]) -> Deal:
    """Return the position after ``move``; ``deal`` is unchanged.

    Raises ``IllegalMove`` (with the rule id) for a move the rules forbid and ``MalformedMove``
    for one that cannot be read.
    """
    return after(deal, read_move(deal, move))


def canonical_move(deal: Deal, move: Mapping[str, Any]) -> dict[str, Any]:
    """Return ``move`` as ``legal_moves`` lists it (take sorted, auto-joined cards listed).

    Raises exactly what ``apply`` raises for the same move.
    """
    return move_dict(read_move(deal, move))


def replay(deal: Deal, moves: Any) -> Deal:
    """Return the position after applying ``moves`` in order (a fold of ``apply``)."""
    if not isinstance(moves, list | tuple):
        raise MalformedMove("moves to replay are a list of moves", code="bad_move")
    for move in moves:
        deal = after(deal, read_move(deal, move))
    return deal
