from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="StageStartedScorekeepersItemType1")


@_attrs_define
class StageStartedScorekeepersItemType1:
    """The member of the club whose account it is.

    Attributes:
        member (int):
    """

    member: int

    def to_dict(self) -> dict[str, Any]:
        member = self.member

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "member": member,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        member = d.pop("member")

        stage_started_scorekeepers_item_type_1 = cls(
            member=member,
        )

        return stage_started_scorekeepers_item_type_1
