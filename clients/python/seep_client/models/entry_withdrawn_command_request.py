from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.entry_withdrawn_command_kind_enum import EntryWithdrawnCommandKindEnum

if TYPE_CHECKING:
    from ..models.entry_withdrawn_payload_request import EntryWithdrawnPayloadRequest


T = TypeVar("T", bound="EntryWithdrawnCommandRequest")


@_attrs_define
class EntryWithdrawnCommandRequest:
    """Append a entry_withdrawn command.

    Attributes:
        expected_seq (int):
        kind (EntryWithdrawnCommandKindEnum): * `entry_withdrawn` - entry_withdrawn
        payload (EntryWithdrawnPayloadRequest): Your team's entry taken back, unanswered or disputed: the deal is
            entered again.
    """

    expected_seq: int
    kind: EntryWithdrawnCommandKindEnum
    payload: EntryWithdrawnPayloadRequest
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
        from ..models.entry_withdrawn_payload_request import (
            EntryWithdrawnPayloadRequest,
        )

        d = dict(src_dict)
        expected_seq = d.pop("expected_seq")

        kind = EntryWithdrawnCommandKindEnum(d.pop("kind"))

        payload = EntryWithdrawnPayloadRequest.from_dict(d.pop("payload"))

        entry_withdrawn_command_request = cls(
            expected_seq=expected_seq,
            kind=kind,
            payload=payload,
        )

        entry_withdrawn_command_request.additional_properties = d
        return entry_withdrawn_command_request

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
