"""Single and double elimination brackets as fixtures that know where each team goes next.

A bracket is a tuple of ``Fixture``s in playable order (a fixture comes after every fixture
that feeds it). Each slot is ``Seed(n)`` (the n-th seed, 1-based), ``WinnerOf(key)`` or
``LoserOf(key)``; each fixture names where its winner goes (``winner_to``) and its loser
(``loser_to``, None when the loser is out). The seeds' entrants are ``Bracket.seeds``.

Seeding is standard: 1 v 16, 8 v 9, 4 v 13, 5 v 12, 2 v 15, ... so seeds 1 and 2 can meet
only in the final, 1-4 only in the semi-finals, and so on. With a count that is not a power
of two the bracket is the next power of two and the top seeds meet nobody in round 1:
those byes are resolved when the bracket is built, so no fixture holds a bye; the seed
simply starts one round later (in double elimination a missing loser also removes the
losers' bracket fixture it would have played, its opponent going straight on).

Double elimination: a team is out after its second loss. Losers of winners' round 1 meet in
losers' round 1; the losers of each later winners' round drop in against the survivors of
the losers' bracket, in an order chosen to keep apart teams that may have met already:
for each drop round, of the standard orders (reversed, halves swapped, halves reversed,
as is), the first with the fewest possible rematches, counted losers' round by round
(reversed always makes the first drop round free of them). The winners' champion meets the
losers' champion in the grand final ``GF1``; with ``reset=True`` a second final ``GF2`` is
played only if the losers' champion wins ``GF1`` (``played_if``), since only then has the
winners' champion lost once.

``advance(bracket, results)`` places the teams from the results so far (fixture key ->
winning entrant) and says which fixtures are decided, ready, waiting or void.

>>> b = single_elimination([11, 12, 13])
>>> [(f.key, f.slot_a, f.slot_b) for f in b.fixtures]
[('R1-2', Seed(2), Seed(3)), ('R2-1', Seed(1), WinnerOf('R1-2'))]
>>> s = advance(b, {"R1-2": 13})
>>> [(f.key, f.a, f.b, f.status) for f in s.fixtures]
[('R1-2', 12, 13, 'decided'), ('R2-1', 11, 13, 'ready')]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from .common import Entrant, FormatError, check_entrants

Side = Literal["a", "b"]
Part = Literal["main", "third_place", "winners", "losers", "final"]
Status = Literal["waiting", "ready", "decided", "void"]


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


def single_elimination(entrants: Sequence[Entrant], *, third_place: bool = False) -> Bracket:
    """Return a single-elimination bracket; ``entrants`` in seed order (the top seed first).

    ``third_place`` adds a match between the semi-final losers (with at least 4 entrants).
    """
    seeds = check_entrants(entrants)
    size, rounds = _size(len(seeds))
    raw = _winners_rounds(size, rounds, "R", "main")
    if third_place and len(seeds) >= 4:
        raw.append(
            _Raw("3P", "third_place", 1, LoserOf(f"R{rounds - 1}-1"), LoserOf(f"R{rounds - 1}-2"))
        )
    return _build("single", seeds, raw, f"R{rounds}-1")


def double_elimination(entrants: Sequence[Entrant], *, reset: bool = True) -> Bracket:
    """Return a double-elimination bracket; ``entrants`` in seed order (the top seed first).

    ``reset``: a second grand final when the losers' champion wins the first.
    """
    seeds = check_entrants(entrants)
    size, rounds = _size(len(seeds))
    orders: list[Callable[[int], list[int]]] = []
    for t in range(2, rounds + 1):
        best: tuple[tuple[int, ...], int] | None = None
        for c, candidate in enumerate(DROP_ORDERS):
            trial = [*orders, candidate] + [DROP_ORDERS[0]] * (rounds - t)
            score = _possible_rematches(size, rounds, trial)
            if best is None or score < best[0]:
                best = (score, c)
        assert best is not None
        orders.append(DROP_ORDERS[best[1]])
    raw = _winners_rounds(size, rounds, "W", "winners") + _losers_rounds(size, rounds, orders)
    champion: Slot = LoserOf("W1-1") if rounds == 1 else WinnerOf(f"L{2 * rounds - 2}-1")
    raw.append(_Raw("GF1", "final", 1, WinnerOf(f"W{rounds}-1"), champion))
    final = "GF1"
    if reset:
        raw.append(_Raw("GF2", "final", 2, LoserOf("GF1"), WinnerOf("GF1"), ("GF1", "b")))
        final = "GF2"
    return _build("double", seeds, raw, final)


def advance(bracket: Bracket, results: Mapping[str, Entrant]) -> BracketState:
    """Return the bracket's state after these results (fixture key -> winning entrant).

    Raises FormatError for a result of an unknown, void or not yet ready fixture, or a
    winner who is not one of its two teams. Elimination matches have a winner: no draws.
    """
    keys = {f.key for f in bracket.fixtures}
    unknown = sorted(set(results) - keys)
    if unknown:
        raise FormatError(f"no fixture {unknown[0]!r} in this bracket", code="unknown_fixture")
    seeds = bracket.seeds
    winners: dict[str, Entrant] = {}
    losers: dict[str, Entrant] = {}
    by_key: dict[str, FixtureState] = {}

    def team(slot: Slot) -> Entrant | None:
        if isinstance(slot, Seed):
            return seeds[slot.number - 1]
        if isinstance(slot, WinnerOf):
            return winners.get(slot.fixture)
        return losers.get(slot.fixture)

    for f in bracket.fixtures:
        a, b = team(f.slot_a), team(f.slot_b)
        state: Status
        winner = loser = None
        condition = None if f.played_if is None else by_key[f.played_if[0]]
        if condition is not None and condition.status == "void":
            state = "void"
        elif condition is not None and condition.status != "decided":
            state = "waiting"
        elif condition is not None and condition.winner != (
            condition.a if f.played_if == (condition.key, "a") else condition.b
        ):
            state = "void"  # the condition's other team won: not needed
        elif a is None or b is None:
            state = "waiting"
        elif f.key in results:
            winner = results[f.key]
            if winner not in (a, b):
                raise FormatError(
                    f"{f.key} is {a} v {b}: {winner} cannot win it", code="bad_winner"
                )
            loser = b if winner == a else a
            winners[f.key], losers[f.key] = winner, loser
            state = "decided"
        else:
            state = "ready"
        if f.key in results and state != "decided":
            raise FormatError(f"{f.key} is {state}: it cannot have a result", code="not_ready")
        by_key[f.key] = FixtureState(f.key, a, b, winner, loser, state)
    states = tuple(by_key[f.key] for f in bracket.fixtures)
    eliminated = []
    for f, st in zip(bracket.fixtures, states, strict=True):
        if st.loser is not None and (f.loser_to is None or by_key[f.loser_to[0]].status == "void"):
            eliminated.append((st.loser, f.key))
        if st.winner is not None and f.winner_to is None and f.key != bracket.final:
            eliminated.append((st.winner, f.key))  # a placing match's winner finishes there
    final = bracket.fixture(bracket.final)
    champion = winners.get(final.key)
    if by_key[final.key].status == "void" and final.played_if is not None:
        champion = winners.get(final.played_if[0])
    return BracketState(states, champion, tuple(eliminated))


# --- Building ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Raw:
    key: str
    part: Part
    round: int
    slot_a: Slot | None  # None: nobody (a bye)
    slot_b: Slot | None
    played_if: tuple[str, Side] | None = None


def _size(count: int) -> tuple[int, int]:
    size, rounds = 1, 0
    while size < count:
        size, rounds = size * 2, rounds + 1
    return size, rounds


def _winners_rounds(size: int, rounds: int, prefix: str, part: Part) -> list[_Raw]:
    order = standard_order(size)
    raw = []
    for i in range(size // 2):
        raw.append(_Raw(f"{prefix}1-{i + 1}", part, 1, Seed(order[2 * i]), Seed(order[2 * i + 1])))
    for r in range(2, rounds + 1):
        for i in range(1, size // 2**r + 1):
            a, b = WinnerOf(f"{prefix}{r - 1}-{2 * i - 1}"), WinnerOf(f"{prefix}{r - 1}-{2 * i}")
            raw.append(_Raw(f"{prefix}{r}-{i}", part, r, a, b))
    return raw


def _reverse(m: int) -> list[int]:
    return list(range(m, 0, -1))


def _identity(m: int) -> list[int]:
    return list(range(1, m + 1))


def _swap_halves(m: int) -> list[int]:
    h = m // 2
    return list(range(h + 1, m + 1)) + list(range(1, h + 1)) if m > 1 else [1]


def _reverse_halves(m: int) -> list[int]:
    h = m // 2
    return list(range(h, 0, -1)) + list(range(m, h, -1)) if m > 1 else [1]


#: the drop orders tried, in order of preference: position i of a drop round takes the
#: loser of winners' fixture order(m)[i - 1]
DROP_ORDERS: tuple[Callable[[int], list[int]], ...] = (
    _reverse,
    _swap_halves,
    _reverse_halves,
    _identity,
)


def _losers_rounds(
    size: int, rounds: int, orders: Sequence[Callable[[int], list[int]]]
) -> list[_Raw]:
    raw = []
    for i in range(1, size // 4 + 1):
        raw.append(_Raw(f"L1-{i}", "losers", 1, LoserOf(f"W1-{2 * i - 1}"), LoserOf(f"W1-{2 * i}")))
    for t in range(2, rounds + 1):
        drop = 2 * (t - 1)
        m = size // 2**t
        order = orders[t - 2](m)
        for i in range(1, m + 1):
            a = WinnerOf(f"L{drop - 1}-{i}")
            raw.append(_Raw(f"L{drop}-{i}", "losers", drop, a, LoserOf(f"W{t}-{order[i - 1]}")))
        if t < rounds:
            for i in range(1, m // 2 + 1):
                a, b = WinnerOf(f"L{drop}-{2 * i - 1}"), WinnerOf(f"L{drop}-{2 * i}")
                raw.append(_Raw(f"L{drop + 1}-{i}", "losers", drop + 1, a, b))
    return raw


def _possible_rematches(
    size: int, rounds: int, orders: Sequence[Callable[[int], list[int]]]
) -> tuple[int, ...]:
    """Return per losers' round how many pairs of its teams' origins may have met already.

    An origin is the winners' fixture a team lost; two teams may have met when one's
    origin lies in the other's part of the winners' bracket (the blocks of seeds nest).
    """

    def block(key: str) -> tuple[int, int]:
        r, i = (int(x) for x in key[1:].split("-"))
        width = 2**r
        return (i - 1) * width, i * width

    origins: dict[str, list[tuple[int, int]]] = {}
    counts = [0] * (2 * rounds)
    for f in _losers_rounds(size, rounds, orders):
        sides = []
        for slot in (f.slot_a, f.slot_b):
            assert slot is not None and not isinstance(slot, Seed)
            sides.append(
                [block(slot.fixture)] if isinstance(slot, LoserOf) else origins[slot.fixture]
            )
        for x0, x1 in sides[0]:
            for y0, y1 in sides[1]:
                if (x0 <= y0 and y1 <= x1) or (y0 <= x0 and x1 <= y1):
                    counts[f.round] += 1
        origins[f.key] = sides[0] + sides[1]
    return tuple(counts)


def _build(
    kind: Literal["single", "double"], seeds: tuple[Entrant, ...], raw: list[_Raw], final: str
) -> Bracket:
    """Return the bracket with byes resolved and the forward links filled in."""
    count = len(seeds)
    # what WinnerOf(key) / LoserOf(key) of a removed fixture stands for (None: nobody)
    stands: dict[Slot, Slot | None] = {}

    def resolve(slot: Slot | None) -> Slot | None:
        if slot is None or (isinstance(slot, Seed) and slot.number > count):
            return None
        return stands.get(slot, slot)

    kept = []
    for f in raw:
        a, b = resolve(f.slot_a), resolve(f.slot_b)
        if a is None or b is None:
            stands[WinnerOf(f.key)] = b if a is None else a
            stands[LoserOf(f.key)] = None
            continue
        kept.append(_Raw(f.key, f.part, f.round, a, b, f.played_if))
    destinations: dict[Slot, tuple[str, Side]] = {}
    for f in kept:
        if isinstance(f.slot_a, WinnerOf | LoserOf):
            destinations[f.slot_a] = (f.key, "a")
        if isinstance(f.slot_b, WinnerOf | LoserOf):
            destinations[f.slot_b] = (f.key, "b")
    fixtures = []
    for f in kept:
        assert f.slot_a is not None and f.slot_b is not None
        fixtures.append(
            Fixture(
                f.key,
                f.part,
                f.round,
                f.slot_a,
                f.slot_b,
                destinations.get(WinnerOf(f.key)),
                destinations.get(LoserOf(f.key)),
                f.played_if,
            )
        )
    return Bracket(kind, seeds, tuple(fixtures), final)
