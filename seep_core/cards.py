"""Cards, their capture values and points (docs/rules.md D1-D2), and the engine's bitmask sets.

A card is an int 0..51, ``rank_index * 4 + suit_index`` (ranks A..K, suits S H D C), so
ascending ints are card order. A set of cards is an int bitmask with bit ``card`` set.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

RANKS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: Final = ("S", "H", "D", "C")

#: capture value of each card (A=1 ... K=13)
VALUE: Final[tuple[int, ...]] = tuple(i // 4 + 1 for i in range(52))
#: code of each card, e.g. "10D"
CODE: Final[tuple[str, ...]] = tuple(RANKS[i // 4] + SUITS[i % 4] for i in range(52))
CARD_BY_CODE: Final[dict[str, int]] = {code: i for i, code in enumerate(CODE)}
BIT: Final[tuple[int, ...]] = tuple(1 << i for i in range(52))
FULL_DECK: Final = (1 << 52) - 1
#: RANK_MASK[v]: the four cards of capture value v (index 0 unused)
RANK_MASK: Final[tuple[int, ...]] = (0, *(0b1111 << (4 * (v - 1)) for v in range(1, 14)))


def _points(card: int) -> int:
    value, suit = VALUE[card], card % 4
    if suit == 0:  # spades score their capture value
        return value
    if value == 1:  # the other aces
        return 1
    if value == 10 and suit == 2:  # the ten of diamonds
        return 6
    return 0


#: D2 points of each card; they sum to 100
POINTS: Final[tuple[int, ...]] = tuple(_points(i) for i in range(52))
POINT_CARDS: Final = sum(BIT[i] for i in range(52) if POINTS[i])


def bits(mask: int) -> list[int]:
    """Return the cards of a bitmask in card order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_points(mask: int) -> int:
    """Return the D2 points of the cards in a bitmask."""
    total = 0
    mask &= POINT_CARDS
    while mask:
        low = mask & -mask
        total += POINTS[low.bit_length() - 1]
        mask ^= low
    return total


def mask_value(mask: int) -> int:
    """Return the sum of the capture values of the cards in a bitmask."""
    total = 0
    while mask:
        low = mask & -mask
        total += VALUE[low.bit_length() - 1]
        mask ^= low
    return total


def codes(mask: int) -> list[str]:
    """Return the codes of the cards in a bitmask, in card order."""
    out = []  # a plain loop, not bits(): legal_moves calls this for every take it lists
    while mask:
        low = mask & -mask
        out.append(CODE[low.bit_length() - 1])
        mask ^= low
    return out


#: the codes of each card set ``take_codes`` has listed, by bitmask (a memo, bounded)
TAKE_CODES: dict[int, tuple[str, ...]] = {}
_TAKE_CODES_LIMIT = 1 << 16


def take_codes(mask: int) -> tuple[str, ...]:
    """Return the codes of the cards in a bitmask, in card order, memoized in ``TAKE_CODES``.

    ``legal_moves`` lists the same takes over and over: it reads ``TAKE_CODES`` first and
    calls this only for a take not met yet, which spares it a call per move listed.
    """
    found = TAKE_CODES.get(mask)
    if found is None:
        if len(TAKE_CODES) >= _TAKE_CODES_LIMIT:
            TAKE_CODES.clear()
        found = TAKE_CODES[mask] = tuple(codes(mask))
    return found


class Card(int):
    """One card as a value type: ``Card.parse("10D").code() == "10D"``.

    >>> Card.parse("QS").value, Card.parse("QS").points
    (12, 12)
    >>> Card.parse("10D")
    Card.parse('10D')
    """

    __slots__ = ()

    @classmethod
    def parse(cls, code: str) -> Card:
        """Return the card with this code; raises ValueError on an unknown code."""
        index = CARD_BY_CODE.get(code) if isinstance(code, str) else None
        if index is None:
            raise ValueError(
                f"unknown card code {code!r}: rank A 2-10 J Q K then suit S H D C, like '10D'"
            )
        return cls(index)

    def code(self) -> str:
        """Return the card's code, e.g. ``"10D"``."""
        return CODE[self]

    @property
    def value(self) -> int:
        """The capture value: A=1, 2-10 face value, J=11, Q=12, K=13."""
        return VALUE[self]

    @property
    def points(self) -> int:
        """The D2 points the card scores."""
        return POINTS[self]

    @property
    def suit(self) -> str:
        """The suit letter: S, H, D or C."""
        return SUITS[self % 4]

    def __str__(self) -> str:
        return CODE[self]

    def __repr__(self) -> str:
        return f"Card.parse({CODE[self]!r})"


def points(cards: Iterable[str | Card]) -> int:
    """Return the D2 points of the given card codes (each card counted once per mention).

    >>> points(["KS", "AH", "10D", "7H"])
    20
    >>> points(Card(i) for i in range(52))
    100
    """
    total = 0
    for card in cards:
        index = card if isinstance(card, Card) else CARD_BY_CODE.get(card)
        if index is None:
            raise ValueError(f"unknown card code {card!r}")
        total += POINTS[index]
    return total
