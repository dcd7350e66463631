from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DealCorrectedPayloadRequest")


@_attrs_define
class DealCorrectedPayloadRequest:
    """A serializer that refuses fields it does not know, instead of ignoring them.

    Attributes:
        points (list[int]):
        sweeps (list[list[int]]):
        deal (int): A deal already counted.
        reason (str):
    """

    points: list[int]
    sweeps: list[list[int]]
    deal: int
    reason: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        points = self.points

        sweeps = []
        for sweeps_item_data in self.sweeps:
            sweeps_item = sweeps_item_data

            sweeps.append(sweeps_item)

        deal = self.deal

        reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "points": points,
                "sweeps": sweeps,
                "deal": deal,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        points = cast(list[int], d.pop("points"))

        sweeps = []
        _sweeps = d.pop("sweeps")
        for sweeps_item_data in _sweeps:
            sweeps_item = cast(list[int], sweeps_item_data)

            sweeps.append(sweeps_item)

        deal = d.pop("deal")

        reason = d.pop("reason")

        deal_corrected_payload_request = cls(
            points=points,
            sweeps=sweeps,
            deal=deal,
            reason=reason,
        )

        deal_corrected_payload_request.additional_properties = d
        return deal_corrected_payload_request

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
