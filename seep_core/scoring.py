"""Deal scores (E2), the running difference and bazzis (L1-L3), and the next dealer (R1-R3)."""

from __future__ import annotations

from typing import Any, NamedTuple

from .cards import mask_points
from .errors import SeepError
from .rules import DEFAULT_RULES, Rules
from .state import Deal
from .table import TableDeal


def score(deal: Deal | TableDeal) -> dict[str, list[Any]]:
    """Return each team's card points, sweeps and total (E2) for the cards captured so far.

    Once the deal is over the leftovers are in the last capturer's pile (E1), so this is the
    deal's score.
    """
    pts = [mask_points(deal.piles[0]), mask_points(deal.piles[1])]
    sweeps = [list(deal.sweeps[0]), list(deal.sweeps[1])]
    return {
        "points": pts,
        "sweeps": sweeps,
        "total": [pts[0] + sum(sweeps[0]), pts[1] + sum(sweeps[1])],
    }


class LedgerStep(NamedTuple):
    """The running difference after one deal (team 0 minus team 1) and the bazzi it won."""

    difference: int
    bazzi: int | None
    reason: str | None

    def to_dict(self) -> dict[str, Any]:
        """Return the step in its JSON form (docs/engine.md "Ledger")."""
        return {"difference": self.difference, "bazzi": self.bazzi, "reason": self.reason}


def ledger_step(difference: int, totals: Any, rules: Rules = DEFAULT_RULES) -> LedgerStep:
    """Return the running difference after a deal with these team totals (L1-L3)."""
    a, b = _totals(totals)
    minimum = rules.minimum
    if a < minimum and b < minimum:
        raise SeepError(
            f"both teams under the minimum {minimum} (L3): a deal's card points alone are 100",
            code="bad_totals",
            rule="L3",
        )
    if a < minimum:
        return LedgerStep(0, 1, "minimum")
    if b < minimum:
        return LedgerStep(0, 0, "minimum")
    difference += a - b
    if difference >= rules.bazzi_lead:
        return LedgerStep(0, 0, "lead")
    if difference <= -rules.bazzi_lead:
        return LedgerStep(0, 1, "lead")
    return LedgerStep(difference, None, None)


def ledger(totals: Any, rules: Rules | None = None) -> list[dict[str, Any]]:
    """Return the running difference and bazzis deal by deal over deal totals (L1-L3).

    >>> ledger([[60, 40], [90, 10], [5, 95]])
    [{'difference': 20, 'bazzi': None, 'reason': None}, \
{'difference': 0, 'bazzi': 0, 'reason': 'lead'}, \
{'difference': 0, 'bazzi': 1, 'reason': 'minimum'}]
    """
    if not isinstance(totals, list | tuple):
        raise SeepError("totals is a list of [team 0, team 1] deal totals", code="bad_totals")
    rules = rules or DEFAULT_RULES
    difference = 0
    steps = []
    for pair in totals:
        step = ledger_step(difference, pair, rules)
        difference = step.difference
        steps.append(step.to_dict())
    return steps


def next_dealer(dealer: int, ahead: int | None, bazzi: bool) -> int:
    """Return the next deal's dealer (R1-R3).

    ``ahead`` is the team ahead on the running difference after the deal (None: level), or
    after a bazzi the team that won it.

    >>> next_dealer(3, ahead=0, bazzi=False), next_dealer(3, ahead=1, bazzi=False)
    (3, 0)
    >>> next_dealer(3, ahead=1, bazzi=True)
    2
    """
    if type(dealer) is not int or not 0 <= dealer <= 3:
        raise SeepError(f"dealer must be a seat 0-3, not {dealer!r}", code="bad_seat")
    if ahead is not None and (type(ahead) is not int or ahead not in (0, 1)):
        raise SeepError(f"ahead must be team 0, 1 or None, not {ahead!r}", code="bad_team")
    if not isinstance(bazzi, bool):
        raise SeepError(f"bazzi must be true or false, not {bazzi!r}", code="bad_team")
    if bazzi and ahead is None:
        raise SeepError("after a bazzi, ahead is the team that won it", code="bad_team", rule="R3")
    chosen = (dealer + 1) % 4 if ahead == dealer % 2 else dealer
    return (chosen + 2) % 4 if bazzi else chosen


def _totals(totals: Any) -> tuple[int, int]:
    if (
        not isinstance(totals, list | tuple)
        or len(totals) != 2
        or not all(type(t) is int and t >= 0 for t in totals)
    ):
        raise SeepError(
            f"deal totals are two whole numbers >= 0, not {totals!r}", code="bad_totals"
        )
    return totals[0], totals[1]
