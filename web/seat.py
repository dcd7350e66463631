"""What a seat's page of a digital match shows: one seat's view of the deal, and its moves.

Built from the same selector as the API's ``state/`` (``tournaments.selectors.
match_position``): the deal as ``seep_core.view`` shows it to that seat (its own hand, never
another's), and the engine's ``legal_moves`` when that seat is to play, offered as choices
by ``web.moves`` (a card, then what it does; the bid and a redeal as buttons). Nothing here
decides what is legal: a page can only post back a move the engine listed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

import seep_core as sc
from scoring import selectors as scoring
from scoring.models import DealResult
from tournaments import matchlog
from tournaments import selectors as store
from tournaments.models import Match, MatchEvent

from . import moves, words
from .pages import card_label

#: the phases in which a deal is being played (its cards are still in hands)
IN_PLAY = ("bid", "opening", "play")


@dataclass(frozen=True)
class Card:
    code: str
    label: str
    words: str
    choices: tuple[moves.Choice, ...]  # the moves this card can make now (none: not your turn)


@dataclass(frozen=True)
class Seat:
    number: int
    place: str  # North, West, South, East
    name: str
    team: str
    cards: int  # how many cards they hold


@dataclass
class SeatPage:
    match: Match
    seat: int
    me: Seat
    seats: list[Seat]
    status: str
    deal_no: int  # the deal in play (or the last one), 1 first
    phase: str | None
    dealer: str | None
    bid: int | None
    to_play: str | None  # the name of the seat to play, None when nobody is
    my_turn: bool
    hand: list[Card]
    calls: list[moves.Choice]  # the bid's values and a redeal, when they are the moves
    loose: list[tuple[str, str]]  # label, words
    houses: list[dict[str, Any]]
    piles: list[int]  # cards captured by each team
    score: dict[str, Any] | None  # this deal's score so far (sc.score: public piles, sweeps)
    bazzis: list[int]
    difference: int
    deals: list[DealResult]
    over: bool
    winner: str | None
    last_move: str | None  # the deal's last move in words ("Ann (North) played: bid 9")


def seat_page(match: Match, seat: int, state: matchlog.MatchState | None = None) -> SeatPage:
    """Return what ``seat`` sees of ``match`` (a digital match), with its moves if it is to
    play: what ``store.match_position`` gives that seat, in words."""
    if state is None:
        state = store.match_state(match)
    shown = store.match_position(match, seats=[seat], state=state)
    players = match.seat_players()
    view = shown["position"] or {}
    sizes = view.get("hand_sizes") or [0, 0, 0, 0]
    seats = [
        Seat(n, words.seat(n), players[n].name, match.team_of_seat(n).name, int(sizes[n]))
        for n in range(4)
    ]
    legal = shown["legal_moves"] or []
    offered = {c.card: c.choices for c in moves.offered(legal, view)}
    hands = view.get("hands") or [None] * 4
    hand = [
        Card(code, card_label(code), words.card(code), offered.get(code, ()))
        for code in (hands[seat] or [])
    ]
    calls = [
        moves.Choice(moves.key(m), moves.describe(m), moves.describe(m, spoken=True), m)
        for m in legal
        if "card" not in m
    ]
    floor = view.get("floor") or {}
    progress = state.progress
    to_play = view.get("to_play")
    in_play = view.get("phase") in IN_PLAY
    winner = None
    if progress is not None and progress.over and progress.winner is not None:
        winner = (match.team0, match.team1)[progress.winner].name
    return SeatPage(
        match=match,
        seat=seat,
        me=seats[seat],
        seats=seats,
        status=state.status,
        deal_no=state.deal_no,
        phase=view.get("phase"),
        dealer=None if progress is None else players[progress.dealer].name,
        bid=view.get("bid"),
        to_play=players[to_play].name if in_play and to_play is not None else None,
        my_turn=bool(legal),
        hand=hand,
        calls=calls,
        loose=[(card_label(c), words.card(c)) for c in floor.get("loose", [])],
        houses=[
            {
                "value": h["value"],
                "sets": [" ".join(card_label(c) for c in s) for s in h["sets"]],
                "spoken": " + ".join(", ".join(words.card(c) for c in s) for s in h["sets"]),
                "owners": [players[o].name for o in h["owners"]],
            }
            for h in floor.get("houses", [])
        ],
        piles=[len(p) for p in view.get("piles") or [[], []]],
        score=sc.score(state.deal) if state.deal is not None and in_play else None,
        bazzis=[0, 0] if progress is None else list(progress.bazzis),
        difference=0 if progress is None else progress.difference,
        deals=list(scoring.deal_results(match=match)),
        over=progress is not None and progress.over,
        winner=winner,
        last_move=_last_move(match, state, seats) if in_play else None,
    )


def _last_move(match: Match, state: matchlog.MatchState, seats: list[Seat]) -> str | None:
    """Return the deal's last move in words, and who made it (one query), for the sentence
    a screen reader is read when another seat moves."""
    payload = (
        MatchEvent.objects.filter(
            match=match, kind=matchlog.MOVE_PLAYED, payload__deal=state.deal_no
        )
        .order_by("-seq")
        .values_list("payload", flat=True)
        .first()
    )
    if payload is None:
        return None
    move = payload["move"]
    who = seats[int(move["seat"])]
    what = moves.describe(move, spoken=True)
    return _("%(name)s (%(place)s) played: %(move)s") % {
        "name": who.name,
        "place": who.place,
        "move": f"{what[:1].lower()}{what[1:]}",
    }
