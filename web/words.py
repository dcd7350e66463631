"""What the pages call things: cards, seats, bracket parts and fixtures, bazzi reasons, in words.

The one place where a code of the engine or the formats ("seat 0", "L2-1", "third_place")
becomes what a person at the club reads; templates use it through the ``words`` filters
(``web/templatetags/words.py``), never a code of their own.

Every word is marked for translation (docs/languages.md): the constants lazily, so they are
said in the language of the request that reads them; docs/glossary.md has the game's words in
each language.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

#: a card code's rank and suit (seep_core.cards), as a card is named aloud: "Ace of spades"
RANK_NAMES: dict[str, Promise] = {
    "A": pgettext_lazy("card", "Ace"),
    "J": pgettext_lazy("card", "Jack"),
    "Q": pgettext_lazy("card", "Queen"),
    "K": pgettext_lazy("card", "King"),
}
SUIT_NAMES: dict[str, Promise] = {
    "S": pgettext_lazy("suit", "spades"),
    "H": pgettext_lazy("suit", "hearts"),
    "D": pgettext_lazy("suit", "diamonds"),
    "C": pgettext_lazy("suit", "clubs"),
}
#: a card named aloud, by rank: one sentence each, as a language may need the rank's gender
#: (Hindi "हुकुम का इक्का" but "हुकुम की बेगम"); the suit is the one ``SUIT_NAMES`` gives
_CARD_SAID: dict[str, Promise] = {
    "A": pgettext_lazy("card", "Ace of %(suit)s"),
    "J": pgettext_lazy("card", "Jack of %(suit)s"),
    "Q": pgettext_lazy("card", "Queen of %(suit)s"),
    "K": pgettext_lazy("card", "King of %(suit)s"),
}

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
SEATS: tuple[Promise, ...] = (
    pgettext_lazy("seat", "North"),
    pgettext_lazy("seat", "West"),
    pgettext_lazy("seat", "South"),
    pgettext_lazy("seat", "East"),
)

#: a bracket's parts (competition.formats.elimination.Part), as headings
PARTS: dict[str, Promise] = {
    "main": gettext_lazy("main bracket"),
    "third_place": gettext_lazy("third-place match"),
    "winners": gettext_lazy("winners' bracket"),
    "losers": gettext_lazy("losers' bracket"),
    "final": gettext_lazy("grand final"),
}

#: why a bazzi was won (scoring.models.DealResult.Reason)
BAZZI_REASONS: dict[str, Promise] = {
    "lead": gettext_lazy("running lead reached"),
    "minimum": gettext_lazy("the other team under the minimum"),
}

#: where a match is (tournaments.matchlog.Status), as a list of matches says it
STATUSES: dict[str, Promise] = {
    "scheduled": gettext_lazy("scheduled"),
    "in_progress": gettext_lazy("in progress"),
    "finished": gettext_lazy("finished"),
    "called_off": gettext_lazy("called off"),
}

#: how a match is recorded (tournaments.matchlog.Mode), as its sheet says it
MODES: dict[str, Promise] = {
    "digital": gettext_lazy("digital (the server deals)"),
    "table": gettext_lazy("table (every move recorded at a physical table)"),
    "score": gettext_lazy("score (each deal's result entered)"),
}

#: a stage's format (competition.models.Stage.Format), as the tournament page says it
STAGE_FORMATS: dict[str, Promise] = {
    "round_robin": gettext_lazy("round robin"),
    "double_round_robin": gettext_lazy("double round robin"),
    "swiss": gettext_lazy("Swiss"),
    "single_elimination": gettext_lazy("single elimination"),
    "double_elimination": gettext_lazy("double elimination"),
    "groups": gettext_lazy("round-robin groups"),
}

#: where a stage is (competition.models.Stage.Status)
STAGE_STATUSES: dict[str, Promise] = {
    "pending": pgettext_lazy("stage", "pending"),
    "running": pgettext_lazy("stage", "running"),
    "complete": pgettext_lazy("stage", "complete"),
}

#: where a round is (competition.models.Round.Status)
ROUND_STATUSES: dict[str, Promise] = {
    "draft": pgettext_lazy("round", "draft"),
    "published": pgettext_lazy("round", "published"),
    "complete": pgettext_lazy("round", "complete"),
}

#: where a fixture is (competition.selectors.fixture_status), on the tournament page
FIXTURE_STATUSES: dict[str, Promise] = {
    "void": pgettext_lazy("fixture", "void"),
    "bye": pgettext_lazy("fixture", "bye"),
    "decided": pgettext_lazy("fixture", "decided"),
    "waiting": pgettext_lazy("fixture", "waiting"),
    "playing": pgettext_lazy("fixture", "playing"),
    "ready": pgettext_lazy("fixture", "ready"),
}

#: how a season's ladder scores an evening (seasons.models.Season.Rule)
LADDER_RULES: dict[str, Promise] = {
    "places": gettext_lazy("points per place each evening"),
    "wins": gettext_lazy("points per match won"),
}

#: the prefix of a bracket fixture's key: which part's rounds it counts in
_KEY_ROUNDS: dict[str, Promise] = {
    "R": gettext_lazy("round %(number)s, match %(index)s"),
    "W": gettext_lazy("winners' round %(number)s, match %(index)s"),
    "L": gettext_lazy("losers' round %(number)s, match %(index)s"),
}
_KEY = re.compile(r"([RWL])(\d+)-(\d+)")
_SPECIAL: dict[str, Promise] = {
    "3P": gettext_lazy("the third-place match"),
    "GF1": gettext_lazy("the grand final"),
    "GF2": gettext_lazy("the grand final reset"),
}
_SOURCE = re.compile(r"(winner|loser) of (\S+)")


def card(code: str) -> str:
    """Return a card code in words, the one name every page gives a card for a screen reader.

    >>> [card(c) for c in ("AS", "10D", "JH", "QC", "KS")]
    ['Ace of spades', '10 of diamonds', 'Jack of hearts', 'Queen of clubs', 'King of spades']
    """
    rank, suit = code[:-1], code[-1:]
    suit_name = str(SUIT_NAMES.get(suit, suit))
    said = _CARD_SAID.get(rank)
    if said is not None:
        return str(said) % {"suit": suit_name}
    return pgettext("card", "%(rank)s of %(suit)s") % {"rank": rank, "suit": suit_name}


@functools.lru_cache(maxsize=4096)  # a name is marked again on every render of a page
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
    if 0 <= number < len(SEATS):
        return str(SEATS[number])
    return _("seat %(number)s") % {"number": number + 1}


def part(code: str | None) -> str:
    """Return a bracket part's name: ``part("third_place") == "third-place match"``."""
    found = PARTS.get(code or "main")
    return str(found) if found is not None else (code or "").replace("_", " ")


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
        return str(_SPECIAL[key])
    found = _KEY.fullmatch(key)
    if found is None:
        return key
    kind, number, index = found.groups()
    return str(_KEY_ROUNDS[kind]) % {"number": number, "index": index}


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
    where = fixture(found.group(2), names)
    if found.group(1) == "winner":
        return _("winner of %(fixture)s") % {"fixture": where}
    return _("loser of %(fixture)s") % {"fixture": where}


