from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Dispute")


@_attrs_define
class Dispute:
    """A deal awaiting a director's decision, with every version of it in the log.

    Attributes:
        match (int):
        deal (int):
        entries (list[Any]):
        rejections (list[Any]):
    """

    match: int
    deal: int
    entries: list[Any]
    rejections: list[Any]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        match = self.match

        deal = self.deal

        entries = self.entries

        rejections = self.rejections

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "match": match,
                "deal": deal,
                "entries": entries,
                "rejections": rejections,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        match = d.pop("match")

        deal = d.pop("deal")

        entries = cast(list[Any], d.pop("entries"))

        rejections = cast(list[Any], d.pop("rejections"))

        dispute = cls(
            match=match,
            deal=deal,
            entries=entries,
            rejections=rejections,
        )

        dispute.additional_properties = d
        return dispute

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
