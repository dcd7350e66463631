"""Table mode: a deal recorded card by card at a physical table, its deck never seen
(docs/rules.md, "What table mode checks").

A ``TableDeal`` holds what the table has seen: the floor, turned up after the bid and recorded
with it (B3), every card played since, each seat's hand size and whose turn it is. Each play
is checked against that with the code digital mode uses (``validation.read_card_play``) and
applied with it (``transition.after``), so a rule lives in one place.

What digital mode checks against a hand becomes a *promise*: the bidder holds a card of the
bid (B1); a builder keeps a card of the house's value (H5, and H8 adding to an opponent's
house, T2 adding to one's own, which as an owner one keeps until the house is taken or
broken, H6); a breaker holds a card of the new value (H7). A seat's hand, once the deal is
complete, is exactly the cards it plays later; so a promise is *kept* when the seat later
plays a card of the value, and *broken* as soon as it can no longer be: every card of the
value has been seen elsewhere, or the seat has no card left. A play whose own promise the
cards seen already rule out is refused at once, with the error digital mode gives; a promise
that later plays show was broken is recorded as a ``Breach``, with the play that made it and
the play that showed it, and the deal goes on (the cards have been played; a director
decides what follows).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .cards import BIT, CARD_BY_CODE, CODE, FULL_DECK, RANK_MASK, VALUE, codes
from .combos import subset_sums
from .errors import IllegalMove, MalformedMove
from .legal import Moves, card_plays
from .rules import DEFAULT_RULES, Rules
from .state import (
    BID,
    OPENING,
    OVER,
    PLAY,
    REDEALT,
    Deal,
    House,
    bad,
    house_of,
    read_captured,
    read_cards,
    read_floor,
    read_header,
)  # fmt: skip
from .transition import after
from .validation import (
    FIELDS,
    HIGH,
    Checked,
    a_card_of,
    bid_value,
    move_dict,
    no_key,
    read_card,
    read_card_play,
)  # fmt: skip
from .validation import read_header as read_move_header

#: a table bid records the floor turned up after it (B3); a table redeal the hand shown (B2)
_TABLE_FIELDS = {
    **FIELDS,
    "bid": frozenset({"seat", "action", "value", "floor"}),
    "redeal": frozenset({"seat", "action", "hand"}),
}
_new = tuple.__new__  # skips NamedTuple's Python-level __new__ (a play's hot path)
#: stands, in a hand, for the cards of it the record has not seen (a bit above the deck's 52)
_UNSEEN_CARDS = 1 << 52
#: the rules whose promises a table deal records
PROMISE_RULES = ("B1", "H5", "H7", "H8", "T2")
#: why a promise is broken: every card of its value seen elsewhere, or the seat's hand empty
REASONS = ("all_seen", "no_cards_left")
_NAME = {1: "ace", 11: "jack", 12: "queen", 13: "king"}


def _name(value: int) -> str:
    return _NAME.get(value, str(value))


def _plural(value: int) -> str:
    return _name(value) + "s"


class Promise(NamedTuple):
    """A seat's duty, under ``rule``, to hold a card of ``value``, made at play ``play`` (the
    bid is play 0): kept once the seat plays a card of that value after it.
    """

    seat: int
    value: int
    rule: str
    play: int

    def to_dict(self) -> dict[str, Any]:
        """Return the promise in its JSON form."""
        return self._asdict()


class Breach(NamedTuple):
    """A broken promise: made at play ``play``, shown broken by play ``revealed``."""

    seat: int
    value: int
    rule: str
    play: int
    revealed: int
    reason: str  # one of REASONS

    @property
    def code(self) -> str:
        """The stable code of the refusal digital mode gives for the same breach."""
        return "bid_without_card" if self.rule == "B1" else "no_key"

    @property
    def message(self) -> str:
        """Say what was promised and how the record shows it was not kept."""
        v, card = self.value, a_card_of(self.value)
        made = {
            "B1": f"bid {v} (B1: holding {card})",
            "H5": f"built a house of {v} at play {self.play} (H5: keeping {card} in hand)",
            "H7": f"raised a house to {v} at play {self.play} (H7: holding {card})",
            "H8": f"added to an opponent's house of {v} at play {self.play} "
            f"(H8: keeping {card} in hand)",
            "T2": f"added to its own house of {v} at play {self.play} (T2: keeping {card} in hand)",
        }[self.rule]
        when = "in the deal" if self.rule == "B1" else "after it"
        if self.reason == "all_seen":
            how = f"all four {_plural(v)} had been seen by play {self.revealed}"
        else:
            how = f"its last card was played at play {self.revealed}"
        return f"seat {self.seat} {made} but played no {_name(v)} {when}: {how}"

    def to_dict(self) -> dict[str, Any]:
        """Return the breach in its JSON form (``message`` is for people, read back never)."""
        return {**self._asdict(), "message": self.message}


class TableDeal(NamedTuple):
    """One deal recorded at a table: what has been seen of it, and the promises still open.

    Immutable, like ``Deal``. ``sizes`` are the hand sizes, ``unseen`` the cards not seen yet
    (a bitmask), ``shown`` the bidder's hand shown for a redeal (B2); the other fields are
    those of a ``Deal``.
    """

    rules: Rules
    dealer: int
    bid: int | None
    phase: str
    to_play: int | None
    plays: int
    sizes: tuple[int, int, int, int]
    unseen: int
    loose: int
    houses: tuple[House, ...]
    piles: tuple[int, int]
    sweeps: tuple[tuple[int, ...], tuple[int, ...]]
    last_capture: int | None
    sums: int
    promises: tuple[Promise, ...]
    breaches: tuple[Breach, ...]
    shown: int

    @property
    def bidder(self) -> int:
        """The seat to the dealer's right (S3)."""
        return (self.dealer + 1) % 4

    def house(self, value: int) -> House | None:
        """Return the house of ``value`` on the floor, or None."""
        return house_of(self.houses, value)

    def to_dict(self) -> dict[str, Any]:
        """Return the position as JSON-ready data (docs/engine.md "Table mode").

        It has the shape of a digital view, every hand hidden, with ``mode``, ``promises``
        and ``breaches`` besides: nothing in it is secret.
        """
        hidden = self.phase in (BID, REDEALT)
        out: dict[str, Any] = {
            "mode": "table",
            "dealer": self.dealer,
            "bid": self.bid,
            "phase": self.phase,
            "to_play": self.to_play,
            "plays": self.plays,
            "hands": [
                codes(self.shown) if self.phase == REDEALT and s == self.bidder else None
                for s in range(4)
            ],
            "hand_sizes": list(self.sizes),
            "stock": None,
            "floor": None
            if hidden
            else {"loose": codes(self.loose), "houses": [h.to_dict() for h in self.houses]},
            "piles": [codes(p) for p in self.piles],
            "sweeps": [list(s) for s in self.sweeps],
            "last_capture": self.last_capture,
            "promises": [p.to_dict() for p in self.promises],
            "breaches": [b.to_dict() for b in self.breaches],
        }
        if self.rules != DEFAULT_RULES:
            out["rules"] = self.rules.to_dict()
        return out

    @classmethod
    def from_dict(cls, position: Any, rules: Rules | None = None) -> TableDeal:
        """Return the TableDeal a table position describes; raise InvalidPosition if it is
        inconsistent.
        """
        return _from_dict(position, rules)


