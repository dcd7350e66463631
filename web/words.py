"""What the pages call things: cards, seats, bracket parts and fixtures, bazzi reasons, in words.

The one place where a code of the engine or the formats ("seat 0", "L2-1", "third_place")
becomes what a person at the club reads; templates use it through the ``words`` filters
(``web/templatetags/words.py``), never a code of their own.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

#: a card code's rank and suit (seep_core.cards), as a card is named aloud: "Ace of spades"
RANK_NAMES = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}

#: scripts a screen reader needs told apart from English, by Unicode block: (first, last,
#: the language the page marks a name in, its direction); a name in one of them is most
#: likely in that language at a club in South Asia (Devanagari read as Hindi)
SCRIPTS = (
    (0x0900, 0x097F, "hi", "ltr"),  # Devanagari
    (0x0980, 0x09FF, "bn", "ltr"),  # Bengali
    (0x0A00, 0x0A7F, "pa", "ltr"),  # Gurmukhi
    (0x0600, 0x06FF, "ur", "rtl"),  # Arabic script
)

#: the seats by number (S1: play passes to the right, anticlockwise), as a bridge table
#: names them: partners face each other, team 0 North and South, team 1 West and East
SEATS = ("North", "West", "South", "East")

#: a bracket's parts (competition.formats.elimination.Part), as headings
PARTS = {
    "main": "main bracket",
    "third_place": "third-place match",
    "winners": "winners' bracket",
    "losers": "losers' bracket",
    "final": "grand final",
}

#: why a bazzi was won (scoring.models.DealResult.Reason)
BAZZI_REASONS = {
    "lead": "running lead reached",
    "minimum": "the other team under the minimum",
}

#: the prefix of a bracket fixture's key: which part's rounds it counts in
_KEY_ROUNDS = {"R": "round", "W": "winners' round", "L": "losers' round"}
_KEY = re.compile(r"([RWL])(\d+)-(\d+)")
_SPECIAL = {"3P": "the third-place match", "GF1": "the grand final", "GF2": "the grand final reset"}
_SOURCE = re.compile(r"(winner|loser) of (\S+)")


def card(code: str) -> str:
    """Return a card code in words, the one name every page gives a card for a screen reader.

    >>> [card(c) for c in ("AS", "10D", "JH", "QC", "KS")]
    ['Ace of spades', '10 of diamonds', 'Jack of hearts', 'Queen of clubs', 'King of spades']
    """
    rank, suit = code[:-1], code[-1:]
    return f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES.get(suit, suit)}"


def script_language(text: str) -> tuple[str, str] | None:
    """Return the language and direction a name is marked with, told by its script: the
    script of most of its letters, or None when most are in none of ``SCRIPTS`` (Latin).

    >>> script_language("अनिल"), script_language("Anil"), script_language("عمران")
    (('hi', 'ltr'), None, ('ur', 'rtl'))
    """
    counts: dict[tuple[str, str] | None, int] = {}
    for ch in text:
        if not ch.isalpha():
            continue
        point = ord(ch)
        found = next(((lang, d) for lo, hi, lang, d in SCRIPTS if lo <= point <= hi), None)
        counts[found] = counts.get(found, 0) + 1
    if not counts:
        return None
    top = max(counts.values())
    # a tie goes to no mark: the page's own language (English) stays
    winners = [k for k, n in counts.items() if n == top]
    return winners[0] if len(winners) == 1 else None


def seat(number: int) -> str:
    """Return a seat's name: ``seat(0) == "North"``.

    >>> [seat(n) for n in range(4)]
    ['North', 'West', 'South', 'East']
    """
    return SEATS[number] if 0 <= number < len(SEATS) else f"seat {number + 1}"


def part(code: str | None) -> str:
    """Return a bracket part's name: ``part("third_place") == "third-place match"``."""
    return PARTS.get(code or "main", (code or "").replace("_", " "))


def fixture(key: str, names: Mapping[str, str] | None = None) -> str:
    """Return a bracket fixture in words, by the name the page gives it if ``names`` has it.

    >>> fixture("L2-1")
    "losers' round 2, match 1"
    >>> fixture("R2-1", {"R2-1": "semi-final 1"})
    'semi-final 1'
    """
    if names and key in names:
        return names[key]
    if key in _SPECIAL:
        return _SPECIAL[key]
    found = _KEY.fullmatch(key)
    if found is None:
        return key
    kind, number, index = found.groups()
    return f"{_KEY_ROUNDS[kind]} {number}, match {index}"


def fixture_names(rounds: list[tuple[str, list[str]]]) -> dict[str, str]:
    """Return each fixture's name from its round's (name, fixture keys): "the final",
    "semi-final 2", "losers' round 2, match 1".

    >>> fixture_names([("semi-finals", ["R2-1", "R2-2"]), ("final", ["R3-1"])])
    {'R2-1': 'semi-final 1', 'R2-2': 'semi-final 2', 'R3-1': 'the final'}
    """
    out = {}
    for name, keys in rounds:
        for i, key in enumerate(keys, start=1):
            if len(keys) == 1:
                out[key] = name if name.startswith("the ") else f"the {name}"
            elif name.endswith("-finals"):
                out[key] = f"{name.removesuffix('s')} {i}"
            else:
                out[key] = f"{name}, match {i}"
    return out


def source(text: str, names: Mapping[str, str] | None = None) -> str:
    """Return where a bracket slot's team comes from in words ("winner of the final").

    >>> source("loser of W1-2")
    "loser of winners' round 1, match 2"
    """
    found = _SOURCE.fullmatch(text)
    if found is None:
        return text
    return f"{found.group(1)} of {fixture(found.group(2), names)}"


def bazzi_reason(code: str | None) -> str:
    """Return why a bazzi was won, in words."""
    return BAZZI_REASONS.get(code or "", code or "")
