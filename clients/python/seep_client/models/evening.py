from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Evening")


@_attrs_define
class Evening:
    """
    Attributes:
        tournament (int):
        name (str):
        date (datetime.date):
        team (str):
        place (int | None):
        won (int):
        played (int):
    """

    tournament: int
    name: str
    date: datetime.date
    team: str
    place: int | None
    won: int
    played: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        tournament = self.tournament

        name = self.name

        date = self.date.isoformat()

        team = self.team

        place: int | None
        place = self.place

        won = self.won

        played = self.played

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "tournament": tournament,
                "name": name,
                "date": date,
                "team": team,
                "place": place,
                "won": won,
                "played": played,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        tournament = d.pop("tournament")

        name = d.pop("name")

        date = datetime.date.fromisoformat(d.pop("date"))

        team = d.pop("team")

        def _parse_place(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        place = _parse_place(d.pop("place"))

        won = d.pop("won")

        played = d.pop("played")

        evening = cls(
            tournament=tournament,
            name=name,
            date=date,
            team=team,
            place=place,
            won=won,
            played=played,
        )

        evening.additional_properties = d
        return evening

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
