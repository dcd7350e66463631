"""A match as a fold over its deals: the format (M1), bazzis, dealers and the result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from .errors import SeepError
from .rules import DEFAULT_RULES, Options, Rules, options_from_dict
from .scoring import LedgerStep, ledger_step, next_dealer


class InvalidFormat(SeepError):
    """A match format outside what M1 allows."""


@dataclass(frozen=True, slots=True)
class MatchFormat(Options):
    """How long a match lasts (M1).

    ``bazzis`` bazzis are played (or, with ``first_to``, the first team to win that many
    wins), optionally capped at ``deal_cap`` deals. At the end a match is decided by bazzis
    won, then by the running difference; an exact tie is a draw when ``draws`` allows it and
    otherwise (an elimination match) play goes on deal by deal until the tie is broken.

    >>> MatchFormat(bazzis=3, first_to=True).to_dict()["first_to"]
    True
    """

    bazzis: int = 1
    first_to: bool = False
    deal_cap: int | None = None
    draws: bool = True

    def __post_init__(self) -> None:
        if type(self.bazzis) is not int or not 1 <= self.bazzis <= 99:
            raise InvalidFormat(
                f"bazzis must be a whole number 1-99, not {self.bazzis!r}", code="bad_format"
            )
        if self.deal_cap is not None and (
            type(self.deal_cap) is not int or not 1 <= self.deal_cap <= 1000
        ):
            raise InvalidFormat(
                f"deal_cap must be null or a whole number 1-1000, not {self.deal_cap!r}",
                code="bad_format",
            )
        for name in ("first_to", "draws"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidFormat(f"{name} must be true or false", code="bad_format")

    @classmethod
    def from_dict(cls, data: Any) -> MatchFormat:
        """Return the format recorded in ``data``; missing keys take the default."""
        return options_from_dict(
            cls, data, InvalidFormat, "bad_format", "a match format is an object", "format field"
        )


class MatchProgress(NamedTuple):
    """Where a match stands between deals. Immutable: ``after_deal`` returns the next one."""

    format: MatchFormat
    rules: Rules
    dealer: int  # who deals the next deal
    deals: int  # deals scored so far (redeals do not count)
    difference: int  # running difference, team 0 minus team 1
    bazzis: tuple[int, int]
    over: bool
    winner: int | None  # the winning team once over; None with over is a draw
    last_step: LedgerStep | None

    def to_dict(self) -> dict[str, Any]:
        """Return the match's standing as JSON-ready data (round-trips through from_dict)."""
        return {
            "format": self.format.to_dict(),
            "rules": self.rules.to_dict(),
            "dealer": self.dealer,
            "deals": self.deals,
            "difference": self.difference,
            "bazzis": list(self.bazzis),
            "over": self.over,
            "winner": self.winner,
            "last_step": None if self.last_step is None else self.last_step.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Any) -> MatchProgress:
        """Return the MatchProgress that ``to_dict`` wrote; raises SeepError if malformed."""
        try:
            step = data["last_step"]
            bazzis = data["bazzis"]
            progress = cls(
                MatchFormat.from_dict(data["format"]),
                Rules.from_dict(data["rules"]),
                data["dealer"],
                data["deals"],
                data["difference"],
                (bazzis[0], bazzis[1]),
                data["over"],
                data["winner"],
                None
                if step is None
                else LedgerStep(step["difference"], step["bazzi"], step["reason"]),
            )
        except (KeyError, TypeError, IndexError) as exc:
            raise SeepError(f"malformed match progress: {exc!r}", code="bad_progress") from exc
        ints = (progress.dealer, progress.deals, progress.difference, *progress.bazzis)
        if not all(type(i) is int for i in ints) or not 0 <= progress.dealer <= 3:
            raise SeepError("malformed match progress: bad numbers", code="bad_progress")
        return progress

    @property
    def draw(self) -> bool:
        """Whether the match ended level."""
        return self.over and self.winner is None

    def after_deal(self, totals: Any) -> MatchProgress:
        """Return the match after a deal with these team totals (L1-L3, R1-R3, M1)."""
        if self.over:
            raise SeepError("the match is over: no more deals", code="match_over", rule="M1")
        step = ledger_step(self.difference, totals, self.rules)
        bazzis = self.bazzis
        if step.bazzi is not None:
            bazzis = (bazzis[0] + 1, bazzis[1]) if step.bazzi == 0 else (bazzis[0], bazzis[1] + 1)
            ahead: int | None = step.bazzi
        else:
            ahead = 0 if step.difference > 0 else 1 if step.difference < 0 else None
        dealer = next_dealer(self.dealer, ahead, step.bazzi is not None)
        deals = self.deals + 1
        over, winner = self._decided(bazzis, step.difference, deals)
        return MatchProgress(
            self.format, self.rules, dealer, deals, step.difference, bazzis, over, winner, step
        )

    def after_adjustment(self, team: int, points: int) -> MatchProgress:
        """Return the match after ``points`` are added to ``team``'s running difference.

        A director's penalty (negative) or bonus, between deals. The lead of L2 applies: a
        lead reaching the bazzi lead wins a bazzi and the difference goes back to zero. No deal
        is counted and the dealer does not change; the format (M1) is checked again.

        >>> m = start_match(0).after_adjustment(1, 120)
        >>> m.bazzis, m.difference, m.over, m.winner
        ((0, 1), 0, True, 1)
        """
        if self.over:
            raise SeepError("the match is over: nothing to adjust", code="match_over", rule="M1")
        if team not in (0, 1) or type(team) is not int:
            raise SeepError(f"a team is 0 or 1, not {team!r}", code="bad_team")
        if type(points) is not int or not -1000 <= points <= 1000 or points == 0:
            raise SeepError(
                f"an adjustment is a whole number from -1000 to 1000, not 0 and not {points!r}",
                code="bad_adjustment",
            )
        difference = self.difference + (points if team == 0 else -points)
        bazzi = (
            0
            if difference >= self.rules.bazzi_lead
            else 1
            if difference <= -self.rules.bazzi_lead
            else None
        )
        step = LedgerStep(
            0 if bazzi is not None else difference, bazzi, "lead" if bazzi is not None else None
        )
        bazzis = self.bazzis
        if bazzi is not None:
            bazzis = (bazzis[0] + 1, bazzis[1]) if bazzi == 0 else (bazzis[0], bazzis[1] + 1)
        over, winner = self._decided(bazzis, step.difference, self.deals, adjustment=True)
        return MatchProgress(
            self.format,
            self.rules,
            self.dealer,
            self.deals,
            step.difference,
            bazzis,
            over,
            winner,
            step,
        )

    def forfeited_by(self, team: int) -> MatchProgress:
        """Return the match ended by ``team``'s forfeit: the other team wins it."""
        if team not in (0, 1) or type(team) is not int:
            raise SeepError(f"a team is 0 or 1, not {team!r}", code="bad_team")
        return self._replace(over=True, winner=1 - team)

    def _decided(
        self, bazzis: tuple[int, int], difference: int, deals: int, *, adjustment: bool = False
    ) -> tuple[bool, int | None]:
        """Return whether the format (M1) ends the match here, and its winner."""
        fmt = self.format
        if fmt.first_to and max(bazzis) >= fmt.bazzis:
            return True, 0 if bazzis[0] > bazzis[1] else 1
        capped = fmt.deal_cap is not None and deals >= fmt.deal_cap and not adjustment
        if (not fmt.first_to and sum(bazzis) >= fmt.bazzis) or capped:
            if bazzis[0] != bazzis[1]:
                return True, 0 if bazzis[0] > bazzis[1] else 1
            if difference:
                return True, 0 if difference > 0 else 1
            if fmt.draws:
                return True, None
        return False, None


def start_match(
    first_dealer: int, fmt: MatchFormat | None = None, rules: Rules | None = None
) -> MatchProgress:
    """Return a match before its first deal.

    >>> m = start_match(0, MatchFormat(bazzis=1)).after_deal([100, 0])
    >>> m.over, m.winner, m.bazzis
    (True, 0, (1, 0))
    """
    if type(first_dealer) is not int or not 0 <= first_dealer <= 3:
        raise SeepError(f"dealer must be a seat 0-3, not {first_dealer!r}", code="bad_seat")
    return MatchProgress(
        fmt or MatchFormat(), rules or DEFAULT_RULES, first_dealer, 0, 0, (0, 0), False, None, None
    )
