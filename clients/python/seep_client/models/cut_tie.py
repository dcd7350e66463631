from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.cut_decision import CutDecision


T = TypeVar("T", bound="CutTie")


@_attrs_define
class CutTie:
    """Teams level on every tie-break across a stage's cut line.

    Attributes:
        tie (str): The tie's name, to decide it by.
        group (int | None):
        place (int):
        teams (list[int]):
        through (int): How many of the tied teams go through.
        decision (CutDecision | None):
    """

    tie: str
    group: int | None
    place: int
    teams: list[int]
    through: int
    decision: CutDecision | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.cut_decision import CutDecision

        tie = self.tie

        group: int | None
        group = self.group

        place = self.place

        teams = self.teams

        through = self.through

        decision: dict[str, Any] | None
        if isinstance(self.decision, CutDecision):
            decision = self.decision.to_dict()
        else:
            decision = self.decision

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "tie": tie,
                "group": group,
                "place": place,
                "teams": teams,
                "through": through,
                "decision": decision,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.cut_decision import CutDecision

        d = dict(src_dict)
        tie = d.pop("tie")

        def _parse_group(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        group = _parse_group(d.pop("group"))

        place = d.pop("place")

        teams = cast(list[int], d.pop("teams"))

        through = d.pop("through")

        def _parse_decision(data: object) -> CutDecision | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                decision_type_0 = CutDecision.from_dict(data)

                return decision_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CutDecision | None, data)

        decision = _parse_decision(d.pop("decision"))

        cut_tie = cls(
            tie=tie,
            group=group,
            place=place,
            teams=teams,
            through=through,
            decision=decision,
        )

        cut_tie.additional_properties = d
        return cut_tie

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
