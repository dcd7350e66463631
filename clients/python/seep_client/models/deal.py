from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.reason_enum import ReasonEnum
from ..models.team_index_enum import TeamIndexEnum

T = TypeVar("T", bound="Deal")


@_attrs_define
class Deal:
    """
    Attributes:
        deal (int): The deal's number in the match, redeals included.
        dealer (int):
        points0 (int):
        points1 (int):
        sweeps0 (Any):
        sweeps1 (Any):
        total0 (int):
        total1 (int):
        difference (int): This deal's total of team 0 minus team 1's.
        running_difference (int): The running difference after the deal, team 0 minus team 1.
        reset (bool): A team scored under the minimum (L3): the bazzi went to the other team whatever the running
            difference, which went back to zero.
        bazzi (None | TeamIndexEnum): The team that won a bazzi in this deal.

            * `0` - team 0
            * `1` - team 1
        reason (None | ReasonEnum):
        bazzis0 (int):
        bazzis1 (int):
        seq (int): The event this result comes from.
    """

    deal: int
    dealer: int
    points0: int
    points1: int
    sweeps0: Any
    sweeps1: Any
    total0: int
    total1: int
    difference: int
    running_difference: int
    reset: bool
    bazzi: None | TeamIndexEnum
    reason: None | ReasonEnum
    bazzis0: int
    bazzis1: int
    seq: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        deal = self.deal

        dealer = self.dealer

        points0 = self.points0

        points1 = self.points1

        sweeps0 = self.sweeps0

        sweeps1 = self.sweeps1

        total0 = self.total0

        total1 = self.total1

        difference = self.difference

        running_difference = self.running_difference

        reset = self.reset

        bazzi: int | None
        if isinstance(self.bazzi, TeamIndexEnum):
            bazzi = self.bazzi.value
        else:
            bazzi = self.bazzi

        reason: None | str
        if isinstance(self.reason, ReasonEnum):
            reason = self.reason.value
        else:
            reason = self.reason

        bazzis0 = self.bazzis0

        bazzis1 = self.bazzis1

        seq = self.seq

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "deal": deal,
                "dealer": dealer,
                "points0": points0,
                "points1": points1,
                "sweeps0": sweeps0,
                "sweeps1": sweeps1,
                "total0": total0,
                "total1": total1,
                "difference": difference,
                "running_difference": running_difference,
                "reset": reset,
                "bazzi": bazzi,
                "reason": reason,
                "bazzis0": bazzis0,
                "bazzis1": bazzis1,
                "seq": seq,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        deal = d.pop("deal")

        dealer = d.pop("dealer")

        points0 = d.pop("points0")

        points1 = d.pop("points1")

        sweeps0 = d.pop("sweeps0")

        sweeps1 = d.pop("sweeps1")

        total0 = d.pop("total0")

        total1 = d.pop("total1")

        difference = d.pop("difference")

        running_difference = d.pop("running_difference")

        reset = d.pop("reset")

        def _parse_bazzi(data: object) -> None | TeamIndexEnum:
            if data is None:
                return data
            try:
                if not isinstance(data, int):
                    raise TypeError()
                bazzi_type_0 = TeamIndexEnum(data)

                return bazzi_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TeamIndexEnum, data)

        bazzi = _parse_bazzi(d.pop("bazzi"))

        def _parse_reason(data: object) -> None | ReasonEnum:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reason_type_0 = ReasonEnum(data)

                return reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ReasonEnum, data)

        reason = _parse_reason(d.pop("reason"))

        bazzis0 = d.pop("bazzis0")

        bazzis1 = d.pop("bazzis1")

        seq = d.pop("seq")

        deal = cls(
            deal=deal,
            dealer=dealer,
            points0=points0,
            points1=points1,
            sweeps0=sweeps0,
            sweeps1=sweeps1,
            total0=total0,
            total1=total1,
            difference=difference,
            running_difference=running_difference,
            reset=reset,
            bazzi=bazzi,
            reason=reason,
            bazzis0=bazzis0,
            bazzis1=bazzis1,
            seq=seq,
        )

        deal.additional_properties = d
        return deal

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
