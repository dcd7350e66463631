"""A deal's position as an immutable value, its JSON form (docs/engine.md "Positions"), views.

A ``Deal`` is a tuple underneath (cheap to build, compare and hash), so ``apply`` returns a new
one and replaying a deal is a fold. Cards and card sets are ints and bitmasks (see ``cards``);
the JSON form uses card codes.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any, NamedTuple, NoReturn

from .cards import BIT, CARD_BY_CODE, CODE, RANK_MASK, codes, mask_value
from .combos import subset_sums
from .errors import InvalidPosition, MalformedMove
from .rules import DEFAULT_RULES, Rules

BID = "bid"
OPENING = "opening"
PLAY = "play"
OVER = "over"
REDEALT = "redealt"
PHASES = (BID, OPENING, PLAY, OVER, REDEALT)

HOUSE_CODES = {f"H{v}": v for v in range(9, 14)}


class House(NamedTuple):
    """A house on the floor: its value, its whole sets (bitmasks) and its owners (seat bitmask)."""

    value: int
    sets: tuple[int, ...]
    owners: int

    @property
    def cards(self) -> int:
        """Return the bitmask of every card in the house."""
        total = 0
        for s in self.sets:
            total |= s
        return total

    @property
    def cemented(self) -> bool:
        """A house of two or more sets is cemented (H2) and cannot be broken (H7)."""
        return len(self.sets) > 1

    def owned_by(self, seat: int) -> bool:
        """Return whether ``seat`` owns (or co-owns) the house."""
        return bool(self.owners >> seat & 1)

    def to_dict(self) -> dict[str, Any]:
        """Return the house in its JSON form."""
        return {
            "value": self.value,
            "sets": [codes(s) for s in self.sets],
            "owners": [seat for seat in range(4) if self.owners >> seat & 1],
        }


def house_of(houses: tuple[House, ...], value: int) -> House | None:
    """Return the house of ``value`` among ``houses`` (a floor's), or None."""
    for h in houses:
        if h.value == value:
            return h
    return None


class Deal(NamedTuple):
    """One deal's full position. Immutable: every move makes a new Deal.

    Build one with ``new_deal`` or ``Deal.from_dict``; read it with ``to_dict`` or ``view``.
    """

    rules: Rules
    dealer: int
    bid: int | None
    phase: str
    to_play: int | None
    plays: int
    hands: tuple[int, int, int, int]
    stock: tuple[int, ...]
    loose: int
    houses: tuple[House, ...]
    piles: tuple[int, int]
    sweeps: tuple[tuple[int, ...], tuple[int, ...]]
    last_capture: int | None
    #: derived from ``loose``, kept for speed: bit s is set when loose cards can sum to s (T1)
    sums: int

    @property
    def bidder(self) -> int:
        """The seat to the dealer's right (S3)."""
        return (self.dealer + 1) % 4

    def hand(self, seat: int) -> list[str]:
        """Return the codes of the cards in ``seat``'s hand, in card order."""
        return codes(self.hands[seat])

    def house(self, value: int) -> House | None:
        """Return the house of ``value`` on the floor, or None."""
        return house_of(self.houses, value)

    def to_dict(self) -> dict[str, Any]:
        """Return the full position as JSON-ready data (docs/engine.md "Positions").

        The key ``rules`` is present only when the deal is played under non-default variants.
        """
        out: dict[str, Any] = {
            "dealer": self.dealer,
            "bid": self.bid,
            "phase": self.phase,
            "to_play": self.to_play,
            "plays": self.plays,
            "hands": [codes(h) for h in self.hands],
            "stock": [CODE[c] for c in self.stock],
            "floor": {
                "loose": codes(self.loose),
                "houses": [h.to_dict() for h in self.houses],
            },
            "piles": [codes(p) for p in self.piles],
            "sweeps": [list(s) for s in self.sweeps],
            "last_capture": self.last_capture,
        }
        if self.rules != DEFAULT_RULES:
            out["rules"] = self.rules.to_dict()
        return out

    @classmethod
    def from_dict(cls, position: Any, rules: Rules | None = None) -> Deal:
        """Return the Deal a position describes; raises InvalidPosition if it is inconsistent.

        ``rules`` (or the position's ``rules`` key) gives the variants; default: ``Rules()``.
        """
        return _from_dict(position, rules)


def new_deal(dealer: int, deck: Any, rules: Rules | None = None) -> Deal:
    """Return a fresh deal in phase "bid", dealt from a recorded deck in the order of S4.

    >>> d = new_deal(dealer=3, deck=[CODE[i] for i in range(52)])
    >>> d.to_play, d.hand(0), d.phase
    (0, ['AS', 'AH', 'AD', 'AC'], 'bid')
    """
    if type(dealer) is not int or not 0 <= dealer <= 3:
        raise InvalidPosition(f"dealer must be a seat 0-3, not {dealer!r}", code="bad_seat")
    if not isinstance(deck, list | tuple) or len(deck) != 52:
        raise InvalidPosition("a deck is a list of the 52 card codes", code="bad_deck")
    cards = [parse_card(code, "deck") for code in deck]
    if len(set(cards)) != 52:
        raise InvalidPosition("the deck holds a card twice (D1)", code="bad_deck", rule="D1")
    bidder = (dealer + 1) % 4
    hands = [0, 0, 0, 0]
    for c in cards[0:4]:
        hands[bidder] |= BIT[c]
    loose = 0
    for c in cards[4:8]:
        loose |= BIT[c]
    return Deal(
        rules or DEFAULT_RULES, dealer, None, BID, bidder, 0,
        (hands[0], hands[1], hands[2], hands[3]), tuple(cards[8:]), loose, (), (0, 0), ((), ()),
        None, subset_sums(loose),
    )  # fmt: skip


def view(deal: Deal, seat: int | None = None) -> dict[str, Any]:
    """Return what ``seat`` may see of the deal (None: the public view, which shows no hand).

    Hidden hands become null with their sizes in ``hand_sizes``; the stock is null; the floor
    is null while it lies face down (phase "bid"). After a redeal the bidder's hand is shown
    (B2). Captured piles are public: every card in them was played face up.
    """
    check_viewer(seat)
    out = deal.to_dict()
    shown = {seat}
    if deal.phase == REDEALT:
        shown.add(deal.bidder)
    out["hands"] = [out["hands"][s] if s in shown else None for s in range(4)]
    out["hand_sizes"] = [h.bit_count() for h in deal.hands]
    out["stock"] = None
    if deal.phase in (BID, REDEALT):
        out["floor"] = None
    return out


def check_viewer(seat: Any) -> None:
    """Refuse a viewer that is neither a seat 0-3 nor None (the public)."""
    if seat is not None and (type(seat) is not int or not 0 <= seat <= 3):
        raise MalformedMove(f"a seat is 0-3 or None, not {seat!r}", code="bad_seat")


# --- reading positions -------------------------------------------------------------------


def parse_card(code: Any, where: str) -> int:
    """Return the card a code in a position names (``where`` says where, for the message)."""
    card = CARD_BY_CODE.get(code) if isinstance(code, str) else None
    if card is None:
        raise InvalidPosition(f"unknown card code {code!r} in {where}", code="unknown_card")
    return card


def bad(message: str, code: str = "inconsistent_position", rule: str | None = None) -> NoReturn:
    """Raise InvalidPosition: the position read is malformed or inconsistent."""
    raise InvalidPosition(message, code=code, rule=rule)


def read_seat(value: Any, name: str) -> int | None:
    """Return a seat 0-3 or None read from a position's field ``name``."""
    if value is None:
        return None
    if type(value) is not int or not 0 <= value <= 3:
        bad(f"{name} must be a seat 0-3 or null, not {value!r}", "bad_seat")
    return int(value)


def read_cards(data: Any, where: str, seen: set[int]) -> int:
    """Return the bitmask of a list of card codes, each seen only once in a position (D1)."""
    if not isinstance(data, list | tuple):
        bad(f"{where} must be a list of card codes", "bad_shape")
    mask = 0
    for code in data:
        card = parse_card(code, where)
        if card in seen:
            bad(f"card {CODE[card]} appears twice (D1)", "duplicate_card", "D1")
        seen.add(card)
        mask |= BIT[card]
    return mask


#: the keys of a digital position (docs/engine.md "Positions")
_KEYS = frozenset({
    "dealer", "bid", "phase", "to_play", "plays", "hands", "stock", "floor", "piles", "sweeps",
    "last_capture",
})  # fmt: skip


#: the first fields of a position, read and checked one by one: rules, dealer, bid, phase,
#: to_play and plays (those of a ``Deal`` and of a ``TableDeal``)
Header = tuple[Rules, int, int | None, str, int | None, int]


def read_header(
    position: Any, expected: frozenset[str], optional: frozenset[str], rules: Rules | None
) -> Header:
    """Return a position's rules, dealer, bid, phase, to_play and plays; check its keys."""
    if not isinstance(position, dict):
        bad("a position is an object", "bad_shape")
    missing = sorted(expected - set(position))
    if missing:
        bad(f"position lacks {', '.join(missing)}", "bad_shape")
    unknown = sorted(set(position) - expected - optional)
    if unknown:
        bad(f"position has unknown key(s) {', '.join(unknown)}", "bad_shape")
    if rules is None:
        rules = Rules.from_dict(position.get("rules"))
    dealer = read_seat(position["dealer"], "dealer")
    if dealer is None:
        bad("dealer must be a seat 0-3", "bad_seat")
    phase = position["phase"]
    if phase not in PHASES:
        bad(f"phase must be one of {', '.join(PHASES)}, not {phase!r}", "bad_shape")
    bid = position["bid"]
    if bid is not None and (type(bid) is not int or not 9 <= bid <= 13):
        bad(f"bid must be a house value 9-13 or null, not {bid!r} (B1)", "bad_bid", "B1")
    to_play = read_seat(position["to_play"], "to_play")
    plays = position["plays"]
    if type(plays) is not int or not 0 <= plays <= 52:
        bad(f"plays must be a count 0-52, not {plays!r}", "bad_shape")
    return rules, dealer, bid, phase, to_play, plays


def read_floor(floor: Any, seen: set[int], rules: Rules) -> tuple[int, tuple[House, ...]]:
    """Return the loose cards and the houses of a position's floor (H1-H4, V5)."""
    if not isinstance(floor, dict) or set(floor) != {"loose", "houses"}:
        bad("floor must be an object with loose and houses", "bad_shape")
    loose = read_cards(floor["loose"], "floor", seen)
    houses_data = floor["houses"]
    if not isinstance(houses_data, list | tuple):
        bad("floor houses must be a list", "bad_shape")
    houses = sorted((read_house(h, seen) for h in houses_data), key=lambda h: h.value)
    for a, b in pairwise(houses):
        if a.value == b.value:
            bad(f"two houses of {a.value} on the floor (H3)", "duplicate_house", "H3")
    for h in houses:
        if loose & RANK_MASK[h.value]:
            bad(f"a loose card of value {h.value} lies beside the house of {h.value} (H4)",
                 "loose_beside_house", "H4")  # fmt: skip
    if rules.max_houses is not None and len(houses) > rules.max_houses:
        bad(f"more than {rules.max_houses} houses on the floor (V5)", "too_many_houses", "V5")
    return loose, tuple(houses)


Captured = tuple[tuple[int, int], tuple[tuple[int, ...], tuple[int, ...]], int | None]


def read_captured(position: dict[str, Any], seen: set[int]) -> Captured:
    """Return a position's piles, sweeps and last capturing team."""
    piles_data = position["piles"]
    if not isinstance(piles_data, list | tuple) or len(piles_data) != 2:
        bad("piles must be a list of two piles", "bad_shape")
    piles = (read_cards(piles_data[0], "pile 0", seen), read_cards(piles_data[1], "pile 1", seen))
    sweeps_data = position["sweeps"]
    if (
        not isinstance(sweeps_data, list | tuple)
        or len(sweeps_data) != 2
        or not all(isinstance(s, list | tuple) for s in sweeps_data)
        or not all(type(v) is int and v > 0 for s in sweeps_data for v in s)
    ):
        bad("sweeps must be two lists of positive sweep values", "bad_shape")
    sweeps = (tuple(sweeps_data[0]), tuple(sweeps_data[1]))
    last_capture = position["last_capture"]
    if last_capture is not None and (type(last_capture) is not int or last_capture not in (0, 1)):
        bad(f"last_capture must be 0, 1 or null, not {last_capture!r}", "bad_shape")
    return piles, sweeps, last_capture


def _from_dict(position: Any, rules: Rules | None) -> Deal:
    if isinstance(position, dict) and position.get("mode") == "table":
        bad("a table position is read with TableDeal.from_dict", "bad_shape")
    rules, dealer, bid, phase, to_play, plays = read_header(
        position, _KEYS, frozenset({"rules", "hand_sizes"}), rules
    )
    seen: set[int] = set()
    hands_data = position["hands"]
    if not isinstance(hands_data, list | tuple) or len(hands_data) != 4:
        bad("hands must be a list of four hands (null hands are for views only)", "bad_shape")
    hands = tuple(read_cards(h, f"hand {s}", seen) for s, h in enumerate(hands_data))
    stock_data = position["stock"]
    if not isinstance(stock_data, list | tuple):
        bad("stock must be a list of card codes", "bad_shape")
    stock = tuple(parse_card(code, "stock") for code in stock_data)
    if len(stock) > 44:
        bad("the stock holds at most 44 cards (S4)", "bad_shape", "S4")
    for card in stock:
        if card in seen:
            bad(f"card {CODE[card]} appears twice (D1)", "duplicate_card", "D1")
        seen.add(card)
    loose, houses = read_floor(position["floor"], seen, rules)
    piles, sweeps, last_capture = read_captured(position, seen)
    deal = Deal(
        rules, dealer, bid, phase, to_play, plays, (hands[0], hands[1], hands[2], hands[3]),
        stock, loose, houses, piles, sweeps, last_capture, subset_sums(loose),
    )  # fmt: skip
    _check_phase(deal)
    return deal


def read_house(data: Any, seen: set[int]) -> House:
    """Return a house read from its JSON form (H1, H2, H6)."""
    if not isinstance(data, dict) or set(data) != {"value", "sets", "owners"}:
        bad("a house is an object with value, sets and owners", "bad_shape")
    value = data["value"]
    if type(value) is not int or not 9 <= value <= 13:
        bad(f"a house has a value 9-13, not {value!r} (H1)", "bad_house", "H1")
    sets_data = data["sets"]
    if not isinstance(sets_data, list | tuple) or not sets_data:
        bad(f"the house of {value} needs a list of sets", "bad_house", "H2")
    sets = []
    for s in sets_data:
        mask = read_cards(s, f"the house of {value}", seen)
        if not mask or mask_value(mask) != value:
            bad(f"a set {list(s)} of the house of {value} does not sum to {value} (H2)",
                 "bad_house", "H2")  # fmt: skip
        sets.append(mask)
    cards = 0
    for mask in sets:
        cards |= mask
    if cards.bit_count() < 2:
        bad(f"the house of {value} holds fewer than two cards (H1)", "bad_house", "H1")
    owners_data = data["owners"]
    if not isinstance(owners_data, list | tuple) or not owners_data:
        bad(f"the house of {value} needs at least one owner (H6)", "bad_house", "H6")
    owners = 0
    for seat in owners_data:
        if type(seat) is not int or not 0 <= seat <= 3:
            bad(f"an owner of the house of {value} is not a seat 0-3: {seat!r}", "bad_seat")
        if owners >> seat & 1:
            bad(f"seat {seat} is named twice as an owner of the house of {value}", "bad_house")
        owners |= 1 << seat
    return House(value, tuple(sets), owners)


def _check_phase(deal: Deal) -> None:
    phase, hands = deal.phase, deal.hands
    in_hands = hands[0] | hands[1] | hands[2] | hands[3]
    if phase in (BID, OPENING) and deal.to_play != deal.bidder:
        bad(f"in phase {phase} the bidder (seat {deal.bidder}) is to play (S3)", rule="S3")
    if phase == BID:
        if deal.bid is not None or deal.houses or deal.plays or any(deal.piles):
            bad("in phase bid nothing is bid, built, played or captured yet", rule="S3")
        if in_hands & ~hands[deal.bidder]:
            bad("in phase bid only the bidder holds cards (S3)", rule="S3")
        if not hands[deal.bidder]:
            bad("in phase bid the bidder holds cards (S3)", rule="S3")
    elif phase == OPENING:
        if deal.bid is None:
            bad("in phase opening the bid is made (B4)", rule="B4")
        if deal.plays or deal.houses or any(deal.piles) or any(deal.sweeps):
            bad("in phase opening no play is made yet: no house, pile or sweep (B4)", rule="B4")
        if not hands[deal.bidder] & RANK_MASK[deal.bid or 0]:
            bad(f"the bidder holds no card of the bid value {deal.bid} (B1)", rule="B1")
    elif phase == PLAY:
        if deal.bid is None:
            bad("in phase play the bid is made (B4)", rule="B4")
        if deal.stock:
            bad("in phase play the stock is dealt (S4)", rule="S4")
        if deal.to_play is None or not hands[deal.to_play]:
            bad("in phase play the seat to play holds a card (T0)", rule="T0")
    elif phase == OVER:
        if in_hands or deal.stock:
            bad("in phase over every card is played (E1)", rule="E1")
        if deal.houses:
            bad("in phase over no house is left on the floor (E1)", rule="E1")
        if deal.loose and deal.last_capture is not None:
            bad("in phase over the cards left go to the last capturer (E1)", rule="E1")
    elif deal.bid is not None or deal.plays:
        bad("a redealt deal has no bid and no plays (B2)", rule="B2")
    if phase in (OVER, REDEALT) and deal.to_play is not None:
        bad(f"in phase {phase} nobody is to play: to_play is null")
    if phase in (OPENING, PLAY):
        for h in deal.houses:
            for seat in range(4):
                if h.owned_by(seat) and not hands[seat] & RANK_MASK[h.value]:
                    bad(f"seat {seat} owns the house of {h.value} without a card of "
                         f"{h.value} in hand (T2)", "owner_without_key", "T2")  # fmt: skip
