from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="MemberErasure")


@_attrs_define
class MemberErasure:
    """
    Attributes:
        id (int):
        member (int): The member's id: the row stays.
        club (int):
        label (str): The name shown now ("Erased member 17").
        at (datetime.datetime):
        by_member (bool): The member asked for their own.
    """

    id: int
    member: int
    club: int
    label: str
    at: datetime.datetime
    by_member: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        member = self.member

        club = self.club

        label = self.label

        at = self.at.isoformat()

        by_member = self.by_member

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "member": member,
                "club": club,
                "label": label,
                "at": at,
                "by_member": by_member,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        member = d.pop("member")

        club = d.pop("club")

        label = d.pop("label")

        at = datetime.datetime.fromisoformat(d.pop("at"))

        by_member = d.pop("by_member")

        member_erasure = cls(
            id=id,
            member=member,
            club=club,
            label=label,
            at=at,
            by_member=by_member,
        )

        member_erasure.additional_properties = d
        return member_erasure

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
