from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.member_ref import MemberRef
    from ..models.rating_fields import RatingFields


T = TypeVar("T", bound="Partnership")


@_attrs_define
class Partnership:
    """
    Attributes:
        member (MemberRef):
        rating (RatingFields):
    """

    member: MemberRef
    rating: RatingFields
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        member = self.member.to_dict()

        rating = self.rating.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
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
        member = MemberRef.from_dict(d.pop("member"))

        rating = RatingFields.from_dict(d.pop("rating"))

        partnership = cls(
            member=member,
            rating=rating,
        )

        partnership.additional_properties = d
        return partnership

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