def new_table_deal(dealer: int, rules: Rules | None = None) -> TableDeal:
    """Return a deal to record at a table, in phase "bid": the bidder holds 4 unseen cards.

    >>> deal = new_table_deal(dealer=3)
    >>> deal.to_play, deal.sizes, deal.phase
    (0, (4, 0, 0, 0), 'bid')
    """
    if type(dealer) is not int or not 0 <= dealer <= 3:
        bad(f"dealer must be a seat 0-3, not {dealer!r}", "bad_seat")
    bidder = (dealer + 1) % 4
    return TableDeal(
        rules or DEFAULT_RULES, dealer, None, BID, bidder, 0, _sizes(BID, 0, bidder), FULL_DECK,
        0, (), (0, 0), ((), ()), None, 1, (), (), 0,
    )  # fmt: skip


def _sizes(phase: str, plays: int, bidder: int) -> tuple[int, int, int, int]:
    """Return the hand sizes after ``plays`` plays (S4): the bidder holds 4 until the opening,
    then the plays go round from the bidder, each seat playing 12 cards.
    """
    if phase in (BID, OPENING, REDEALT):
        sizes = [0, 0, 0, 0]
        sizes[bidder] = 4
    else:
        sizes = [12, 12, 12, 12]
        for play in range(plays):
            sizes[(bidder + play) % 4] -= 1
    return (sizes[0], sizes[1], sizes[2], sizes[3])


