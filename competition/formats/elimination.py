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
the losers' bracket, in an order (``ORDERINGS``: reversed, halves swapped, ...) per drop
round. ``drop_orders="measured"`` (the default) takes them from ``DROP_TABLE``: for each
field size, the orders with the fewest rematches that actually happen in the losers'
bracket, on average over results won 50/50 at random (``expected_losers_rematches``;
bench/drop_orders.py searched them and regenerates the table). The table is per field,
not per bracket size: with byes, which drops meet a survivor and which go straight on
depends on the winners' round 1 matches played, so 10, 17-22 and 34-46 teams have orders
of their own (docs/competition.md, "Comparing with brackets-manager.js").
``"fewest_possible"`` is the rule brackets were drawn with before (kept so those brackets
read the same): for each drop round, of four standard orders, the first with the fewest
pairs that *may* have met. The winners' champion meets the losers' champion in the grand
final ``GF1``; with ``reset=True`` a second final ``GF2`` is played only if the losers'
champion wins ``GF1`` (``played_if``), since only then has the winners' champion lost once.

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
from fractions import Fraction
from typing import Literal

from .common import Entrant, FormatError, check_entrants
from .drop_table import DROP_TABLE

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


def double_elimination(
    entrants: Sequence[Entrant],
    *,
    reset: bool = True,
    drop_orders: DropOrders | tuple[str, ...] = "measured",
) -> Bracket:
    """Return a double-elimination bracket; ``entrants`` in seed order (the top seed first).

    ``reset``: a second grand final when the losers' champion wins the first.
    ``drop_orders``: the table measured by the rematches that happen ("measured"), the rule
    of the brackets drawn before it ("fewest_possible"), or the orders themselves (names of
    ``ORDERINGS``, winners' round 2 first); see ``drop_order_names``.
    """
    seeds = check_entrants(entrants)
    size, rounds = _size(len(seeds))
    orders = [ORDERINGS[name] for name in drop_order_names(len(seeds), drop_orders)]
    raw = _winners_rounds(size, rounds, "W", "winners") + _losers_rounds(size, rounds, orders)
    champion: Slot = LoserOf("W1-1") if rounds == 1 else WinnerOf(f"L{2 * rounds - 2}-1")
    raw.append(_Raw("GF1", "final", 1, WinnerOf(f"W{rounds}-1"), champion))
    final = "GF1"
    if reset:
        raw.append(_Raw("GF2", "final", 2, LoserOf("GF1"), WinnerOf("GF1"), ("GF1", "b")))
        final = "GF2"
    return _build("double", seeds, raw, final)


def drop_order_names(
    count: int, drop_orders: DropOrders | tuple[str, ...] = "measured"
) -> tuple[str, ...]:
    """Return the order (a key of ``ORDERINGS``) of each drop round of a double-elimination
    bracket of ``count`` entrants: the losers of winners' round 2, 3, ... up to the final.

    The last drop round has one loser, so its order is "natural" whatever the rule (the
    old rule named it "reverse": the same one team); orders given as names and the table
    leave it out, and any other round left out too is "natural". Past the table's sizes
    (128 teams) "measured" takes the "fewest_possible" rule.

    >>> drop_order_names(16)
    ('reverse', 'reverse_half_shift', 'natural')
    >>> drop_order_names(16, "fewest_possible")
    ('reverse', 'reverse', 'reverse')
    """
    size, rounds = _size(count)
    if drop_orders == "measured" and count > max(DROP_TABLE):
        drop_orders = "fewest_possible"  # beyond the sizes measured: the rule of before
    if isinstance(drop_orders, tuple) or drop_orders == "measured":
        chosen = DROP_TABLE.get(count, ()) if drop_orders == "measured" else drop_orders
        unknown = [name for name in chosen if name not in ORDERINGS]
        if unknown or len(chosen) > max(rounds - 1, 0):
            raise FormatError(
                f"{chosen!r} are not the orders of {max(rounds - 1, 0)} drop rounds",
                code="bad_drop_orders",
            )
        return chosen + ("natural",) * (rounds - 1 - len(chosen))
    if drop_orders == "fewest_possible":
        names: list[str] = []
        for t in range(2, rounds + 1):
            best: tuple[tuple[int, ...], str] | None = None
            for candidate in _FEWEST_POSSIBLE:
                trial = [*names, candidate] + [_FEWEST_POSSIBLE[0]] * (rounds - t)
                score = _possible_rematches(size, rounds, [ORDERINGS[n] for n in trial])
                if best is None or score < best[0]:
                    best = (score, candidate)
            assert best is not None
            names.append(best[1])
        return tuple(names)
    raise FormatError(f"no drop orders called {drop_orders!r}", code="bad_drop_orders")


