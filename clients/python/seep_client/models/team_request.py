from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.player_request import PlayerRequest


T = TypeVar("T", bound="TeamRequest")


@_attrs_define
class TeamRequest:
    """A serializer that refuses fields it does not know, instead of ignoring them.

    Attributes:
        name (str):
        players (list[PlayerRequest]): Exactly two: the first sits at seat 0 or 1.
        rating (int | None | Unset):
        seed (int | None | Unset):
        checked_in (bool | Unset):  Default: False.
    """

    name: str
    players: list[PlayerRequest]
    rating: int | None | Unset = UNSET
    seed: int | None | Unset = UNSET
    checked_in: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)

        rating: int | None | Unset
        if isinstance(self.rating, Unset):
            rating = UNSET
        else:
            rating = self.rating

        seed: int | None | Unset
        if isinstance(self.seed, Unset):
            seed = UNSET
        else:
            seed = self.seed

        checked_in = self.checked_in

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "players": players,
            }
        )
        if rating is not UNSET:
            field_dict["rating"] = rating
        if seed is not UNSET:
            field_dict["seed"] = seed
        if checked_in is not UNSET:
            field_dict["checked_in"] = checked_in

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.player_request import PlayerRequest

        d = dict(src_dict)
        name = d.pop("name")

        players = []
        _players = d.pop("players")
        for players_item_data in _players:
            players_item = PlayerRequest.from_dict(players_item_data)

            players.append(players_item)

        def _parse_rating(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rating = _parse_rating(d.pop("rating", UNSET))

        def _parse_seed(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        seed = _parse_seed(d.pop("seed", UNSET))

        checked_in = d.pop("checked_in", UNSET)

        team_request = cls(
            name=name,
            players=players,
            rating=rating,
            seed=seed,
            checked_in=checked_in,
        )

        team_request.additional_properties = d
        return team_request

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