# --- moves ---------------------------------------------------------------------------------


def legal_table_moves(deal: TableDeal) -> Moves:
    """Return every card play the table could legally make next, with any card not yet seen.

    Empty in phase "bid": a table bid carries the floor cards and a redeal the hand shown,
    which only the table knows.
    """
    seat = deal.to_play
    if seat is None or deal.phase not in (OPENING, PLAY):
        return []
    return card_plays(deal, seat, deal.unseen, keys=deal.sizes[seat] > 1)


def read_table_move(deal: TableDeal, move: Mapping[str, Any]) -> Checked:
    """Return ``move`` validated against what the table has seen, in canonical form."""
    action, seat = read_move_header(deal, move, _TABLE_FIELDS)
    if deal.phase == BID:
        return _read_table_bid(seat, action, move)
    card = read_card(action, move)
    if not deal.unseen & BIT[card]:
        raise IllegalMove(
            f"{CODE[card]} has been seen already ({_where(deal, card)}): "
            "a deck holds each card once",
            rule="D1",
            code="card_seen",
        )
    checked = read_card_play(deal, seat, card, action, move)
    key = checked[8]
    if key:
        # the play's own promise: refused when the cards seen already rule it out
        if deal.sizes[seat] == 1:
            raise no_key(checked[9], key, ", and this is your last card")
        if not deal.unseen & ~BIT[card] & RANK_MASK[key]:
            raise no_key(checked[9], key, f", but all four {_plural(key)} have been seen")
    return checked


def table_move_dict(checked: Checked) -> dict[str, Any]:
    """Return a validated table move in its JSON form (a bid with its floor, a redeal with
    its hand).
    """
    out = move_dict(checked)
    if checked[1] == "bid":
        out["floor"] = codes(checked[4])
    elif checked[1] == "redeal":
        out["hand"] = codes(checked[4])
    return out


def _where(deal: TableDeal, card: int) -> str:
    bit = BIT[card]
    if deal.loose & bit:
        return "it lies loose on the floor"
    for h in deal.houses:
        if h.cards & bit:
            return f"it is in the house of {h.value}"
    for team in (0, 1):
        if deal.piles[team] & bit:
            return f"it is in team {team}'s pile"
    return "it was shown"  # pragma: no cover - the shown hand ends the deal


def _read_table_bid(seat: int, action: str, move: Mapping[str, Any]) -> Checked:
    """Return a table bid (with the floor turned up after it) or redeal (with the hand shown)."""
    if action == "redeal":
        hand = _four_cards(move.get("hand"), "a redeal shows the bidder's 4 cards (B2)", "hand")
        if hand & HIGH:
            raise IllegalMove(
                "a redeal is only for a bidder with no card above 8, and the hand shown holds "
                + ", ".join(codes(hand & HIGH)),
                rule="B2",
                code="redeal_with_high_card",
            )
        return (seat, "redeal", -1, 0, hand, (), (), 0, 0, "")
    value = bid_value(action, move)
    floor = _four_cards(
        move.get("floor"), "a bid at a table records the 4 floor cards turned up (B3)", "floor"
    )
    if floor & RANK_MASK[value] == RANK_MASK[value]:
        raise IllegalMove(
            f"you can bid {value} only holding a card of {value}, "
            f"and all four {_plural(value)} lie on the floor",
            rule="B1",
            code="bid_without_card",
        )
    return (seat, "bid", -1, value, floor, (), (), 0, value, "B1")


