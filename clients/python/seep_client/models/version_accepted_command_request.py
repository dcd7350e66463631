from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.version_accepted_command_kind_enum import VersionAcceptedCommandKindEnum

if TYPE_CHECKING:
    from ..models.version_accepted_payload_request import VersionAcceptedPayloadRequest


T = TypeVar("T", bound="VersionAcceptedCommandRequest")


@_attrs_define
class VersionAcceptedCommandRequest:
    """Append a version_accepted command.

    Attributes:
        expected_seq (int):
        kind (VersionAcceptedCommandKindEnum): * `version_accepted` - version_accepted
        payload (VersionAcceptedPayloadRequest): Your team's disputed entry given up for the other team's numbers (those
            it gave when
            it rejected the entry, or its own entry when both sides enter): the deal counts with
            them.
    """

    expected_seq: int
    kind: VersionAcceptedCommandKindEnum
    payload: VersionAcceptedPayloadRequest
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        expected_seq = self.expected_seq

        kind = self.kind.value

        payload = self.payload.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "expected_seq": expected_seq,
                "kind": kind,
                "payload": payload,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.version_accepted_payload_request import (
            VersionAcceptedPayloadRequest,
        )

        d = dict(src_dict)
        expected_seq = d.pop("expected_seq")

        kind = VersionAcceptedCommandKindEnum(d.pop("kind"))

        payload = VersionAcceptedPayloadRequest.from_dict(d.pop("payload"))

        version_accepted_command_request = cls(
            expected_seq=expected_seq,
            kind=kind,
            payload=payload,
        )

        version_accepted_command_request.additional_properties = d
        return version_accepted_command_request

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
