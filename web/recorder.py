"""What the recorder's page of a table played with real cards shows (table mode).

The deal as the whole table has seen it (``seep_core.view``: in table mode every seat and the
public see the same position), the cards not yet seen, and for the card the recorder picks the
moves the engine's ``legal_moves`` lists with it (``web.moves``); the promises still open and
the breaches the plays have shown, each with the play that made the promise and the play that
showed it broken; the deal's plays so far (a withdrawn play left out, as the fold leaves it);
the last deal's score. Nothing here decides what is legal: the engine lists the moves, and the
append service checks what is posted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

import seep_core as sc
from scoring import selectors as scoring
from tournaments import matchlog
from tournaments.access import directed_tournaments
from tournaments.models import Match, MatchEvent
from tournaments.per_match import PerMatch

from . import moves, words
from .pages import card_label, public_position, seat_list

K = matchlog.Kind


@dataclass(frozen=True)
class Card:
    """One of the 52 cards as the recorder's grid shows it."""

    code: str
    label: str
    words: str
    seen: bool  # on the floor, in a pile, or shown: struck from the choices
    playable: bool  # the engine lists a move with it now


@dataclass(frozen=True)
class Play:
    """A play of the deal in play, in words: its number (the bid is 0), who, and what."""

    number: int
    seat: str
    what: str  # with the cards' glyphs (A♠), as shown
    words: str  # with the cards in words ("Ace of spades"), as a screen reader reads it


@dataclass(frozen=True)
class BreachLine:
    rule: str
    seat: str
    message: str  # the engine's own words
    promised: Play | None  # the play that made the promise
    revealed: Play | None  # the play after which it could no longer be kept


@dataclass
class RecorderPage:
    match: Match
    state: matchlog.MatchState
    seats: list[tuple[str, str, str]]  # (North, player's name, team) by seat
    deal: sc.TableDeal | None
    position: dict[str, Any] | None = None
    dealer: str = ""
    bidder: str = ""
    to_play: str = ""
    cards: list[Card] = field(default_factory=list)
    chosen: moves.CardChoices | None = None  # the card picked, and what it can do
    throw_anyway: Card | None = None  # the picked card, when the engine lists no throw of it
    plays: list[Play] = field(default_factory=list)
    last_play: Play | None = None  # the play that can still be withdrawn
    last_move_key: str = ""
    promises: list[str] = field(default_factory=list)
    breaches: list[BreachLine] = field(default_factory=list)
    last_deal: dict[str, Any] | None = None  # the last deal_ended, in words
    deals: list[Any] = field(default_factory=list)
    bid_values: tuple[int, ...] = sc.BID_VALUES


def recorded_by(user: Any) -> Any:
    """Return the table matches ``user`` records: as their score-keeper, or as a director of
    their tournament (the page's own check, ``match_role``, reads the same rows)."""
    if not user.is_authenticated:
        return Match.objects.none()
    who = Q(scorekeepers=user) | Q(tournament__in=directed_tournaments(user))
    return Match.objects.filter(who, mode=Match.Mode.TABLE).distinct()


def table_matches(user: Any) -> Any:
    """Return the table matches ``user`` records that are not over, for the match picker."""
    return (
        recorded_by(user)
        .exclude(status__in=(Match.Status.FINISHED, Match.Status.CALLED_OFF))
        .select_related("tournament", "team0", "team1")
        .order_by("tournament__name", "pk")
    )


def in_words(message: str) -> str:
    """Return an engine's message with its seats named as the pages name them ("seat 0"
    is North)."""
    return re.sub(r"\bseat ([0-3])\b", lambda m: words.seat(int(m[1])), message)


def _seat(page: RecorderPage, seat: int) -> str:
    place, name, _team = page.seats[seat]
    return f"{place} ({name})"


@dataclass(frozen=True)
class _Plays:
    """The plays of a deal in play described so far, as of the event ``seq`` (whose hash is
    ``head_hash``): each with the position before it (to describe the next, or to go back
    to when the log withdraws it), and the position after the last."""

    deal_no: int
    seq: int
    head_hash: str
    seats: tuple[tuple[str, str, str], ...]
    plays: tuple[tuple[Play, Any], ...]  # (the play, the position before it)
    after: Any  # the position after the last play


class _PlaysByMatch(PerMatch[_Plays]):
    """The plays this process last described of each match's deal in play, so that a GET of
    the recorder's page reads and replays only the events since (none for a page shown
    again at the same head: a card picked), never the deal again. Bounded; shared by the
    threads of the process."""

    SIZE = 512

    def keep(self, match_id: int, plays: _Plays) -> None:
        with self._lock:
            self._put(match_id, plays)


_described = _PlaysByMatch()


def _deal_plays(match: Match, deal: sc.TableDeal, deal_no: int, page: RecorderPage) -> _Plays:
    """Return the plays of deal ``deal_no`` as the log stands at ``match``'s head (read in one
    picture with it): each ``move_withdrawn`` takes back the play before it (the fold's own
    reading). Extends what this process described of the deal at an earlier head with the
    events since (checked to follow it: the event it was described at still has its hash),
    or, for another deal, seats or log, describes the deal from its start."""
    seats = tuple(page.seats)
    kept = _described.get(match.pk)
    head = (match.last_seq, match.last_hash or "")
    if kept is not None and (kept.deal_no, kept.seats) == (deal_no, seats):
        if (kept.seq, kept.head_hash) == head:
            return kept
        if kept.seq < head[0]:
            grown = _described_since(match, page, kept, head)
            if grown is not None:
                return grown
    start = _Plays(deal_no, 0, "", seats, (), sc.new_table_deal(deal.dealer, deal.rules))
    plays = _described_since(match, page, start, head)
    assert plays is not None  # from the start, nothing to check
    return plays