def _four_cards(data: Any, what: str, field: str) -> int:
    """Return four distinct cards listed in a table bid or redeal (a bitmask)."""
    if not isinstance(data, list | tuple) or len(data) != 4:
        raise MalformedMove(f"{what}: {field} lists 4 card codes", code=f"bad_{field}")
    mask = 0
    for code in data:
        card = CARD_BY_CODE.get(code) if type(code) is str else None
        if card is None:
            raise MalformedMove(f"unknown card code {code!r} in {field}", code="unknown_card")
        if mask & BIT[card]:
            raise IllegalMove(
                f"{field} lists {code} twice: a deck holds each card once",
                rule="D1",
                code="card_seen",
            )
        mask |= BIT[card]
    return mask


def after_table(deal: TableDeal, checked: Checked) -> TableDeal:
    """Return the table deal after a validated move."""
    seat, action, card, value, take = checked[:5]
    if action == "bid":
        return deal._replace(
            phase=OPENING, bid=value, loose=take, sums=subset_sums(take),
            unseen=deal.unseen & ~take, promises=(Promise(seat, value, "B1", 0),),
        )  # fmt: skip
    if action == "redeal":
        return deal._replace(phase=REDEALT, to_play=None, unseen=deal.unseen & ~take, shown=take)
    (rules, dealer, bid, phase, to_play, plays, sizes, unseen, loose, houses, piles, sweeps,
     last_capture, sums, promises, breaches, _) = deal  # fmt: skip
    if phase == OPENING:  # the rest is dealt after the opening (S4)
        left = [12, 12, 12, 12]
        left[seat] = 11
    else:
        left = list(sizes)
        left[seat] -= 1
    sizes = (left[0], left[1], left[2], left[3])
    # The floor changes as in digital mode, and by the same code: ``after`` is given hands
    # that stand for the sizes (it only takes the card out and looks for the next seat with
    # a card) and no stock (the table deals its own).
    hands = [_UNSEEN_CARDS if n else 0 for n in left]
    hands[seat] |= BIT[card]
    moved = after(
        _new(Deal, (
            rules, dealer, bid, phase, to_play, plays, (hands[0], hands[1], hands[2], hands[3]),
            (), loose, houses, piles, sweeps, last_capture, sums,
        )),
        checked,
    )  # fmt: skip
    unseen &= ~BIT[card]
    if promises or checked[8]:
        promises, breaches = _settle(deal, checked, sizes, unseen)
    return _new(TableDeal, (
        rules, dealer, bid, moved.phase, moved.to_play, moved.plays, sizes, unseen, *moved[8:],
        promises, breaches, 0,
    ))  # fmt: skip


def _settle(
    deal: TableDeal, checked: Checked, sizes: tuple[int, int, int, int], unseen: int
) -> tuple[tuple[Promise, ...], tuple[Breach, ...]]:
    """Return the promises still open and the breaches after a card play.

    The card played keeps its seat's promises of its value; the play's own key is a new
    promise; a promise whose value has no unseen card left, or whose seat no card, is broken.
    """
    seat, card, key, rule = checked[0], checked[2], checked[8], checked[9]
    value = VALUE[card]
    if not key:  # most plays settle nothing: say so without building anything
        for s, v, _, _ in deal.promises:
            if (s == seat and v == value) or not unseen & RANK_MASK[v] or not sizes[s]:
                break
        else:
            return deal.promises, deal.breaches
    play = deal.plays + 1
    kept = [p for p in deal.promises if p.seat != seat or p.value != value]
    if key:
        kept.append(Promise(seat, key, rule, play))
    open_, breaches = [], list(deal.breaches)
    for p in kept:
        if not unseen & RANK_MASK[p.value]:
            breaches.append(Breach(*p, play, "all_seen"))
        elif not sizes[p.seat]:
            breaches.append(Breach(*p, play, "no_cards_left"))
        else:
            open_.append(p)
    return tuple(open_), tuple(breaches)


