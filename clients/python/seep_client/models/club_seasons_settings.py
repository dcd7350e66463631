from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ClubSeasonsSettings")


@_attrs_define
class ClubSeasonsSettings:
    """Whether anyone may see the club's ladders, ratings and member pages, and after how
    many rated matches a member's rating is settled (a PATCH changes those it names).

        Attributes:
            public (bool | Unset):
            settled_after (int | Unset): Rated matches after which a rating is no longer provisional: 1 to 1000 (10 unless
                the club chose; outside, 422 bad_season).
    """

    public: bool | Unset = UNSET
    settled_after: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        public = self.public

        settled_after = self.settled_after

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if public is not UNSET:
            field_dict["public"] = public
        if settled_after is not UNSET:
            field_dict["settled_after"] = settled_after

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        public = d.pop("public", UNSET)

        settled_after = d.pop("settled_after", UNSET)

        club_seasons_settings = cls(
            public=public,
            settled_after=settled_after,
        )

        club_seasons_settings.additional_properties = d
        return club_seasons_settings

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
