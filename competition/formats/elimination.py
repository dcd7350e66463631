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

from collections.abc import Mapping, Sequence
from typing import Literal

from .brackets import (
    Bracket,
    BracketState,
    DropOrders,
    Fixture,
    FixtureState,
    LoserOf,
    Part,
    RawFixture,
    Seed,
    Side,
    Slot,
    Status,
    WinnerOf,
    bracket_size,
    standard_order,
)
from .common import Entrant, FormatError, check_entrants
from .drop_orders import (
    DROP_ORDERS,
    ORDERINGS,
    drop_order_names,
    expected_losers_rematches,
    losers_rounds,
)

__all__ = [
    "DROP_ORDERS",
    "ORDERINGS",
    "Bracket",
    "BracketState",
    "DropOrders",
    "Fixture",
    "FixtureState",
    "LoserOf",
    "Part",
    "Seed",
    "Side",
    "Slot",
    "Status",
    "WinnerOf",
    "advance",
    "double_elimination",
    "drop_order_names",
    "expected_losers_rematches",
    "single_elimination",
    "standard_order",
]


def single_elimination(entrants: Sequence[Entrant], *, third_place: bool = False) -> Bracket:
    """Return a single-elimination bracket; ``entrants`` in seed order (the top seed first).

    ``third_place`` adds a match between the semi-final losers (with at least 4 entrants).
    """
    seeds = check_entrants(entrants)
    size, rounds = bracket_size(len(seeds))
    raw = _winners_rounds(size, rounds, "R", "main")
    if third_place and len(seeds) >= 4:
        raw.append(
            RawFixture(
                "3P", "third_place", 1, LoserOf(f"R{rounds - 1}-1"), LoserOf(f"R{rounds - 1}-2")
            )
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
    size, rounds = bracket_size(len(seeds))
    orders = [ORDERINGS[name] for name in drop_order_names(len(seeds), drop_orders)]
    raw = _winners_rounds(size, rounds, "W", "winners") + losers_rounds(size, rounds, orders)
    champion: Slot = LoserOf("W1-1") if rounds == 1 else WinnerOf(f"L{2 * rounds - 2}-1")
    raw.append(RawFixture("GF1", "final", 1, WinnerOf(f"W{rounds}-1"), champion))
    final = "GF1"
    if reset:
        raw.append(RawFixture("GF2", "final", 2, LoserOf("GF1"), WinnerOf("GF1"), ("GF1", "b")))
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


def _winners_rounds(size: int, rounds: int, prefix: str, part: Part) -> list[RawFixture]:
    order = standard_order(size)
    raw = []
    for i in range(size // 2):
        raw.append(
            RawFixture(f"{prefix}1-{i + 1}", part, 1, Seed(order[2 * i]), Seed(order[2 * i + 1]))
        )
    for r in range(2, rounds + 1):
        for i in range(1, size // 2**r + 1):
            a, b = WinnerOf(f"{prefix}{r - 1}-{2 * i - 1}"), WinnerOf(f"{prefix}{r - 1}-{2 * i}")
            raw.append(RawFixture(f"{prefix}{r}-{i}", part, r, a, b))
    return raw


def _build(
    kind: Literal["single", "double"], seeds: tuple[Entrant, ...], raw: list[RawFixture], final: str
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
        kept.append(RawFixture(f.key, f.part, f.round, a, b, f.played_if))
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