# --- reading positions ---------------------------------------------------------------------

_KEYS = frozenset({
    "mode", "dealer", "bid", "phase", "to_play", "plays", "hands", "hand_sizes", "stock",
    "floor", "piles", "sweeps", "last_capture", "promises", "breaches",
})  # fmt: skip


def _from_dict(position: Any, rules: Rules | None) -> TableDeal:
    rules, dealer, bid, phase, to_play, plays = read_header(
        position, _KEYS, frozenset({"rules"}), rules
    )
    if position["mode"] != "table":
        bad(f"a table position has mode 'table', not {position['mode']!r}", "bad_shape")
    if position["stock"] is not None:
        bad("a table position's stock is null: the table deals it", "bad_shape")
    bidder = (dealer + 1) % 4
    seen: set[int] = set()
    shown = _read_hands(position["hands"], phase, bidder, seen)
    sizes = _sizes(phase, plays, bidder)
    if position["hand_sizes"] != list(sizes):
        bad(
            f"after {plays} plays in phase {phase} the hand sizes are {list(sizes)} (S4)", rule="S4"
        )
    loose: int = 0
    houses: tuple[House, ...] = ()
    if phase in (BID, REDEALT):
        if position["floor"] is not None:
            bad(f"in phase {phase} the floor is face down: null (B3)", "bad_shape", "B3")
    else:
        loose, houses = read_floor(position["floor"], seen, rules)
    piles, sweeps, last_capture = read_captured(position, seen)
    unseen = FULL_DECK
    for card in seen:
        unseen &= ~BIT[card]
    promises = tuple(_read_promise(p, plays) for p in _list(position["promises"], "promises"))
    breaches = tuple(_read_breach(b, plays) for b in _list(position["breaches"], "breaches"))
    deal = TableDeal(
        rules, dealer, bid, phase, to_play, plays, sizes, unseen, loose, houses, piles, sweeps,
        last_capture, subset_sums(loose), promises, breaches, shown,
    )  # fmt: skip
    _check_table_phase(deal, len(seen))
    return deal


def _list(data: Any, name: str) -> list[Any]:
    if not isinstance(data, list | tuple):
        bad(f"{name} must be a list", "bad_shape")
    return list(data)


def _read_hands(data: Any, phase: str, bidder: int, seen: set[int]) -> int:
    """Return the hand shown for a redeal (0 otherwise); every other hand is null."""
    if not isinstance(data, list | tuple) or len(data) != 4:
        bad("hands must be a list of four, null where unseen", "bad_shape")
    shown = 0
    for seat, hand in enumerate(data):
        if phase == REDEALT and seat == bidder:
            shown = read_cards(hand, "the hand shown", seen)
        elif hand is not None:
            bad(f"hand {seat} is null: a table position does not know it", "bad_shape")
    return shown


def _int_field(data: dict[str, Any], name: str, low: int, high: int, what: str) -> int:
    value = data.get(name)
    if type(value) is not int or not low <= value <= high:
        bad(f"{what} has {name} {low}-{high}, not {value!r}", "bad_shape")
    return int(value)