def _described_since(
    match: Match, page: RecorderPage, kept: _Plays, head: tuple[int, str]
) -> _Plays | None:
    """Return ``kept`` with the deal's plays and withdrawals after it described on, to
    ``head``; None if the event ``kept`` was described at is not the log's (another log)."""
    moves_of_deal = Q(kind__in=(K.MOVE_PLAYED, K.MOVE_WITHDRAWN), payload__deal=kept.deal_no)
    events = MatchEvent.objects.filter(match=match, seq__gt=kept.seq, seq__lte=head[0])
    if kept.seq:
        events = MatchEvent.objects.filter(match=match, seq__gte=kept.seq, seq__lte=head[0])
        moves_of_deal |= Q(seq=kept.seq)
    rows = list(
        events.filter(moves_of_deal).order_by("seq").values_list("seq", "hash", "kind", "payload")
    )
    if kept.seq:
        if not rows or rows[0][:2] != (kept.seq, kept.head_hash):
            return None
        rows = rows[1:]
    plays, after = list(kept.plays), kept.after
    for _seq, _hash, kind, payload in rows:
        if kind == K.MOVE_PLAYED:
            move = payload["move"]
            before = floor_houses(after)
            play = Play(
                len(plays),
                _seat(page, move["seat"]),
                _describe(move, before),
                _describe(move, before, spoken=True),
            )
            plays.append((play, after))
            after = sc.apply(after, move)
        elif plays:
            after = plays.pop()[1]
    described = _Plays(kept.deal_no, head[0], head[1], kept.seats, tuple(plays), after)
    _described.keep(match.pk, described)
    return described


def _describe(move: dict[str, Any], before: Any, spoken: bool = False) -> str:
    if move.get("action") == "bid":
        name = words.card if spoken else card_label
        floor = ", ".join(name(c) for c in move.get("floor", ()))
        return _("Bid %(value)s; the floor turned up: %(floor)s") % {
            "value": move["value"],
            "floor": floor,
        }
    if move.get("action") == "redeal":
        return _("Threw the hand in (no card above 8)")
    return moves.describe(move, before, spoken=spoken)


def recorder_page(match: Match, state: matchlog.MatchState, card: str = "") -> RecorderPage:
    """Return what the recorder's page shows; ``card``: the card the recorder picked."""
    seats = [(words.seat(n), p.name, team) for n, p, team in seat_list(match)]
    deal = state.deal if isinstance(state.deal, sc.TableDeal) else None
    page = RecorderPage(match=match, state=state, seats=seats, deal=deal)
    page.deals = list(scoring.deal_results(match=match))
    page.last_deal = _last_deal(match, page)
    if deal is None:
        return page
    names = [name for _place, name, _team in seats]
    page.position = public_position(deal, names)
    page.dealer = _seat(page, deal.dealer)
    page.bidder = _seat(page, deal.bidder)
    if deal.to_play is not None:
        page.to_play = _seat(page, deal.to_play)
    # the plays so far, each described on the position before it (kept from the last GET)
    page.plays = [play for play, _ in _deal_plays(match, deal, state.deal_no, page).plays]
    if state.last_play is not None and page.plays:
        page.last_play = page.plays[-1]
        page.last_move_key = moves.key(state.last_play.move)
    page.promises = [
        _("%(seat)s: a card of %(value)s (%(rule)s, play %(play)s)")
        % {"seat": _seat(page, p.seat), "value": p.value, "rule": p.rule, "play": p.play}
        for p in deal.promises
    ]
    by_number = {p.number: p for p in page.plays}
    page.breaches = [
        BreachLine(
            rule=b.rule,
            seat=_seat(page, b.seat),
            message=in_words(b.message),
            promised=by_number.get(b.play),
            revealed=by_number.get(b.revealed),
        )
        for b in deal.breaches
    ]
    if deal.phase in ("opening", "play"):
        legal = sc.legal_moves(deal)
        offered = moves.offered(legal, floor_houses(deal))
        playable = {c.card for c in offered}
        page.cards = [
            Card(
                code, card_label(code), words.card(code), not deal.unseen >> i & 1, code in playable
            )
            for i, code in enumerate(sc.ordered_deck())
        ]
        page.chosen = next((c for c in offered if c.card == card), None)
        unseen = next((c for c in page.cards if c.code == card and not c.seen), None)
        if unseen is not None and page.chosen is None:
            page.chosen = moves.CardChoices(unseen.code, unseen.label, unseen.words, ())
        if page.chosen is not None and not any(
            c.move.get("action") == "throw" for c in page.chosen.choices
        ):
            page.throw_anyway = unseen
    elif deal.phase == "bid":
        page.cards = [
            Card(code, card_label(code), words.card(code), False, True)
            for code in sc.ordered_deck()
        ]
    return page


def floor_houses(deal: Any) -> dict[str, Any]:
    """Return the part of a position ``moves.describe`` reads: the houses on the floor (a
    new house, or one added to)."""
    return {"floor": {"houses": [{"value": h.value} for h in deal.houses]}}


def _last_deal(match: Match, page: RecorderPage) -> dict[str, Any] | None:
    """Return the last deal's result as the log recorded it, with its breaches in words."""
    event = MatchEvent.objects.filter(match=match, kind=K.DEAL_ENDED).order_by("-seq").first()
    if event is None:
        return None
    payload = event.payload
    return {
        "deal": payload["deal"],
        "dealer": _seat(page, payload["dealer"]),
        "points": payload["points"],
        "sweeps": payload["sweeps"],
        "total": payload["total"],
        "breaches": [
            {
                "rule": b["rule"],
                "seat": _seat(page, b["seat"]),
                "message": in_words(b.get("message", "")),
            }
            for b in payload.get("breaches", ())
        ],
    }
