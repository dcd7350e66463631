from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.score_adjusted_command_kind_enum import ScoreAdjustedCommandKindEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.score_adjusted_payload_request import ScoreAdjustedPayloadRequest


T = TypeVar("T", bound="ScoreAdjustedCommandRequest")


@_attrs_define
class ScoreAdjustedCommandRequest:
    """Append a score_adjusted command.

    Attributes:
        expected_seq (int):
        kind (ScoreAdjustedCommandKindEnum): * `score_adjusted` - score_adjusted
        payload (ScoreAdjustedPayloadRequest): A serializer that refuses fields it does not know, instead of ignoring
            them.
        confirm (bool | Unset): Apply it although it changes a result a later round was built on (after looking at its
            consequences: ?dry_run=true).
    """

    expected_seq: int
    kind: ScoreAdjustedCommandKindEnum
    payload: ScoreAdjustedPayloadRequest
    confirm: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        expected_seq = self.expected_seq

        kind = self.kind.value

        payload = self.payload.to_dict()

        confirm = self.confirm

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "expected_seq": expected_seq,
                "kind": kind,
                "payload": payload,
            }
        )
        if confirm is not UNSET:
            field_dict["confirm"] = confirm

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.score_adjusted_payload_request import ScoreAdjustedPayloadRequest

        d = dict(src_dict)
        expected_seq = d.pop("expected_seq")

        kind = ScoreAdjustedCommandKindEnum(d.pop("kind"))

        payload = ScoreAdjustedPayloadRequest.from_dict(d.pop("payload"))

        confirm = d.pop("confirm", UNSET)

        score_adjusted_command_request = cls(
            expected_seq=expected_seq,
            kind=kind,
            payload=payload,
            confirm=confirm,
        )

        score_adjusted_command_request.additional_properties = d
        return score_adjusted_command_request

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
