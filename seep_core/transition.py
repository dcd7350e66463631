"""The position after a validated move (docs/rules.md C3, H3-H8, S4, W, E): nothing is checked
here, ``validation.read_move`` has done that.
"""

from __future__ import annotations

from operator import attrgetter

from .cards import BIT
from .combos import SUMS_LIMIT, subset_sums
from .rules import Rules
from .state import OPENING, OVER, PLAY, REDEALT, Deal, House
from .validation import Checked

_new_deal = _new_house = tuple.__new__  # skips NamedTuple's Python-level __new__
_by_value = attrgetter("value")  # a sort key without a Python-level call per house


def after(deal: Deal, checked: Checked) -> Deal:
    """Return the position after a validated move."""
    # unpacking the tuples once is cheaper than reading a dozen fields by name (hot path)
    seat, action, card, value, take, named, sets, sums_left, _, _ = checked
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
        sweeps = _with_sweep(sweeps, team, rules, opening=opening, last=to_play is None)
    phase = PLAY
    if to_play is None:
        phase = OVER
        if last_capture is not None and (loose or houses):
            piles = _leftovers_to(piles, last_capture, loose, houses)
            loose, houses, sums = 0, (), 1
    # tuple.__new__ skips NamedTuple's Python-level __new__: this is the hot path of replay
    return _new_deal(Deal, (
        rules, dealer, bid, phase, to_play, plays + 1, hands, stock, loose, houses, piles,
        sweeps, last_capture, sums,
    ))  # fmt: skip


def _with_sweep(
    sweeps: tuple[tuple[int, ...], tuple[int, ...]],
    team: int,
    rules: Rules,
    *,
    opening: bool,
    last: bool,
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Return the sweeps with one more for ``team``, at its W1-W2 value (V1); one worth
    nothing is not recorded.
    """
    worth = rules.last_sweep if last else rules.first_sweep if opening else rules.sweep
    if not worth:
        return sweeps
    if team == 0:
        return (sweeps[0] + (worth,), sweeps[1])
    return (sweeps[0], sweeps[1] + (worth,))


def _leftovers_to(
    piles: tuple[int, int], team: int, loose: int, houses: tuple[House, ...]
) -> tuple[int, int]:
    """Return the piles once the cards left on the floor go to the last capturer (E1)."""
    leftovers = loose
    for h in houses:
        leftovers |= h.cards
    return (piles[0] | leftovers, piles[1]) if team == 0 else (piles[0], piles[1] | leftovers)


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
