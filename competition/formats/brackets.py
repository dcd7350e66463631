"""A bracket's values: its slots (a seed, the winner or the loser of a fixture), its fixtures
and where each sends its teams, and its state as the results place them; the standard
seeding order. Built by ``elimination``; a double elimination's drop rounds by ``drop_orders``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .common import Entrant, FormatError

Side = Literal["a", "b"]
Part = Literal["main", "third_place", "winners", "losers", "final"]
Status = Literal["waiting", "ready", "decided", "void"]
#: how a double-elimination bracket orders its drop rounds: "measured" (``DROP_TABLE``, the
#: default) or "fewest_possible" (the per-round rule of the brackets drawn before the table).
#: A drawn bracket is read again from its seeds, so a changed table takes a new name here.
DropOrders = Literal["fewest_possible", "measured"]


@dataclass(frozen=True, slots=True)
class Seed:
    """The entrant seeded ``number`` (1 = the top seed)."""

    number: int

    def __repr__(self) -> str:
        return f"Seed({self.number})"


@dataclass(frozen=True, slots=True)
class WinnerOf:
    """The winner of fixture ``fixture``."""

    fixture: str

    def __repr__(self) -> str:
        return f"WinnerOf({self.fixture!r})"


@dataclass(frozen=True, slots=True)
class LoserOf:
    """The loser of fixture ``fixture``."""

    fixture: str

    def __repr__(self) -> str:
        return f"LoserOf({self.fixture!r})"


Slot = Seed | WinnerOf | LoserOf


@dataclass(frozen=True, slots=True)
class Fixture:
    """One match of a bracket and where its teams go next.

    ``part``: main (single elimination), third_place, winners, losers or final (the grand
    finals); ``round`` counts within the part. ``played_if=(key, side)``: the fixture is
    played only if fixture ``key`` is won by its ``side`` team (the bracket reset).
    """

    key: str
    part: Part
    round: int
    slot_a: Slot
    slot_b: Slot
    winner_to: tuple[str, Side] | None = None
    loser_to: tuple[str, Side] | None = None
    played_if: tuple[str, Side] | None = None


@dataclass(frozen=True, slots=True)
class Bracket:
    """The fixtures of a bracket in playable order, its seeds, and its final's key.

    The champion is the winner of ``final``, or, when ``final`` is void (the reset not
    needed), the winner of the fixture it depends on.
    """

    kind: Literal["single", "double"]
    seeds: tuple[Entrant, ...]
    fixtures: tuple[Fixture, ...]
    final: str

    def fixture(self, key: str) -> Fixture:
        """Return the fixture with this key; raises KeyError if there is none."""
        for f in self.fixtures:
            if f.key == key:
                return f
        raise KeyError(key)


@dataclass(frozen=True, slots=True)
class FixtureState:
    """A fixture's teams so far, its winner and loser once decided, and its status.

    ``waiting``: a team is not known yet; ``ready``: both known, no result; ``decided``;
    ``void``: not to be played (a reset that is not needed).
    """

    key: str
    a: Entrant | None
    b: Entrant | None
    winner: Entrant | None
    loser: Entrant | None
    status: Status


@dataclass(frozen=True, slots=True)
class BracketState:
    """Where a bracket stands: every fixture's state, the champion once known, and where
    every other team finished (entrant, fixture key: where it went out, or the third-place
    match for its winner), in the order of the fixtures."""

    fixtures: tuple[FixtureState, ...]
    champion: Entrant | None
    eliminated: tuple[tuple[Entrant, str], ...]

    def ready(self) -> tuple[FixtureState, ...]:
        """Return the fixtures that can be played now."""
        return tuple(f for f in self.fixtures if f.status == "ready")

    @property
    def finished(self) -> bool:
        """Whether every fixture is decided or void."""
        return all(f.status in ("decided", "void") for f in self.fixtures)


def standard_order(size: int) -> tuple[int, ...]:
    """Return the seeds in bracket order for a power-of-two size: 1, 16, 8, 9, 4, 13, ...

    Adjacent pairs meet in round 1; seeds s and size + 1 - s always meet first.

    >>> standard_order(8)
    (1, 8, 4, 5, 2, 7, 3, 6)
    """
    if size < 1 or size & (size - 1):
        raise FormatError(f"a bracket size is a power of two, not {size}", code="bad_size")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for s in order for x in (s, total - s)]
    return tuple(order)


def bracket_size(count: int) -> tuple[int, int]:
    """Return the power of two a bracket of ``count`` entrants is drawn in, and its rounds.

    >>> bracket_size(5)
    (8, 3)
    """
    size, rounds = 1, 0
    while size < count:
        size, rounds = size * 2, rounds + 1
    return size, rounds


@dataclass(frozen=True, slots=True)
class RawFixture:
    """A fixture as first laid out, before byes are resolved (None: nobody, a bye)."""

    key: str
    part: Part
    round: int
    slot_a: Slot | None
    slot_b: Slot | None
    played_if: tuple[str, Side] | None = None
