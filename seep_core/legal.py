"""Generating the legal moves of a position (docs/rules.md B, T, C, H, V).

``legal_moves`` lists every move ``validation.read_move`` accepts, each once, in canonical form;
the property tests hold the two to agree exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .cards import CODE, RANK_MASK, TAKE_CODES, codes, take_codes
from .combos import disjoint_unions, has_subset_sum, maximal_unions, subsets_by_sum
from .rules import Rules
from .state import BID, OPENING, PLAY, Deal, House
from .validation import HOUSE_NAME, Visible

#: the values a bid may name (B1), which are the values a house may have
BID_VALUES = (9, 10, 11, 12, 13)
#: bit V set for every house value V (9-13)
_HOUSE_VALUES = sum(1 << v for v in BID_VALUES)

Moves = list[dict[str, Any]]
_NO_SUBSETS: Sequence[Sequence[int]] = ((),) * 14  # no loose cards: no subset of any sum


def legal_moves(deal: Deal) -> Moves:
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
            {"seat": seat, "action": "bid", "value": v} for v in BID_VALUES if hand & RANK_MASK[v]
        ]
        return bids or [{"seat": seat, "action": "redeal"}]
    if phase not in (PLAY, OPENING):
        return []
    return card_plays(deal, seat, hand)


def card_plays(deal: Visible, seat: int, hand: int, *, keys: bool = True) -> Moves:
    """Return the legal card plays (phases opening and play) in the order of ``legal_moves``.

    ``hand`` holds the cards the seat may play. ``keys=False`` says that no card will be
    left in the hand after the play (table mode, where ``hand`` is every card not yet seen,
    at a seat's last card), so no play that needs a key is legal.

    A card's options depend on its value only: the key checks ask for *another* card of the
    house's value, which is the same question for every card of one value. So they are worked
    out once per value held and repeated for the other cards of that value.

    ``deal.sums`` answers "can loose cards sum to s?" without listing subsets, which settles
    throws and most build targets; the subsets themselves are listed only when a move needs
    them.
    """
    # the deal's fields are read once here: the helpers get what they need as arguments,
    # which is cheaper than reading a field again (legal_moves is the hot path of random play)
    opening = deal.phase == OPENING
    bid = deal.bid or 0
    loose, sums, houses, rules = deal.loose, deal.sums, deal.houses, deal.rules
    # the loose cards' subsets by sum, listed when there are loose cards: nearly every card
    # then captures or builds with some of them
    by_sum = subsets_by_sum(loose) if loose else _NO_SUBSETS
    # the houses as the seat sees them: the values on the floor and free to add to (bitmasks
    # of V), the ordinary houses it does not own (it may break them, H7)
    partner = (seat + 2) % 4
    on_floor = free = 0
    breakable = []
    for h in houses:
        on_floor |= 1 << h.value
        owners = h.owners
        if owners >> partner & 1 and not owners >> seat & 1:
            free |= 1 << h.value  # adding to the partner's house needs no key (H8)
        if len(h.sets) == 1 and not owners >> seat & 1:
            breakable.append(h)
    # (value, the cards of that value) for each value held, by value; the values held at
    # least once and at least twice (bitmasks of V)
    held = []
    one = two = 0
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
    if not keys:
        one = two = 0
    # the house values a card may go to (H5/H8: a key stays in hand, unless adding is free)
    values = 1 << bid if opening else _HOUSE_VALUES  # B4: the opening builds the bid value
    limit = rules.max_houses
    if limit is not None and len(houses) >= limit:
        values &= on_floor  # V5: no new house
    keyed = values & (free | two)  # whichever card of the value is played, a key stays
    keyed_once = values & one  # a key stays if the card played has another value
    # per house value: the unions of disjoint loose sets that may join it with the card
    extras: list[list[int] | None] = [None] * 14
    out: Moves = []
    for v, cards in held:
        low = cards & -cards
        code = CODE[low.bit_length() - 1]
        first = len(out)
        own = on_floor >> v & 1  # a house of the card's value is on the floor
        # the helpers are called only where there is something to list: a call per card
        # held costs more than the checks
        if opening and v != bid:
            pass  # the opening throws or captures only the bid value (B4)
        elif sums >> v & 1 or own:
            _captures(out, seat, code, v, own, by_sum[v])
        else:
            out.append({"seat": seat, "action": "throw", "card": code})  # T1
        # builds: the target's value minus v must be a sum of loose cards (the card alone
        # when it is worth the target)
        targets = (keyed | keyed_once & ~(1 << v)) & sums << v
        if own:
            targets &= 1 << v  # H4: a card of a house's value goes to that house
        if targets:
            _builds(out, seat, code, v, targets, on_floor, extras, loose, by_sum, rules)
        if breakable and not own and not opening:
            _breaks(out, seat, code, v, breakable, one, loose, by_sum, rules)
        if cards != low:
            _same_for_the_other_cards(out, first, cards ^ low)
    return out


def _captures(out: Moves, seat: int, code: str, v: int, own: int, subsets: Sequence[int]) -> None:
    """Add the complete captures (C1, C2) of a card of value ``v``, given the ``subsets`` of
    loose cards that sum to ``v``; ``own``: the house of ``v`` is on the floor.
    """
    if not subsets:  # the house alone
        out.append({"seat": seat, "action": "capture", "card": code, "take": [HOUSE_NAME[v]]})
        return
    if len(subsets) > 1:
        subsets = sorted(maximal_unions(subsets))
    for union in subsets:
        items = [*(TAKE_CODES.get(union) or take_codes(union))]  # (see take_codes)
        if own:
            items.append(HOUSE_NAME[v])
        out.append({"seat": seat, "action": "capture", "card": code, "take": items})


def _builds(
    out: Moves,
    seat: int,
    code: str,
    v: int,
    targets: int,
    on_floor: int,
    extras: list[list[int] | None],
    loose: int,
    by_sum: Sequence[Sequence[int]],
    rules: Rules,
) -> None:
    """Add the builds of a card of value ``v`` into the house values of ``targets`` (H5, H8).

    ``extras[V]`` caches, across the cards held, the loose sets that may join a house of V;
    ``by_sum`` lists the subsets of the ``loose`` cards by sum.
    """
    auto_sets = rules.auto_join_sets
    while targets:
        bit = targets & -targets
        targets ^= bit
        value = bit.bit_length() - 1
        unions = extras[value]
        if unions is None:
            unions = extras[value] = _joining_sets(loose, by_sum[value], value)
        # each take once: the unions and the subsets are distinct, combining them is not
        takes: Iterable[int]
        if v == value:
            takes = unions
        else:
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
            items = [*(TAKE_CODES.get(take) or take_codes(take))]  # (see take_codes)
            out.append(
                {"seat": seat, "action": "build", "card": code, "value": value, "take": items}
            )


def _joining_sets(loose: int, sets: Sequence[int], value: int) -> list[int]:
    """Return the unions of disjoint loose ``sets`` of ``value`` that may join a house of it:
    the single loose cards of the value always do (H4), the other sets as the player chooses.
    """
    if not sets:
        return [0]
    singles = loose & RANK_MASK[value]
    return [u for u in disjoint_unions(sets) if u & singles == singles]


def _breaks(
    out: Moves,
    seat: int,
    code: str,
    v: int,
    breakable: list[House],
    one: int,
    loose: int,
    by_sum: Sequence[Sequence[int]],
    rules: Rules,
) -> None:
    """Add the breaks (H7) of ordinary houses the seat does not own by a card of value ``v``."""
    for house in breakable:
        value = house.value + v
        if value > 13 or not one >> value & 1:
            continue  # at most 13, and the breaker holds a card of the new value
        takes: Iterable[int]
        if not rules.auto_join_sets:
            takes = (loose & RANK_MASK[value],)
        elif by_sum[value]:
            takes = sorted(maximal_unions(by_sum[value]))
        else:
            takes = (0,)
        for take in takes:
            out.append({
                "seat": seat, "action": "build", "card": code, "value": value,
                "take": [*codes(take), HOUSE_NAME[house.value]],
            })  # fmt: skip


def _same_for_the_other_cards(out: Moves, first: int, others: int) -> None:
    """Repeat the options listed from ``out[first]`` on for each card of ``others``."""
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
            out.append(move)
