from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.kinds_enum import KindsEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookRequest")


@_attrs_define
class WebhookRequest:
    """A serializer that refuses fields it does not know, instead of ignoring them.

    Attributes:
        tournament (int): A tournament the caller directs.
        url (str):
        kinds (list[KindsEnum]):
        active (bool | Unset): Off: paused, nothing is sent.
    """

    tournament: int
    url: str
    kinds: list[KindsEnum]
    active: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        tournament = self.tournament

        url = self.url

        kinds = []
        for kinds_item_data in self.kinds:
            kinds_item = kinds_item_data.value
            kinds.append(kinds_item)

        active = self.active

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "tournament": tournament,
                "url": url,
                "kinds": kinds,
            }
        )
        if active is not UNSET:
            field_dict["active"] = active

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        tournament = d.pop("tournament")

        url = d.pop("url")

        kinds = []
        _kinds = d.pop("kinds")
        for kinds_item_data in _kinds:
            kinds_item = KindsEnum(kinds_item_data)

            kinds.append(kinds_item)

        active = d.pop("active", UNSET)

        webhook_request = cls(
            tournament=tournament,
            url=url,
            kinds=kinds,
            active=active,
        )

        webhook_request.additional_properties = d
        return webhook_request

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
