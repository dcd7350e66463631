"""Checking a move against the rules (docs/rules.md B, T, C, H, V): read it, refuse it or return
it validated, in canonical form.

Each check raises the error of the rule it enforces, so a refusal names that rule. What is
accepted here is exactly what ``legal.legal_moves`` lists (the property tests hold the two to
it); ``transition.after`` then applies a validated move without checking anything again.

``read_card_play`` checks a card play against everything the table shows (the floor, the
card, the bid), so digital and table mode share it. What the player must still hold after the
play (the key of H5, H7, H8 and T2) it returns as the play's *key* instead of checking it:
digital mode checks the key against the hand (``read_move``), table mode records it as a
promise (``table``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from .cards import BIT, CARD_BY_CODE, CODE, RANK_MASK, VALUE, codes
from .combos import has_subset_sum, split, subset_sums
from .errors import IllegalMove, MalformedMove
from .rules import Rules
from .state import BID, HOUSE_CODES, OPENING, OVER, PLAY, REDEALT, Deal, House

#: the fields each action takes (beyond seat and action); "take" is optional for build
FIELDS: dict[str, frozenset[str]] = {
    "bid": frozenset({"seat", "action", "value"}),
    "redeal": frozenset({"seat", "action"}),
    "throw": frozenset({"seat", "action", "card"}),
    "capture": frozenset({"seat", "action", "card", "take"}),
    "build": frozenset({"seat", "action", "card", "value", "take"}),
}
#: every card above 8 (B2)
HIGH = RANK_MASK[9] | RANK_MASK[10] | RANK_MASK[11] | RANK_MASK[12] | RANK_MASK[13]
HOUSE_NAME = {v: f"H{v}" for v in range(9, 14)}
_BID_ACTIONS = frozenset({"bid", "redeal"})
_VALUE_NAME = {1: "an ace", 11: "a jack", 12: "a queen", 13: "a king"}

#: A validated move in canonical form (what ``legal_moves`` would list), as a plain tuple
#: ``(seat, action, card, value, take, houses, sets, sums, key, key_rule)``:
#:
#: - ``card``: the card played, -1 for bid and redeal;
#: - ``value``: the bid or the house value, 0 where none;
#: - ``take``: the loose cards taken or put into the house (bitmask);
#: - ``houses``: the values of the houses taken (capture) or broken (build);
#: - ``sets``: build: the new sets the card and the take make (H2);
#: - ``sums``: capture: the subset sums of the loose cards left (``Deal.sums`` after it);
#: - ``key``: the value of a card the player must still hold after the play, 0 if none;
#: - ``key_rule``: the rule that asks for it (H5, H7, H8 or T2), "" if none.
#:
#: Every move makes one, and a plain tuple is much cheaper to build and unpack than a
#: NamedTuple (a tuple subclass): this is the hot path of replay.
Checked = tuple[int, str, int, int, int, tuple[int, ...], tuple[int, ...], int, int, str]


class Visible(Protocol):
    """What ``read_card_play`` reads of a position: what everybody at the table sees."""

    @property
    def rules(self) -> Rules: ...
    @property
    def phase(self) -> str: ...
    @property
    def bid(self) -> int | None: ...
    @property
    def to_play(self) -> int | None: ...
    @property
    def loose(self) -> int: ...
    @property
    def houses(self) -> tuple[House, ...]: ...
    @property
    def sums(self) -> int: ...
    def house(self, value: int) -> House | None: ...


def a_card_of(value: int) -> str:
    """Return how a sentence names a card of this value: 'an ace', 'a 9', 'an 8', 'a king'."""
    return _VALUE_NAME.get(value, f"an {value}" if value == 8 else f"a {value}")


def move_dict(checked: Checked) -> dict[str, Any]:
    """Return a validated move in its JSON form, ``take`` in card order with houses last."""
    seat, action, card, value, take, houses = checked[:6]
    out: dict[str, Any] = {"seat": seat, "action": action}
    if action in ("throw", "capture", "build"):
        out["card"] = CODE[card]
    if action in ("bid", "build"):
        out["value"] = value
    if action in ("capture", "build"):
        out["take"] = codes(take) + [HOUSE_NAME[v] for v in houses]
    return out


def read_move(deal: Deal, move: Mapping[str, Any]) -> Checked:
    """Return ``move`` validated, in canonical form; raise if it cannot be read or is illegal."""
    action, seat = read_header(deal, move, FIELDS)
    hand = deal.hands[seat]
    if deal.phase == BID:
        return _read_bid(seat, action, move, hand)
    # read_card's lookup inline (a call per move costs as much as the lookup; this is the
    # hot path of replay); read_card itself for a move it refuses, to say why
    code = move.get("card")
    card = CARD_BY_CODE.get(code) if type(code) is str and action not in _BID_ACTIONS else None
    if card is None:
        card = read_card(action, move)
    if not hand & BIT[card]:
        raise MalformedMove(f"seat {seat} does not hold {CODE[card]}", code="card_not_in_hand")
    if action == "throw":  # the commonest play needs no key: one call less (hot path)
        return _read_throw(deal, seat, card)
    checked = read_card_play(deal, seat, card, action, move)
    key = checked[8]
    if key and not hand & ~BIT[card] & RANK_MASK[key]:
        raise no_key(checked[9], key)
    return checked


def read_header(
    deal: Visible, move: Mapping[str, Any], fields_of: dict[str, frozenset[str]]
) -> tuple[str, int]:
    """Return the action and seat of a move that has the fields of its action and is in turn.

    ``fields_of`` gives the fields of each action (they differ between the modes).
    """
    if type(move) is not dict and not isinstance(move, Mapping):
        raise MalformedMove("a move is an object with seat and action", code="bad_move")
    action = move.get("action")
    fields = fields_of.get(action) if type(action) is str else None
    if fields is None:
        raise MalformedMove(
            f"unknown action {action!r}: one of bid, redeal, throw, capture, build",
            code="unknown_action",
        )
    if not fields.issuperset(move):
        extra = [k for k in move if k not in fields]
        raise MalformedMove(
            f"a {action} move has no field {', '.join(map(str, sorted(map(str, extra))))}",
            code="unexpected_field",
        )
    seat = move.get("seat")
    if type(seat) is not int or not 0 <= seat <= 3:
        raise MalformedMove(f"seat must be 0-3, not {seat!r}", code="bad_seat")
    phase = deal.phase
    if phase != PLAY:
        if phase == OVER:
            raise IllegalMove("the deal is over: no more moves", rule="E1", code="deal_over")
        if phase == REDEALT:
            raise IllegalMove(
                "the deal was thrown in (B2): a new deal starts", rule="B2", code="deal_over"
            )
    if seat != deal.to_play:
        raise IllegalMove(
            f"it is seat {deal.to_play}'s turn, not seat {seat}'s", rule="T0", code="not_your_turn"
        )
    return str(action), seat


def read_card(action: str, move: Mapping[str, Any]) -> int:
    """Return the card a play (throw, capture or build) plays; refuse a bid after the bid."""
    if action in ("bid", "redeal"):
        raise IllegalMove(
            f"the bid is made already: {action} is not a play", rule="B1", code="wrong_phase"
        )
    code = move.get("card")
    card = CARD_BY_CODE.get(code) if type(code) is str else None
    if card is None:
        raise MalformedMove(f"unknown card code {code!r}", code="unknown_card")
    return card


def read_card_play(
    deal: Visible, seat: int, card: int, action: str, move: Mapping[str, Any]
) -> Checked:
    """Return a card play validated against what the table shows, its key still to check."""
    if action == "throw":
        return _read_throw(deal, seat, card)
    take, named_houses = _read_take(deal, move, required=action == "capture")
    if action == "capture":
        return _read_capture(deal, seat, card, take, named_houses)
    return _read_build(deal, seat, card, move.get("value"), take, named_houses)


def no_key(rule: str, value: int, why: str = "") -> IllegalMove:
    """Return the refusal of a play that leaves its player without the key ``rule`` asks for.

    ``why`` (table mode) says how the cards seen show it: ", and ..." is appended.
    """
    card = a_card_of(value)
    if rule == "H5":
        message = f"to build a house of {value} you must keep {card} in hand"
    elif rule == "T2":
        message = f"you own the house of {value} and must keep {card} in hand"
    elif rule == "H8":
        message = f"adding to an opponent's house of {value} needs {card} left in hand"
    else:
        message = f"to raise the house to {value} you must hold {card}"
    return IllegalMove(message + why, rule=rule, code="no_key")


def _read_bid(seat: int, action: str, move: Mapping[str, Any], hand: int) -> Checked:
    if action == "redeal":
        if hand & HIGH:
            raise IllegalMove(
                "a redeal is only for a bidder with no card above 8; bid instead",
                rule="B2",
                code="redeal_with_high_card",
            )
        return (seat, "redeal", -1, 0, 0, (), (), 0, 0, "")
    value = bid_value(action, move)
    if not hand & RANK_MASK[value]:
        raise IllegalMove(
            f"you can bid {value} only holding a card of {value}",
            rule="B1" if hand & HIGH else "B2",
            code="bid_without_card",
        )
    return (seat, "bid", -1, value, 0, (), (), 0, 0, "")


def bid_value(action: str, move: Mapping[str, Any]) -> int:
    """Return the value a bid names, 9-13 (B1); refuse a card play before the bid."""
    if action != "bid":
        raise IllegalMove(
            "the bidder bids first (B1) and plays after the floor is turned (B3)",
            rule="B1",
            code="wrong_phase",
        )
    value = move.get("value")
    if type(value) is not int:
        raise MalformedMove(f"a bid value is a number 9-13, not {value!r}", code="bad_value")
    if not 9 <= value <= 13:
        raise IllegalMove(f"a bid is a house value 9-13, not {value}", rule="B1", code="bad_bid")
    return value


def _read_take(
    deal: Visible, move: Mapping[str, Any], *, required: bool
) -> tuple[int, tuple[int, ...]]:
    """Return the loose cards (bitmask) and the house values a move's ``take`` lists."""
    if "take" not in move:
        if required:
            raise MalformedMove("a capture lists what it takes in take", code="bad_take")
        return 0, ()
    items = move["take"]
    if not isinstance(items, list | tuple):
        raise MalformedMove("take is a list of card codes and houses like H9", code="bad_take")
    take = 0
    named: list[int] = []
    loose = deal.loose
    for item in items:
        card = CARD_BY_CODE.get(item) if isinstance(item, str) else None
        if card is not None:
            bit = BIT[card]
            if take & bit:
                raise MalformedMove(f"take lists {item} twice", code="bad_take")
            if not loose & bit:
                raise MalformedMove(f"{item} is not loose on the floor", code="not_on_floor")
            take |= bit
            continue
        value = HOUSE_CODES.get(item) if isinstance(item, str) else None
        if value is None:
            raise MalformedMove(f"unknown floor item {item!r} in take", code="bad_take")
        if value in named:
            raise MalformedMove(f"take lists {item} twice", code="bad_take")
        if deal.house(value) is None:
            raise MalformedMove(f"there is no house {item} on the floor", code="not_on_floor")
        named.append(value)
    return take, tuple(sorted(named)) if named else ()


