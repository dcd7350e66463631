from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.member_ref import MemberRef
    from ..models.rating_fields import RatingFields


T = TypeVar("T", bound="RatedMember")


@_attrs_define
class RatedMember:
    """
    Attributes:
        rank (int): By the conservative estimate: members level on it share a rank ("1, 2, 2, 4").
        member (MemberRef):
        rating (RatingFields):
    """

    rank: int
    member: MemberRef
    rating: RatingFields
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        rank = self.rank

        member = self.member.to_dict()

        rating = self.rating.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "rank": rank,
                "member": member,
                "rating": rating,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.member_ref import MemberRef
        from ..models.rating_fields import RatingFields

        d = dict(src_dict)
        rank = d.pop("rank")

        member = MemberRef.from_dict(d.pop("member"))

        rating = RatingFields.from_dict(d.pop("rating"))

        rated_member = cls(
            rank=rank,
            member=member,
            rating=rating,
        )

        rated_member.additional_properties = d
        return rated_member

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
