from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="DealRejectedPayloadRequest")


@_attrs_define
class DealRejectedPayloadRequest:
    """A serializer that refuses fields it does not know, instead of ignoring them.

    Attributes:
        entry (int): The entry's number within its deal (1, 2...: the deal's first entry, its second), as GET
            /matches/{id}/state/ lists it under entries; not a seq.
        reason (str):
        points (list[int] | Unset): Your own version of the card points, for the director.
        sweeps (list[list[int]] | Unset):
    """

    entry: int
    reason: str
    points: list[int] | Unset = UNSET
    sweeps: list[list[int]] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        entry = self.entry

        reason = self.reason

        points: list[int] | Unset = UNSET
        if not isinstance(self.points, Unset):
            points = self.points

        sweeps: list[list[int]] | Unset = UNSET
        if not isinstance(self.sweeps, Unset):
            sweeps = []
            for sweeps_item_data in self.sweeps:
                sweeps_item = sweeps_item_data

                sweeps.append(sweeps_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "entry": entry,
                "reason": reason,
            }
        )
        if points is not UNSET:
            field_dict["points"] = points
        if sweeps is not UNSET:
            field_dict["sweeps"] = sweeps

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        entry = d.pop("entry")

        reason = d.pop("reason")

        points = cast(list[int], d.pop("points", UNSET))

        _sweeps = d.pop("sweeps", UNSET)
        sweeps: list[list[int]] | Unset = UNSET
        if _sweeps is not UNSET:
            sweeps = []
            for sweeps_item_data in _sweeps:
                sweeps_item = cast(list[int], sweeps_item_data)

                sweeps.append(sweeps_item)

        deal_rejected_payload_request = cls(
            entry=entry,
            reason=reason,
            points=points,
            sweeps=sweeps,
        )

        deal_rejected_payload_request.additional_properties = d
        return deal_rejected_payload_request

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