def _off_bid(deal: Visible, what: str) -> IllegalMove:
    return IllegalMove(
        f"the opening play must use the bid value {deal.bid}: {what}",
        rule="B4",
        code="opening_off_bid",
    )


def _read_throw(deal: Visible, seat: int, card: int) -> Checked:
    v = VALUE[card]
    if deal.phase == OPENING and v != deal.bid:
        raise _off_bid(deal, f"you cannot throw {a_card_of(v)}")
    if v >= 9 and deal.houses and deal.house(v) is not None:  # houses are worth 9-13
        raise IllegalMove(
            f"{CODE[card]} must capture or join the house of {v}", rule="H4", code="must_capture"
        )
    if deal.sums >> v & 1:
        raise IllegalMove(
            f"{CODE[card]} can capture, so it may not be thrown loose",
            rule="T1",
            code="must_capture",
        )
    return (seat, "throw", card, 0, 0, (), (), 0, 0, "")


def _read_capture(
    deal: Visible, seat: int, card: int, take: int, named: tuple[int, ...]
) -> Checked:
    v = VALUE[card]
    if deal.phase == OPENING and v != deal.bid:
        raise _off_bid(deal, f"you cannot capture with {a_card_of(v)}")
    for value in named:
        if value != v:
            raise IllegalMove(
                f"{a_card_of(v)} captures only a house of {v}, not H{value}",
                rule="C1",
                code="capture_wrong_house",
            )
    if not named and v >= 9 and deal.houses and deal.house(v) is not None:
        raise IllegalMove(
            f"a capture with {CODE[card]} must take the house of {v}",
            rule="C2",
            code="capture_not_maximal",
        )
    if not take and not named:
        rule = "C2" if deal.sums >> v & 1 else "T1"
        raise IllegalMove(
            f"a capture with {CODE[card]} must take something", rule=rule, code="capture_nothing"
        )
    if take and (
        VALUE[take.bit_length() - 1] != v if take & (take - 1) == 0 else split(take, v) is None
    ):
        raise IllegalMove(
            f"the loose cards taken do not split into sets of {v}",
            rule="C1",
            code="capture_not_sets",
        )
    sums = subset_sums(deal.loose & ~take)
    if sums >> v & 1:
        raise IllegalMove(
            f"the capture leaves cards that sum to {v}: a capture takes all it can",
            rule="C2",
            code="capture_not_maximal",
        )
    return (seat, "capture", card, 0, take, named, (), sums, 0, "")


