"""The values every format shares: entrants, pairings, rounds, and the one error type."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: An entrant is an opaque int (a team id); formats never look inside it.
Entrant = int


class FormatError(ValueError):
    """A request a format cannot honour: ``code`` is stable and machine-readable."""

    code: str
    message: str

    def __init__(self, message: str, *, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.code = code

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, {self.message!r})"


@dataclass(frozen=True, slots=True)
class Pairing:
    """One match of a round: ``a`` v ``b`` at ``table`` (tables count from 1).

    ``a`` is the first-named team (team 0 of the match): in Swiss the higher-ranked one.
    """

    table: int
    a: Entrant
    b: Entrant


@dataclass(frozen=True, slots=True)
class Round:
    """A round's pairings (by table) and the entrant with the bye, if any."""

    number: int
    pairings: tuple[Pairing, ...]
    bye: Entrant | None = None

    def entrants(self) -> tuple[Entrant, ...]:
        """Return every entrant of the round, the bye last."""
        out = [e for p in self.pairings for e in (p.a, p.b)]
        if self.bye is not None:
            out.append(self.bye)
        return tuple(out)


def check_entrants(entrants: Iterable[Entrant], *, minimum: int = 2) -> tuple[Entrant, ...]:
    """Return the entrants as a tuple; raises FormatError on duplicates, non-ints or too few."""
    out = tuple(entrants)
    for e in out:
        if type(e) is not int:
            raise FormatError(f"an entrant is an int (a team id), not {e!r}", code="bad_entrant")
    seen: set[int] = set()
    for e in out:
        if e in seen:
            raise FormatError(f"entrant {e} is listed twice", code="duplicate_entrant")
        seen.add(e)
    if len(out) < minimum:
        raise FormatError(
            f"this format needs at least {minimum} entrants, not {len(out)}", code="too_few"
        )
    return out


def pair_key(a: Entrant, b: Entrant) -> tuple[Entrant, Entrant]:
    """Return the unordered pair as a sorted tuple, the key of a meeting."""
    return (a, b) if a <= b else (b, a)


def tables_in_order(pairs: Sequence[tuple[Entrant, Entrant]]) -> tuple[Pairing, ...]:
    """Return the pairs as pairings at tables 1, 2, 3... in the order given."""
    return tuple(Pairing(i, a, b) for i, (a, b) in enumerate(pairs, start=1))
