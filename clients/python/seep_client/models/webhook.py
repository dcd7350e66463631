from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.kinds_enum import KindsEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="Webhook")


@_attrs_define
class Webhook:
    """A serializer that refuses fields it does not know, instead of ignoring them.

    Attributes:
        id (int):
        tournament (int): A tournament the caller directs.
        url (str):
        kinds (list[KindsEnum]):
        created_at (datetime.datetime):
        active (bool | Unset): Off: paused, nothing is sent.
    """

    id: int
    tournament: int
    url: str
    kinds: list[KindsEnum]
    created_at: datetime.datetime
    active: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        tournament = self.tournament

        url = self.url

        kinds = []
        for kinds_item_data in self.kinds:
            kinds_item = kinds_item_data.value
            kinds.append(kinds_item)

        created_at = self.created_at.isoformat()

        active = self.active

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "tournament": tournament,
                "url": url,
                "kinds": kinds,
                "created_at": created_at,
            }
        )
        if active is not UNSET:
            field_dict["active"] = active

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        tournament = d.pop("tournament")

        url = d.pop("url")

        kinds = []
        _kinds = d.pop("kinds")
        for kinds_item_data in _kinds:
            kinds_item = KindsEnum(kinds_item_data)

            kinds.append(kinds_item)

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        active = d.pop("active", UNSET)

        webhook = cls(
            id=id,
            tournament=tournament,
            url=url,
            kinds=kinds,
            created_at=created_at,
            active=active,
        )

        webhook.additional_properties = d
        return webhook

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