def _read_build(
    deal: Visible, seat: int, card: int, value: Any, take: int, named: tuple[int, ...]
) -> Checked:
    if type(value) is not int:
        raise MalformedMove(f"a build names a house value 9-13, not {value!r}", code="bad_value")
    if not 9 <= value <= 13:
        if value > 13 and named:
            raise IllegalMove(
                f"a house cannot be raised above 13, not to {value}", rule="H7", code="bad_break"
            )
        raise IllegalMove(f"a house has a value 9-13, not {value}", rule="H1", code="bad_value")
    v = VALUE[card]
    if deal.phase == OPENING and value != deal.bid:
        raise _off_bid(deal, f"you cannot build a house of {value}")
    houses = deal.houses
    if value != v and v >= 9 and houses and deal.house(v) is not None:
        raise IllegalMove(
            f"{CODE[card]} must capture or join the house of {v}, not build {value}",
            rule="H4",
            code="must_join_house",
        )
    if value in named:  # the target house need not be named
        named = tuple(h for h in named if h != value)
    if named:
        return _read_break(deal, seat, card, value, take, named)
    if v > value:
        raise IllegalMove(
            f"{CODE[card]} is worth more than {value}", rule="H5", code="build_not_sets"
        )
    loose = deal.loose
    take |= loose & RANK_MASK[value]  # single loose cards of the value join (H4)
    sets = split(take | BIT[card], value)
    if sets is None:
        raise IllegalMove(
            f"{CODE[card]} and the cards taken do not split into sets of {value}",
            rule="H5",
            code="build_not_sets",
        )
    if deal.rules.auto_join_sets and has_subset_sum(loose & ~take, value):
        raise IllegalMove(
            f"loose cards summing to {value} must join the house (V4)",
            rule="V4",
            code="build_not_maximal",
        )
    target = deal.house(value) if houses else None
    if target is None:
        _check_new_house(deal, take, value)
        rule = "H5"  # the builder of a new house keeps a card of its value
    else:
        rule = _key_rule(seat, target.owners)
    return (seat, "build", card, value, take, (), sets, 0, value if rule else 0, rule)