def _read_promise(data: Any, plays: int) -> Promise:
    if not isinstance(data, dict) or set(data) != {"seat", "value", "rule", "play"}:
        bad("a promise is an object with seat, value, rule and play", "bad_shape")
    if data["rule"] not in PROMISE_RULES:
        bad(f"a promise's rule is one of {', '.join(PROMISE_RULES)}, not {data['rule']!r}")
    return Promise(
        _int_field(data, "seat", 0, 3, "a promise"),
        _int_field(data, "value", 9, 13, "a promise"),
        data["rule"],
        _int_field(data, "play", 0, plays, "a promise"),
    )


def _read_breach(data: Any, plays: int) -> Breach:
    keys = {"seat", "value", "rule", "play", "revealed", "reason"}
    if not isinstance(data, dict) or not keys <= set(data) <= keys | {"message"}:
        bad("a breach is an object with seat, value, rule, play, revealed and reason", "bad_shape")
    if data["rule"] not in PROMISE_RULES or data["reason"] not in REASONS:
        bad(f"a breach's rule is one of {', '.join(PROMISE_RULES)} and its reason one of "
            f"{', '.join(REASONS)}")  # fmt: skip
    play = _int_field(data, "play", 0, plays, "a breach")
    return Breach(
        _int_field(data, "seat", 0, 3, "a breach"),
        _int_field(data, "value", 9, 13, "a breach"),
        data["rule"],
        play,
        _int_field(data, "revealed", play + 1, plays, "a breach"),
        data["reason"],
    )


def _check_table_phase(deal: TableDeal, seen: int) -> None:
    """Refuse a table position whose parts do not fit its phase and plays."""
    phase, plays, bidder = deal.phase, deal.plays, deal.bidder
    started = phase in (OPENING, PLAY, OVER)
    if (deal.bid is None) == started:
        bad(f"in phase {phase} the bid is {'made' if started else 'not made'} (B1)", rule="B1")
    if phase == PLAY and not 1 <= plays <= 47:
        bad(f"in phase play 1 to 47 plays have been made, not {plays} (S4)", rule="S4")
    expected = {BID: (0, 0), REDEALT: (0, 4), OPENING: (0, 4), OVER: (48, 52)}.get(
        phase, (plays, 4 + plays)
    )
    if (plays, seen) != expected:
        bad(f"in phase {phase} a table deal has made {expected[0]} plays and seen "
            f"{expected[1]} cards, not {plays} and {seen} (B3, S4)", rule="S4")  # fmt: skip
    turn = {BID: bidder, OPENING: bidder, PLAY: (bidder + plays) % 4}.get(phase)
    if deal.to_play != turn:
        bad(f"in phase {phase} after {plays} plays the seat to play is {turn} (S1)", rule="S1")
    if phase == REDEALT and deal.shown & HIGH:
        bad("a redeal shows no card above 8 (B2)", rule="B2")
    if phase == OPENING and (deal.houses or deal.loose.bit_count() != 4):
        bad("in phase opening the floor is the 4 cards turned up (B3)", rule="B3")
    if not started and (deal.promises or deal.breaches or any(deal.piles) or any(deal.sweeps)):
        bad(f"in phase {phase} nothing is promised, captured or swept yet")
    if phase == OVER and deal.promises:
        bad("in phase over every card is seen: no promise is left open", rule="E1")
    if phase == OVER and (deal.houses or deal.loose) and deal.last_capture is not None:
        bad("in phase over the cards left go to the last capturer (E1)", rule="E1")
    for p in deal.promises:
        if not deal.sizes[p.seat] or not deal.unseen & RANK_MASK[p.value]:
            bad(f"seat {p.seat}'s promise of {a_card_of(p.value)} cannot be kept: it is broken")
    settled = {(p.seat, p.value) for p in deal.promises + deal.breaches}
    for h in deal.houses:
        for seat in range(4):
            if h.owned_by(seat) and (seat, h.value) not in settled:
                bad(f"seat {seat} owns the house of {h.value} without a promise of "
                    f"{a_card_of(h.value)} (T2)", "owner_without_key", "T2")  # fmt: skip
