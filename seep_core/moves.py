"""Legal moves and applying a move (docs/rules.md B, T, C, H, W, E).

``legal_moves`` generates; ``apply`` checks a given move rule by rule so that a refusal names the
rule it breaks. The two agree exactly (the property tests hold them to it): a move is accepted
precisely when its canonical form is listed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from operator import attrgetter
from typing import Any

from .cards import BIT, CARD_BY_CODE, CODE, RANK_MASK, VALUE, codes
from .combos import (
    SUMS_LIMIT,
    disjoint_unions,
    has_subset_sum,
    maximal_unions,
    split,
    subset_sums,
    subsets_by_sum,
)
from .errors import IllegalMove, MalformedMove
from .state import BID, HOUSE_CODES, OPENING, OVER, PLAY, REDEALT, Deal, House

#: the fields each action takes (beyond seat and action); "take" is optional for build
_FIELDS: dict[str, frozenset[str]] = {
    "bid": frozenset({"seat", "action", "value"}),
    "redeal": frozenset({"seat", "action"}),
    "throw": frozenset({"seat", "action", "card"}),
    "capture": frozenset({"seat", "action", "card", "take"}),
    "build": frozenset({"seat", "action", "card", "value", "take"}),
}
_HIGH = RANK_MASK[9] | RANK_MASK[10] | RANK_MASK[11] | RANK_MASK[12] | RANK_MASK[13]
_HOUSE_NAME = {v: f"H{v}" for v in range(9, 14)}
_new_deal = _new_house = tuple.__new__  # skips NamedTuple's Python-level __new__
_by_value = attrgetter("value")  # a sort key without a Python-level call per house
_VALUE_NAME = {1: "an ace", 11: "a jack", 12: "a queen", 13: "a king"}


def _a(value: int) -> str:
    """Name a card of this value for a sentence: 'an ace', 'a 9', 'a king'."""
    return _VALUE_NAME.get(value, f"an {value}" if value == 8 else f"a {value}")


#: A validated move in canonical form (what ``legal_moves`` would list), as a plain tuple
#: ``(seat, action, card, value, take, houses, sets, sums)``:
#:
#: - ``card``: the card played, -1 for bid and redeal;
#: - ``value``: the bid or the house value, 0 where none;
#: - ``take``: the loose cards taken or put into the house (bitmask);
#: - ``houses``: the values of the houses taken (capture) or broken (build);
#: - ``sets``: build: the new sets the card and the take make (H2);
#: - ``sums``: capture: the subset sums of the loose cards left (``Deal.sums`` after it).
#:
#: Every move makes one, and a plain tuple is much cheaper to build and unpack than a
#: NamedTuple (a tuple subclass): this is the hot path of replay.
Play = tuple[int, str, int, int, int, tuple[int, ...], tuple[int, ...], int]


def _move_dict(play: Play) -> dict[str, Any]:
    """Return a validated move in its JSON form, ``take`` in card order with houses last."""
    seat, action, card, value, take, houses = play[:6]
    out: dict[str, Any] = {"seat": seat, "action": action}
    if action in ("throw", "capture", "build"):
        out["card"] = CODE[card]
    if action in ("bid", "build"):
        out["value"] = value
    if action in ("capture", "build"):
        out["take"] = codes(take) + [_HOUSE_NAME[v] for v in houses]
    return out


# --- generating ----------------------------------------------------------------------------


def legal_moves(deal: Deal) -> list[dict[str, Any]]:
    """Return every legal move of the player to play, each once (empty when the deal is over).

    The order is fixed: by card, then throw, capture, build and break, then value and take.
    """
    seat = deal.to_play
    if seat is None:
        return []
    phase = deal.phase
    hand = deal.hands[seat]
    if phase == BID:
        bids = [
            {"seat": seat, "action": "bid", "value": v} for v in _BID_VALUES if hand & RANK_MASK[v]
        ]
        return bids or [{"seat": seat, "action": "redeal"}]
    if phase not in (PLAY, OPENING):
        return []
    return _card_plays(deal, seat, hand)


_BID_VALUES = (9, 10, 11, 12, 13)
#: bit V set for every house value V (9-13)
_HOUSE_VALUES = sum(1 << v for v in _BID_VALUES)


def _card_plays(deal: Deal, seat: int, hand: int) -> list[dict[str, Any]]:
    """Return the legal card plays (phases opening and play) in the order of ``legal_moves``.

    A card's options depend on its value only: the key checks ask for *another* card of the
    house's value, which is the same question for every card of one value. So they are worked
    out once per value held and repeated for the other cards of that value.

    ``deal.sums`` answers "can loose cards sum to s?" without listing subsets, which settles
    throws and most build targets; the subsets themselves are listed only when a move needs
    them.
    """
    rules = deal.rules
    opening = deal.phase == OPENING
    bid = deal.bid or 0
    loose = deal.loose
    sums = deal.sums
    floor_houses = deal.houses
    by_sum: Sequence[Sequence[int]] | None = None  # subsets_by_sum(loose), once needed
    partner = (seat + 2) % 4
    free = 0  # bit V: adding to the house of V is free (the partner owns it, the player not)
    on_floor = 0  # bit V: a house of V is on the floor
    breakable = []  # ordinary houses the player does not own (H7)
    for h in floor_houses:
        on_floor |= 1 << h.value
        owners = h.owners
        if owners >> partner & 1 and not owners >> seat & 1:
            free |= 1 << h.value
        if len(h.sets) == 1 and not owners >> seat & 1:
            breakable.append(h)
    held = []  # (value, the cards of that value in hand), by value
    one = two = 0  # bit V: the hand holds at least one, two cards of value V
    mask = hand
    while mask:
        low = mask & -mask
        v = (low.bit_length() + 3) >> 2
        cards = hand & RANK_MASK[v]
        mask ^= cards
        held.append((v, cards))
        one |= 1 << v
        if cards & (cards - 1):
            two |= 1 << v
    # the house values a card may go to (H5/H8: a key stays in hand, unless adding is free)
    values = 1 << bid if opening else _HOUSE_VALUES  # B4: the opening builds the bid value
    if rules.max_houses is not None and len(floor_houses) >= rules.max_houses:
        values &= on_floor  # V5: no new house
    keyed = values & (free | two)  # whichever card of the value is played, a key stays
    keyed_once = values & one  # a key stays if the card played has another value
    auto_sets = rules.auto_join_sets
    # per value V: the unions of disjoint V-sets that may join a house of V with the card
    extras: list[list[int] | None] = [None] * 14
    out: list[dict[str, Any]] = []
    append = out.append
    for v, cards in held:
        low = cards & -cards
        code = CODE[low.bit_length() - 1]
        first = len(out)
        own = on_floor >> v & 1  # a house of the card's value is on the floor
        # throw and capture (the opening allows only cards of the bid value, B4)
        if not opening or v == bid:
            if not sums >> v & 1:  # no loose cards sum to v
                if not own:
                    append({"seat": seat, "action": "throw", "card": code})
                else:
                    append(
                        {"seat": seat, "action": "capture", "card": code, "take": [_HOUSE_NAME[v]]}
                    )
            else:
                if by_sum is None:
                    by_sum = subsets_by_sum(loose)
                subsets = by_sum[v]
                if len(subsets) > 1:
                    subsets = sorted(maximal_unions(subsets))
                for union in subsets:
                    items = codes(union)
                    if own:
                        items.append(_HOUSE_NAME[v])
                    append({"seat": seat, "action": "capture", "card": code, "take": items})
        # builds: adding to or creating a house with the card and loose sets; the target's
        # value minus v must be a sum of loose cards (the card alone when it is worth it)
        targets = (keyed | keyed_once & ~(1 << v)) & sums << v
        if own:
            targets &= 1 << v  # H4: a card of a house's value goes to that house
        while targets:
            bit = targets & -targets
            targets ^= bit
            value = bit.bit_length() - 1
            unions = extras[value]
            if unions is None:
                if sums >> value & 1:
                    if by_sum is None:
                        by_sum = subsets_by_sum(loose)
                    singles = loose & RANK_MASK[value]
                    unions = [u for u in disjoint_unions(by_sum[value]) if u & singles == singles]
                else:
                    unions = [0]
                extras[value] = unions
            # each take once: the unions and the subsets are distinct, combining them is not
            takes: Iterable[int]
            if v == value:
                takes = unions
            else:
                if by_sum is None:
                    by_sum = subsets_by_sum(loose)
                firsts = by_sum[value - v]
                if len(unions) == 1 and unions[0] == 0:
                    takes = firsts
                else:
                    takes = {f | u for f in firsts for u in unions if not f & u}
            if auto_sets:
                takes = [t for t in takes if not has_subset_sum(loose & ~t, value)]
            new_house = not on_floor >> value & 1
            for take in sorted(takes):
                if not take and new_house:
                    continue  # a new house needs two cards
                append(
                    {
                        "seat": seat,
                        "action": "build",
                        "card": code,
                        "value": value,
                        "take": codes(take),
                    }
                )
        # breaking (raising) an ordinary house the player does not own (H7)
        if not own and not opening:
            for house in breakable:
                value = house.value + v
                if value > 13 or not one >> value & 1:
                    continue
                if not auto_sets:
                    takes = {loose & RANK_MASK[value]}
                elif sums >> value & 1:
                    if by_sum is None:
                        by_sum = subsets_by_sum(loose)
                    takes = maximal_unions(by_sum[value])
                else:
                    takes = {0}
                for take in sorted(takes):
                    append({
                        "seat": seat, "action": "build", "card": code, "value": value,
                        "take": [*codes(take), _HOUSE_NAME[house.value]],
                    })  # fmt: skip
        # the other cards of this value have the same options
        others = cards ^ low
        if others:
            options = out[first:]
            while others:
                low = others & -others
                others ^= low
                code = CODE[low.bit_length() - 1]
                for option in options:
                    move = option.copy()
                    move["card"] = code
                    if "take" in move:
                        move["take"] = move["take"][:]
                    append(move)
    return out


# --- applying ------------------------------------------------------------------------------


def apply(deal: Deal, move: Mapping[str, Any]) -> Deal:
    """Return the position after ``move``; ``deal`` is unchanged.

    Raises ``IllegalMove`` (with the rule id) for a move the rules forbid and ``MalformedMove``
    for one that cannot be read.
    """
    return _play(deal, read_move(deal, move))


def canonical_move(deal: Deal, move: Mapping[str, Any]) -> dict[str, Any]:
    """Return ``move`` as ``legal_moves`` lists it (take sorted, auto-joined cards listed).

    Raises exactly what ``apply`` raises for the same move.
    """
    play = read_move(deal, move)
    _play(deal, play)
    return _move_dict(play)


def replay(deal: Deal, moves: Any) -> Deal:
    """Return the position after applying ``moves`` in order (a fold of ``apply``)."""
    if not isinstance(moves, list | tuple):
        raise MalformedMove("moves to replay are a list of moves", code="bad_move")
    for move in moves:
        deal = _play(deal, read_move(deal, move))
    return deal


def read_move(deal: Deal, move: Mapping[str, Any]) -> Play:
    """Parse a move and check it against the rules; return it in canonical form."""
    if type(move) is not dict and not isinstance(move, Mapping):
        raise MalformedMove("a move is an object with seat and action", code="bad_move")
    action = move.get("action")
    fields = _FIELDS.get(action) if type(action) is str else None
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
    hand = deal.hands[seat]
    if phase == BID:
        return _read_bid(seat, str(action), move, hand)
    if action in ("bid", "redeal"):
        raise IllegalMove(
            f"the bid is made already: {action} is not a play", rule="B1", code="wrong_phase"
        )

    code = move.get("card")
    card = CARD_BY_CODE.get(code) if type(code) is str else None
    if card is None:
        raise MalformedMove(f"unknown card code {code!r}", code="unknown_card")
    if not hand & BIT[card]:
        raise MalformedMove(f"seat {seat} does not hold {code}", code="card_not_in_hand")
    if action == "throw":
        return _read_throw(deal, seat, card)
    take, named_houses = _read_take(deal, move, required=action == "capture")
    if action == "capture":
        return _read_capture(deal, seat, card, take, named_houses)
    return _read_build(deal, seat, card, move.get("value"), take, named_houses)


def _read_bid(seat: int, action: str, move: Mapping[str, Any], hand: int) -> Play:
    if action == "redeal":
        if hand & _HIGH:
            raise IllegalMove(
                "a redeal is only for a bidder with no card above 8; bid instead",
                rule="B2",
                code="redeal_with_high_card",
            )
        return (seat, "redeal", -1, 0, 0, (), (), 0)
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
    if not hand & RANK_MASK[value]:
        raise IllegalMove(
            f"you can bid {value} only holding a card of {value}",
            rule="B1" if hand & _HIGH else "B2",
            code="bid_without_card",
        )
    return (seat, "bid", -1, value, 0, (), (), 0)


def _read_take(
    deal: Deal, move: Mapping[str, Any], *, required: bool
) -> tuple[int, tuple[int, ...]]:
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


def _off_bid(deal: Deal, what: str) -> IllegalMove:
    return IllegalMove(
        f"the opening play must use the bid value {deal.bid}: {what}",
        rule="B4",
        code="opening_off_bid",
    )


def _read_throw(deal: Deal, seat: int, card: int) -> Play:
    v = VALUE[card]
    if deal.phase == OPENING and v != deal.bid:
        raise _off_bid(deal, f"you cannot throw {_a(v)}")
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
    return (seat, "throw", card, 0, 0, (), (), 0)


def _read_capture(deal: Deal, seat: int, card: int, take: int, named: tuple[int, ...]) -> Play:
    v = VALUE[card]
    if deal.phase == OPENING and v != deal.bid:
        raise _off_bid(deal, f"you cannot capture with {_a(v)}")
    for value in named:
        if value != v:
            raise IllegalMove(
                f"{_a(v)} captures only a house of {v}, not H{value}",
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
    return (seat, "capture", card, 0, take, named, (), sums)


def _read_build(
    deal: Deal, seat: int, card: int, value: Any, take: int, named: tuple[int, ...]
) -> Play:
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
    rest = deal.hands[seat] & ~BIT[card]
    if value in named:  # the target house need not be named
        named = tuple(h for h in named if h != value)
    if named:
        return _read_break(deal, seat, card, value, take, named, rest)
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
        if not take:
            raise IllegalMove(
                "a new house needs at least two cards", rule="H5", code="house_too_small"
            )
        limit = deal.rules.max_houses
        if limit is not None and len(houses) >= limit:
            raise IllegalMove(
                f"at most {limit} houses may lie on the floor", rule="V5", code="too_many_houses"
            )
        if not rest & RANK_MASK[value]:
            raise IllegalMove(
                f"to build a house of {value} you must keep {_a(value)} in hand",
                rule="H5",
                code="no_key",
            )
    elif not rest & RANK_MASK[value]:
        partner = (seat + 2) % 4
        if target.owned_by(seat):
            raise IllegalMove(
                f"you own the house of {value} and must keep {_a(value)} in hand",
                rule="T2",
                code="no_key",
            )
        if not target.owned_by(partner):
            raise IllegalMove(
                f"adding to an opponent's house of {value} needs {_a(value)} left in hand",
                rule="H8",
                code="no_key",
            )
    return (seat, "build", card, value, take, (), sets, 0)


def _read_break(
    deal: Deal,
    seat: int,
    card: int,
    value: int,
    take: int,
    named: tuple[int, ...],
    rest: int,
) -> Play:
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
    if not rest & RANK_MASK[value]:
        raise IllegalMove(
            f"to raise the house to {value} you must hold {_a(value)}",
            rule="H7",
            code="no_key",
        )
    assert joined is not None  # singles always split; V4 takes were checked above
    return (seat, "build", card, value, take, named, (house.cards | BIT[card], *joined), 0)


def _play(deal: Deal, play: Play) -> Deal:
    """Return the position after a validated play."""
    # unpacking the tuples once is cheaper than reading a dozen fields by name (hot path)
    seat, action, card, value, take, named, sets, sums_left = play
    if action == "bid":
        return deal._replace(phase=OPENING, bid=value)
    if action == "redeal":
        return deal._replace(phase=REDEALT, to_play=None)
    (rules, dealer, bid, phase, _, plays, hands, stock, loose, houses, piles, sweeps,
     last_capture, sums) = deal  # fmt: skip

    bit = BIT[card]
    h0, h1, h2, h3 = hands
    if seat == 0:
        h0 ^= bit
    elif seat == 1:
        h1 ^= bit
    elif seat == 2:
        h2 ^= bit
    else:
        h3 ^= bit
    hands = (h0, h1, h2, h3)
    swept = False
    team = seat & 1
    if action == "throw":
        loose |= bit
        v = (card >> 2) + 1
        sums = (sums | sums << v) & SUMS_LIMIT
    elif action == "capture":
        captured = take | bit
        if named:
            i = _index(houses, named[0])
            captured |= houses[i].cards
            houses = houses[:i] + houses[i + 1 :]
        loose &= ~take
        piles = (piles[0] | captured, piles[1]) if team == 0 else (piles[0], piles[1] | captured)
        last_capture = team
        swept = not loose and not houses
        sums = sums_left
    else:
        # T2 needs no check of its own here: a card that is an owner's last key has the value
        # of a house on the floor, so H4 sends it into that house (checked) or captures it.
        houses = _build(houses, seat, value, sets, named)
        loose &= ~take
        sums = subset_sums(loose)

    opening = phase == OPENING
    if opening and stock:
        hands = _deal_stock(hands, stock, (dealer + 1) % 4)
        stock = ()
    to_play: int | None = (seat + 1) & 3
    if not hands[to_play]:  # type: ignore[index]
        to_play = None
        for step in (2, 3, 4):
            nxt = (seat + step) & 3
            if hands[nxt]:
                to_play = nxt
                break

    if swept:
        if to_play is None:
            worth = rules.last_sweep
        elif opening:
            worth = rules.first_sweep
        else:
            worth = rules.sweep
        if worth:
            sweeps = (sweeps[0] + (worth,), sweeps[1]) if team == 0 else (
                sweeps[0], sweeps[1] + (worth,))  # fmt: skip
    phase = PLAY
    if to_play is None:
        phase = OVER
        if last_capture is not None and (loose or houses):
            leftovers = loose
            for h in houses:
                leftovers |= h.cards
            piles = (
                (piles[0] | leftovers, piles[1])
                if last_capture == 0
                else (piles[0], piles[1] | leftovers)
            )
            loose, houses, sums = 0, (), 1
    # tuple.__new__ skips NamedTuple's Python-level __new__: this is the hot path of replay
    return _new_deal(Deal, (
        rules, dealer, bid, phase, to_play, plays + 1, hands, stock, loose, houses, piles,
        sweeps, last_capture, sums,
    ))  # fmt: skip


def _index(houses: tuple[House, ...], value: int) -> int:
    for i, h in enumerate(houses):
        if h.value == value:
            return i
    raise LookupError(value)  # pragma: no cover - callers pass houses on the floor


def _build(
    floor: tuple[House, ...], seat: int, value: int, sets: tuple[int, ...], broken: tuple[int, ...]
) -> tuple[House, ...]:
    """Return the floor's houses after a validated build of ``sets`` into the house of ``value``.

    ``broken`` names the house a break raises (it leaves its old value), or is empty.
    """
    houses = list(floor)
    owners = 1 << seat
    if broken:
        houses.pop(_index(floor, broken[0]))
    for i, h in enumerate(houses):
        if h.value == value:
            partner = (seat + 2) % 4
            if not broken and h.owners >> partner & 1 and not h.owners >> seat & 1:
                owners = h.owners  # adding to a partner's house is free and gives no ownership
            else:
                owners |= h.owners
            houses[i] = _new_house(House, (value, h.sets + sets, owners))
            break
    else:
        houses.append(_new_house(House, (value, sets, owners)))
        houses.sort(key=_by_value)
    return tuple(houses)


#: for each card of the stock in dealing order, the seat it goes to, counted from the bidder
_DEALT_TO = tuple(offset for offset in (0, 1, 2, 3, 0, 1, 2, 3, 1, 2, 3) for _ in range(4))


def _deal_stock(
    dealt: tuple[int, int, int, int], stock: tuple[int, ...], bidder: int
) -> tuple[int, int, int, int]:
    """Deal the stock in packets of four going right from the bidder (S4)."""
    hands = [*dealt]
    # a position's stock may be shorter than a full deal's (a puzzle): it runs out first
    for c, offset in zip(stock, _DEALT_TO, strict=False):
        hands[(bidder + offset) % 4] |= BIT[c]
    return (hands[0], hands[1], hands[2], hands[3])