def expected_losers_rematches(bracket: Bracket) -> Fraction:
    """Return the expected number of losers' bracket matches between two teams that have
    met already, every match won by either of its teams with probability 1/2 (exact).

    Two teams in a losers' bracket match can have met only in the winners' bracket (a
    losers' match sends its loser out), where the one that dropped first lost to the other:
    the loser of winners' fixture x met the loser of a later fixture y exactly when x's
    winner won every fixture on its way up to y and lost y, probability 2**-d for y d rounds
    above x. Which drop reaches a losers' slot depends only on losers' results, each
    reached with probability 1/2 per losers' match won, independently of the winners'.

    >>> expected_losers_rematches(double_elimination([1, 2, 3, 4]))
    Fraction(1, 2)
    """
    part = {f.key: f.part for f in bracket.fixtures}
    # a winners' fixture -> the later winners' fixtures its winner may play, and how far up
    above: dict[str, dict[str, int]] = {}
    for f in reversed(bracket.fixtures):  # a fixture comes after the fixtures that feed it
        if f.part != "winners":
            continue
        up: dict[str, int] = {}
        if f.winner_to is not None and part[f.winner_to[0]] == "winners":
            parent = f.winner_to[0]
            up = {parent: 1, **{k: d + 1 for k, d in above[parent].items()}}
        above[f.key] = up
    # a losers' fixture -> the winners' fixtures its winner may have lost, each's probability
    # in units of 2**-depth (a team halves its chances per losers' match, at most depth times)
    depth = max((f.round for f in bracket.fixtures if f.part == "losers"), default=0) + 1
    one = 1 << depth
    reach: dict[str, dict[str, int]] = {}
    total = 0  # in units of 2**-(3 * depth): two probabilities and 2**-d, d < depth
    for f in bracket.fixtures:
        if f.part != "losers":
            continue
        sides = []
        for slot in (f.slot_a, f.slot_b):
            if isinstance(slot, LoserOf) and part[slot.fixture] == "winners":
                sides.append({slot.fixture: one})
            elif isinstance(slot, WinnerOf) and part[slot.fixture] == "losers":
                sides.append(reach[slot.fixture])
            else:
                raise FormatError(f"{f.key}: a losers' slot holds {slot!r}", code="bad_bracket")
        a, b = sides
        for x, px in a.items():
            for y, py in b.items():
                d = above[x].get(y) or above[y].get(x)
                if d:
                    total += (px * py) << (depth - d)
        merged = {x: p >> 1 for x, p in a.items()}
        for y, p in b.items():
            merged[y] = merged.get(y, 0) + (p >> 1)
        reach[f.key] = merged
    return Fraction(total, 1 << (3 * depth))


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


def _natural(m: int) -> list[int]:
    return list(range(1, m + 1))


def _reverse(m: int) -> list[int]:
    return list(range(m, 0, -1))


def _half_shift(m: int) -> list[int]:
    h = m // 2
    return list(range(h + 1, m + 1)) + list(range(1, h + 1))


def _reverse_half_shift(m: int) -> list[int]:
    h = m // 2
    return list(range(h, 0, -1)) + list(range(m, h, -1))


def _pair_flip(m: int) -> list[int]:
    if m < 2:
        return _natural(m)
    return [x for i in range(1, m, 2) for x in (i + 1, i)]


def _inner_outer(m: int) -> list[int]:
    """Return brackets-manager's inner_outer: outer pair, inner pair, ... of each quarter."""
    if m <= 2:
        return _natural(m)
    q = m // 4
    outer = [list(range(1, q + 1)), list(range(3 * q + 1, m + 1))]
    inner = [list(range(q + 1, 2 * q + 1)), list(range(2 * q + 1, 3 * q + 1))]
    out: list[int] = []

    def take(part: list[list[int]], innermost: bool) -> None:
        if part[0] and part[1]:
            out.extend(
                (part[0].pop(), part[1].pop(0)) if innermost else (part[0].pop(0), part[1].pop())
            )

    for _ in range(max(1, q // 2)):
        take(outer, False)
        take(inner, True)
        take(outer, True)
        take(inner, False)
    return out


#: the orders a drop round's losers can come in (brackets-manager's names and definitions):
#: position i of the drop round takes the loser of winners' fixture ``order(m)[i - 1]``
ORDERINGS: dict[str, Callable[[int], list[int]]] = {
    "natural": _natural,
    "reverse": _reverse,
    "half_shift": _half_shift,
    "reverse_half_shift": _reverse_half_shift,
    "pair_flip": _pair_flip,
    "inner_outer": _inner_outer,
}

#: the orders the "fewest_possible" rule tries, in its order of preference
_FEWEST_POSSIBLE = ("reverse", "half_shift", "reverse_half_shift", "natural")
DROP_ORDERS: tuple[Callable[[int], list[int]], ...] = tuple(ORDERINGS[n] for n in _FEWEST_POSSIBLE)


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
