"""The variants a tournament may choose (docs/rules.md V1-V5); ``Rules()`` is the default game."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, TypeVar

from .errors import InvalidRules, SeepError

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

_Options = TypeVar("_Options", bound="DataclassInstance")


class Options:
    """What ``Rules`` and ``MatchFormat`` share: plain values, written as a match records them."""

    __slots__: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Return the options as a JSON-ready dict (what a match records)."""
        # Their fields are plain values: no deep copy (dataclasses.asdict's) is needed.
        return {name: getattr(self, name) for name in self.__slots__}


@dataclass(frozen=True, slots=True)
class Rules(Options):
    """The variants a match is played under. ``Rules()`` is the game of docs/rules.md as written.

    >>> Rules().minimum, Rules(minimum=0).minimum
    (9, 0)
    """

    #: V1: a sweep (W1), a sweep on the first play, a sweep on the last play (W2)
    sweep: int = 50
    first_sweep: int = 25
    last_sweep: int = 0
    #: V2: the minimum deal score of L3; 0 turns the rule off
    minimum: int = 9
    #: V3: the running lead that wins a bazzi (L2)
    bazzi_lead: int = 100
    #: V4: loose sets of a house's value join it automatically (maximal, player choosing)
    auto_join_sets: bool = False
    #: V5: at most this many houses on the floor (None: no limit beyond H3)
    max_houses: int | None = None

    def __post_init__(self) -> None:
        for name in ("sweep", "first_sweep", "last_sweep"):
            _check_int(name, getattr(self, name), 0, 1000, "V1")
        _check_int("minimum", self.minimum, 0, 50, "V2")
        _check_int("bazzi_lead", self.bazzi_lead, 1, 10_000, "V3")
        if not isinstance(self.auto_join_sets, bool):
            raise InvalidRules("auto_join_sets (V4) must be true or false", code="bad_rules")
        if self.max_houses is not None:
            _check_int("max_houses", self.max_houses, 1, 5, "V5")

    @classmethod
    def from_dict(cls, data: Any) -> Rules:
        """Return the Rules recorded in ``data``; missing keys take the default."""
        return options_from_dict(
            cls, data, InvalidRules, "bad_rules", "rules must be an object", "rule variant"
        )


def options_from_dict(
    cls: type[_Options], data: Any, error: type[SeepError], code: str, shape: str, what: str
) -> _Options:
    """Return the options (a dataclass: ``Rules``, ``MatchFormat``) recorded in ``data``.

    None is the defaults, and a key ``data`` lacks takes the default; anything but an object
    of known keys is refused with ``error``: ``shape`` says what ``data`` must be, ``what``
    names one of its keys.
    """
    if data is None:
        return cls()
    if not isinstance(data, dict):
        raise error(shape, code=code)
    unknown = sorted(set(data) - {f.name for f in fields(cls)})
    if unknown:
        raise error(f"unknown {what}(s): {', '.join(unknown)}", code=code)
    return cls(**data)


def _check_int(name: str, value: object, low: int, high: int, rule: str) -> None:
    if type(value) is not int or not low <= value <= high:
        raise InvalidRules(
            f"{name} ({rule}) must be a whole number from {low} to {high}, not {value!r}",
            code="bad_rules",
        )


DEFAULT_RULES = Rules()
