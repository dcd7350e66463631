from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.move_request import MoveRequest


T = TypeVar("T", bound="MoveWithdrawnPayloadRequest")


@_attrs_define
class MoveWithdrawnPayloadRequest:
    """A table's last play taken back, before the next is recorded (docs/events.md).

    Attributes:
        move (MoveRequest): A move, as docs/engine.md describes it (the engine checks it).
    """

    move: MoveRequest
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        move = self.move.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "move": move,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.move_request import MoveRequest

        d = dict(src_dict)
        move = MoveRequest.from_dict(d.pop("move"))

        move_withdrawn_payload_request = cls(
            move=move,
        )

        move_withdrawn_payload_request.additional_properties = d
        return move_withdrawn_payload_request

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
