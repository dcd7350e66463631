from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.action_enum import ActionEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="MoveRequest")


@_attrs_define
class MoveRequest:
    """A move, as docs/engine.md describes it (the engine checks it).

    Attributes:
        seat (int):
        action (ActionEnum): * `bid` - bid
            * `redeal` - redeal
            * `throw` - throw
            * `capture` - capture
            * `build` - build
        card (str | Unset):
        value (int | Unset):
        take (list[str] | Unset):
    """

    seat: int
    action: ActionEnum
    card: str | Unset = UNSET
    value: int | Unset = UNSET
    take: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        seat = self.seat

        action = self.action.value

        card = self.card

        value = self.value

        take: list[str] | Unset = UNSET
        if not isinstance(self.take, Unset):
            take = self.take

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "seat": seat,
                "action": action,
            }
        )
        if card is not UNSET:
            field_dict["card"] = card
        if value is not UNSET:
            field_dict["value"] = value
        if take is not UNSET:
            field_dict["take"] = take

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        seat = d.pop("seat")

        action = ActionEnum(d.pop("action"))

        card = d.pop("card", UNSET)

        value = d.pop("value", UNSET)

        take = cast(list[str], d.pop("take", UNSET))

        move_request = cls(
            seat=seat,
            action=action,
            card=card,
            value=value,
            take=take,
        )

        move_request.additional_properties = d
        return move_request

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
