from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="VersionAcceptedPayloadRequest")


@_attrs_define
class VersionAcceptedPayloadRequest:
    """Your team's disputed entry given up for the other team's numbers (those it gave when
    it rejected the entry, or its own entry when both sides enter): the deal counts with
    them.

        Attributes:
            entry (int): The entry's number within its deal (1, 2...: the deal's first entry, its second), as GET
                /matches/{id}/state/ lists it under entries; not a seq.
            deal (int | Unset): The deal you mean (the next one); a deal counted already is refused.
    """

    entry: int
    deal: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        entry = self.entry

        deal = self.deal

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "entry": entry,
            }
        )
        if deal is not UNSET:
            field_dict["deal"] = deal

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        entry = d.pop("entry")

        deal = d.pop("deal", UNSET)

        version_accepted_payload_request = cls(
            entry=entry,
            deal=deal,
        )

        version_accepted_payload_request.additional_properties = d
        return version_accepted_payload_request

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
