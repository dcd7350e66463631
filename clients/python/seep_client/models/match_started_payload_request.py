from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="MatchStartedPayloadRequest")


@_attrs_define
class MatchStartedPayloadRequest:
    """A serializer that refuses fields it does not know, instead of ignoring them.

    Attributes:
        first_dealer (int | Unset):
    """

    first_dealer: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        first_dealer = self.first_dealer

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if first_dealer is not UNSET:
            field_dict["first_dealer"] = first_dealer

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        first_dealer = d.pop("first_dealer", UNSET)

        match_started_payload_request = cls(
            first_dealer=first_dealer,
        )

        match_started_payload_request.additional_properties = d
        return match_started_payload_request

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
