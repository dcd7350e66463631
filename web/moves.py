"""The moves a page offers, in words: the engine's ``legal_moves`` grouped by the card played.

A page that records moves (the recorder's page for a table played with real cards, the seat
page of a digital match) never works out a move itself: it shows the moves the engine lists,
a card first, then what that card does (throw it, capture these, build or add to a house),
and posts back the chosen move's key. ``chosen`` finds the move again in the engine's list,
so a page can only send a move the engine offered; the append service checks it once more.

>>> legal = [
...     {"seat": 1, "action": "throw", "card": "4D"},
...     {"seat": 1, "action": "build", "card": "4D", "value": 9, "take": ["5C"]},
...     {"seat": 1, "action": "capture", "card": "9S", "take": ["4H", "5C"]},
... ]
>>> [(c.card, [m.label for m in c.choices]) for c in offered(legal)]
[('4D', ['Throw 4♦', 'Build a house of 9 with 5♣']), ('9S', ['Capture 4♥ and 5♣'])]
>>> chosen(legal, key(legal[2])) == legal[2]
True
>>> chosen(legal, '{"seat": 1, "action": "throw", "card": "KS"}') is None
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from . import words
from .pages import card_label

#: the most characters a posted key may have (a move's canonical JSON is far shorter)
MAX_KEY = 400


@dataclass(frozen=True)
class Choice:
    """One move the engine offers: its key (posted back), and what it does in words."""

    key: str
    label: str
    words: str
    move: Mapping[str, Any]


@dataclass(frozen=True)
class CardChoices:
    """A card that can be played, and every move that plays it, in the engine's order."""

    card: str
    label: str
    words: str
    choices: tuple[Choice, ...]


def key(move: Mapping[str, Any]) -> str:
    """Return a move's key: its JSON with sorted keys (a legal move is canonical already)."""
    return json.dumps(move, sort_keys=True, separators=(",", ":"))


def _items(take: Iterable[str], spoken: bool) -> list[str]:
    out = []
    for item in take:
        if item.startswith("H") and item[1:].isdigit():
            out.append(_("the house of %(value)s") % {"value": item[1:]})
        else:
            out.append(words.card(item) if spoken else card_label(item))
    return out


def _join(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return _("%(items)s and %(last)s") % {
        "items": pgettext("list separator", ", ").join(items[:-1]),
        "last": items[-1],
    }


def _houses(position: Mapping[str, Any] | None) -> set[int]:
    floor = (position or {}).get("floor") or {}
    return {int(h["value"]) for h in floor.get("houses", ())}


def describe(
    move: Mapping[str, Any], position: Mapping[str, Any] | None = None, *, spoken: bool = False
) -> str:
    """Return what ``move`` does, in words (``spoken``: cards named for a screen reader).

    ``position`` (a view of the deal before the move) tells a new house from one added to.

    >>> describe({"seat": 0, "action": "capture", "card": "9S", "take": ["4D", "H9"]})
    'Capture 4♦ and the house of 9'
    >>> describe({"seat": 0, "action": "build", "card": "2C", "value": 11, "take": ["H9"]})
    'Break the house of 9 into a house of 11'
    >>> floor = {"floor": {"loose": [], "houses": [{"value": 11, "sets": [], "owners": [1]}]}}
    >>> describe({"seat": 0, "action": "build", "card": "5C", "value": 11, "take": ["6D"]}, floor)
    'Add 5♣ and 6♦ to the house of 11'
    >>> describe({"seat": 0, "action": "throw", "card": "10D"}, spoken=True)
    'Throw 10 of diamonds'
    >>> [describe({"seat": 0, "action": a, "value": 11}) for a in ("bid", "redeal")]
    ['Bid 11', 'Ask for a new deal (no card above 8)']
    """
    action = move.get("action")
    card = str(move.get("card", ""))
    take = [str(t) for t in move.get("take", ())]
    if action == "throw":
        return _("Throw %(card)s") % {"card": words.card(card) if spoken else card_label(card)}
    if action == "capture":
        return _("Capture %(cards)s") % {"cards": _join(_items(take, spoken))}
    if action == "build":
        value = int(move["value"])
        broken = [t for t in take if t.startswith("H") and t[1:].isdigit()]
        loose = [t for t in take if t not in broken]
        if broken:
            return _("Break %(houses)s into a house of %(value)s") % {
                "houses": _join(_items(broken, spoken)),
                "value": value,
            }
        if value in _houses(position):
            return _("Add %(cards)s to the house of %(value)s") % {
                "cards": _join(_items([card, *loose], spoken)),
                "value": value,
            }
        if loose:
            return _("Build a house of %(value)s with %(cards)s") % {
                "value": value,
                "cards": _join(_items(loose, spoken)),
            }
        return _("Build a house of %(value)s") % {"value": value}
    if action == "bid":
        return _("Bid %(value)s") % {"value": move.get("value")}
    if action == "redeal":
        return _("Ask for a new deal (no card above 8)")
    return str(action)


def offered(
    legal: Iterable[Mapping[str, Any]], position: Mapping[str, Any] | None = None
) -> list[CardChoices]:
    """Return the card plays among ``legal`` grouped by card, in the engine's order."""
    cards: dict[str, list[Choice]] = {}
    for move in legal:
        if "card" not in move:
            continue
        choice = Choice(
            key=key(move),
            label=describe(move, position),
            words=describe(move, position, spoken=True),
            move=move,
        )
        cards.setdefault(str(move["card"]), []).append(choice)
    return [
        CardChoices(card=c, label=card_label(c), words=words.card(c), choices=tuple(ms))
        for c, ms in cards.items()
    ]


def chosen(legal: Iterable[Mapping[str, Any]], posted: str) -> Mapping[str, Any] | None:
    """Return the move of ``legal`` whose key is ``posted``, or None (stale, or never offered)."""
    wanted = parsed(posted)
    if wanted is None:
        return None
    target = key(wanted)
    return next((m for m in legal if key(m) == target), None)


def parsed(posted: str) -> dict[str, Any] | None:
    """Return the move a posted key names, as data, or None if it names none: whether it
    is legal is not said here (``chosen`` says it; a resend of a move written already is
    the append service's to answer).

    >>> parsed('{"seat": 1, "action": "throw", "card": "4D"}')
    {'seat': 1, 'action': 'throw', 'card': '4D'}
    >>> [parsed(p) for p in ("[1]", "not json", "{" * 500)]
    [None, None, None]
    """
    if not isinstance(posted, str) or len(posted) > MAX_KEY:
        return None
    try:
        wanted = json.loads(posted)
    except ValueError:
        return None
    return wanted if isinstance(wanted, dict) else None
