"""The move calls of the engine: play, apply, canonical_move, replay, legal_moves and view, for
a digital ``Deal`` and a ``TableDeal`` alike.

Each validates the move once (``validation``, or ``table`` for a table deal) and applies it
once (``transition``); what they accept is exactly what ``legal_moves`` lists.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, overload

from .errors import MalformedMove
from .legal import legal_moves as _legal_moves
from .state import Deal, check_viewer
from .state import view as _view
from .table import TableDeal, after_table, legal_table_moves, read_table_move, table_move_dict
from .transition import after
from .validation import move_dict, read_move

__all__ = ["apply", "canonical_move", "legal_moves", "play", "replay", "view"]


@overload
def play(deal: Deal, move: Mapping[str, Any]) -> tuple[dict[str, Any], Deal]: ...
@overload
def play(deal: TableDeal, move: Mapping[str, Any]) -> tuple[dict[str, Any], TableDeal]: ...
def play(
    deal: Deal | TableDeal, move: Mapping[str, Any]
) -> tuple[dict[str, Any], Deal | TableDeal]:
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
    if type(deal) is TableDeal:
        checked = read_table_move(deal, move)
        return table_move_dict(checked), after_table(deal, checked)
    if type(deal) is not Deal:
        raise _not_a_deal(deal)
    checked = read_move(deal, move)
    return move_dict(checked), after(deal, checked)


@overload
def apply(deal: Deal, move: Mapping[str, Any]) -> Deal: ...
@overload
def apply(deal: TableDeal, move: Mapping[str, Any]) -> TableDeal: ...
def apply(deal: Deal | TableDeal, move: Mapping[str, Any]) -> Deal | TableDeal:
    """Return the position after ``move``; ``deal`` is unchanged.

    Raises ``IllegalMove`` (with the rule id) for a move the rules forbid and ``MalformedMove``
    for one that cannot be read.
    """
    if type(deal) is Deal:
        return after(deal, read_move(deal, move))
    if type(deal) is not TableDeal:
        raise _not_a_deal(deal)
    return after_table(deal, read_table_move(deal, move))


def canonical_move(deal: Deal | TableDeal, move: Mapping[str, Any]) -> dict[str, Any]:
    """Return ``move`` as ``legal_moves`` lists it (take sorted, auto-joined cards listed).

    Raises exactly what ``apply`` raises for the same move.
    """
    if type(deal) is TableDeal:
        return table_move_dict(read_table_move(deal, move))
    if type(deal) is not Deal:
        raise _not_a_deal(deal)
    return move_dict(read_move(deal, move))


@overload
def replay(deal: Deal, moves: Any) -> Deal: ...
@overload
def replay(deal: TableDeal, moves: Any) -> TableDeal: ...
def replay(deal: Deal | TableDeal, moves: Any) -> Deal | TableDeal:
    """Return the position after applying ``moves`` in order (a fold of ``apply``)."""
    if not isinstance(moves, list | tuple):
        raise MalformedMove("moves to replay are a list of moves", code="bad_move")
    if type(deal) is TableDeal:
        table = deal
        for move in moves:
            table = after_table(table, read_table_move(table, move))
        return table
    if type(deal) is not Deal:
        raise _not_a_deal(deal)
    for move in moves:
        deal = after(deal, read_move(deal, move))
    return deal


def legal_moves(deal: Deal | TableDeal) -> list[dict[str, Any]]:
    """Return every legal move of the player to play, each once (empty when the deal is over).

    The order is fixed: by card, then throw, capture, build and break, then value and take.
    For a table deal: every card play the table could make with a card not yet seen (none in
    phase "bid", where the move carries cards only the table knows).
    """
    if type(deal) is TableDeal:
        return legal_table_moves(deal)
    if type(deal) is not Deal:
        raise _not_a_deal(deal)
    return _legal_moves(deal)


def view(deal: Deal | TableDeal, seat: int | None = None) -> dict[str, Any]:
    """Return what ``seat`` may see of the deal (None: the public view, which shows no hand).

    Hidden hands become null with their sizes in ``hand_sizes``; the stock is null; the floor
    is null while it lies face down (phase "bid"). After a redeal the bidder's hand is shown
    (B2). Captured piles are public: every card in them was played face up. A table deal's
    position holds only what the whole table has seen, so every seat sees all of it.
    """
    if type(deal) is TableDeal:
        check_viewer(seat)
        return deal.to_dict()
    if type(deal) is not Deal:
        raise _not_a_deal(deal)
    return _view(deal, seat)


def _not_a_deal(deal: object) -> TypeError:
    return TypeError(f"a Deal or a TableDeal is expected, not {type(deal).__name__}")
