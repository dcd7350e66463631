from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.seeded_by_ratings_ratings import SeededByRatingsRatings


T = TypeVar("T", bound="SeededByRatings")


@_attrs_define
class SeededByRatings:
    """
    Attributes:
        measure (str):
        teams (int):
        seeded_at (datetime.datetime):
        ratings (SeededByRatingsRatings): Each team's rating now (by team id), in hundredths.
    """

    measure: str
    teams: int
    seeded_at: datetime.datetime
    ratings: SeededByRatingsRatings
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        measure = self.measure

        teams = self.teams

        seeded_at = self.seeded_at.isoformat()

        ratings = self.ratings.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "measure": measure,
                "teams": teams,
                "seeded_at": seeded_at,
                "ratings": ratings,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.seeded_by_ratings_ratings import SeededByRatingsRatings

        d = dict(src_dict)
        measure = d.pop("measure")

        teams = d.pop("teams")

        seeded_at = datetime.datetime.fromisoformat(d.pop("seeded_at"))

        ratings = SeededByRatingsRatings.from_dict(d.pop("ratings"))

        seeded_by_ratings = cls(
            measure=measure,
            teams=teams,
            seeded_at=seeded_at,
            ratings=ratings,
        )

        seeded_by_ratings.additional_properties = d
        return seeded_by_ratings

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