_ROUND = re.compile(r"round (\d+)")


def round_name(name: object) -> str:
    """Return a round's name as a page says it: the name the competition gives a round
    ("round 2") in the page's language, any other name (a director's) as it is.

    >>> round_name("round 2"), round_name("semi-finals")
    ('round 2', 'semi-finals')
    """
    text = "" if name is None else str(name)
    found = _ROUND.fullmatch(text)
    if found is None:
        return text
    return _("round %(number)s") % {"number": found.group(1)}


def bazzi_reason(code: str | None) -> str:
    """Return why a bazzi was won, in words."""
    found = BAZZI_REASONS.get(code or "")
    return str(found) if found is not None else code or ""


def status(code: str | None) -> str:
    """Return where a match is, in words: ``status("in_progress") == "in progress"``."""
    return said(STATUSES, code)


def said(table: Mapping[str, Promise], code: str | None) -> str:
    """Return a code in words from one of the tables above (or ``web.desk_words``'), or the
    code as it is when the table has none: ``said(STAGE_FORMATS, "swiss") == "Swiss"``."""
    found = table.get(code or "")
    return str(found) if found is not None else (code or "").replace("_", " ")


def saying(table: Mapping[str, Promise]) -> Callable[[str | None], str]:
    """Return ``said`` of one table, as a template filter says a code: ``saying(MODES)``."""
    return functools.partial(said, table)