def _check_new_house(deal: Visible, take: int, value: int) -> None:
    """Refuse a new house of one card (H5) or one beyond the V5 limit."""
    if not take:
        raise IllegalMove("a new house needs at least two cards", rule="H5", code="house_too_small")
    limit = deal.rules.max_houses
    if limit is not None and len(deal.houses) >= limit:
        raise IllegalMove(
            f"at most {limit} houses may lie on the floor", rule="V5", code="too_many_houses"
        )


def _key_rule(seat: int, owners: int) -> str:
    """Return the rule by which a build into a house of these ``owners`` (a seat bitmask)
    needs a key left in hand: T2 for the player's own, H8 for an opponent's; "" for a house
    the partner owns and the player does not, where adding is free (H8).
    """
    if owners >> seat & 1:
        return "T2"
    if owners >> (seat + 2) % 4 & 1:
        return ""
    return "H8"


def _read_break(
    deal: Visible, seat: int, card: int, value: int, take: int, named: tuple[int, ...]
) -> Checked:
    if len(named) > 1:
        raise IllegalMove("only one house can be broken at a time", rule="H7", code="bad_break")
    house = deal.house(named[0])
    assert house is not None  # _read_take checked it is on the floor
    v = VALUE[card]
    if deal.phase == OPENING:
        raise IllegalMove("the opening play cannot break a house", rule="B4", code="bad_break")
    if house.cemented:
        raise IllegalMove(
            f"the house of {house.value} is cemented and cannot be broken",
            rule="H7",
            code="break_cemented",
        )
    if house.owned_by(seat):
        raise IllegalMove(
            f"you own the house of {house.value}: add to it instead of breaking it",
            rule="H7",
            code="break_own_house",
        )
    if house.value + v != value:
        raise IllegalMove(
            f"{CODE[card]} raises the house of {house.value} to {house.value + v}, not {value}",
            rule="H7",
            code="bad_break",
        )
    joined, take = _joined_on_break(deal, value, take)
    sets = (house.cards | BIT[card], *joined)
    return (seat, "build", card, value, take, named, sets, 0, value, "H7")


def _joined_on_break(deal: Visible, value: int, take: int) -> tuple[tuple[int, ...], int]:
    """Return the sets of loose cards that join a house raised to ``value``, and their cards.

    By default only the single loose cards of the new value join (H4, H7); under V4 the loose
    sets of that value must join as well, all of them as far as they are disjoint.
    """
    loose = deal.loose
    singles = loose & RANK_MASK[value]
    take |= singles
    joined = split(take, value) if take else ()
    if deal.rules.auto_join_sets:
        if joined is None:
            raise IllegalMove(
                f"the loose cards taken do not split into sets of {value}",
                rule="V4",
                code="build_not_sets",
            )
        if has_subset_sum(loose & ~take, value):
            raise IllegalMove(
                f"loose cards summing to {value} must join the house (V4)",
                rule="V4",
                code="build_not_maximal",
            )
    elif take != singles:
        raise IllegalMove(
            "breaking a house adds one card from hand and no floor card",
            rule="H7",
            code="bad_break",
        )
    assert joined is not None  # singles always split; V4 takes were checked above
    return joined, take
