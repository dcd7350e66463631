from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="LadderPlace")


@_attrs_define
class LadderPlace:
    """
    Attributes:
        season (int):
        name (str):
        rank (int):
        points (int):
    """

    season: int
    name: str
    rank: int
    points: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        season = self.season

        name = self.name

        rank = self.rank

        points = self.points

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "season": season,
                "name": name,
                "rank": rank,
                "points": points,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        season = d.pop("season")

        name = d.pop("name")

        rank = d.pop("rank")

        points = d.pop("points")

        ladder_place = cls(
            season=season,
            name=name,
            rank=rank,
            points=points,
        )

        ladder_place.additional_properties = d
        return ladder_place

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
