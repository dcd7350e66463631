from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.player import Player
    from ..models.plays_in import PlaysIn


T = TypeVar("T", bound="TeamCheckedIn")


@_attrs_define
class TeamCheckedIn:
    """A team just checked in, and where it plays from now.

    Attributes:
        id (int):
        tournament (int):
        name (str):
        players (list[Player]): Exactly two: the first sits at seat 0 or 1.
        checked_in_at (datetime.datetime | None):
        withdrawn_at (datetime.datetime | None):
        plays_in (list[PlaysIn]): Where the team plays from now: each running stage it is in, then the next stage to
            come that takes the registered teams. A check-in after a stage started that no stage can take is refused instead
            (409 late_entry_refused).
        rating (int | None | Unset):
        seed (int | None | Unset):
    """

    id: int
    tournament: int
    name: str
    players: list[Player]
    checked_in_at: datetime.datetime | None
    withdrawn_at: datetime.datetime | None
    plays_in: list[PlaysIn]
    rating: int | None | Unset = UNSET
    seed: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        tournament = self.tournament

        name = self.name

        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)

        checked_in_at: None | str
        if isinstance(self.checked_in_at, datetime.datetime):
            checked_in_at = self.checked_in_at.isoformat()
        else:
            checked_in_at = self.checked_in_at

        withdrawn_at: None | str
        if isinstance(self.withdrawn_at, datetime.datetime):
            withdrawn_at = self.withdrawn_at.isoformat()
        else:
            withdrawn_at = self.withdrawn_at

        plays_in = []
        for plays_in_item_data in self.plays_in:
            plays_in_item = plays_in_item_data.to_dict()
            plays_in.append(plays_in_item)

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

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "tournament": tournament,
                "name": name,
                "players": players,
                "checked_in_at": checked_in_at,
                "withdrawn_at": withdrawn_at,
                "plays_in": plays_in,
            }
        )
        if rating is not UNSET:
            field_dict["rating"] = rating
        if seed is not UNSET:
            field_dict["seed"] = seed

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.player import Player
        from ..models.plays_in import PlaysIn

        d = dict(src_dict)
        id = d.pop("id")

        tournament = d.pop("tournament")

        name = d.pop("name")

        players = []
        _players = d.pop("players")
        for players_item_data in _players:
            players_item = Player.from_dict(players_item_data)

            players.append(players_item)

        def _parse_checked_in_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                checked_in_at_type_0 = datetime.datetime.fromisoformat(data)

                return checked_in_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        checked_in_at = _parse_checked_in_at(d.pop("checked_in_at"))

        def _parse_withdrawn_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                withdrawn_at_type_0 = datetime.datetime.fromisoformat(data)

                return withdrawn_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        withdrawn_at = _parse_withdrawn_at(d.pop("withdrawn_at"))

        plays_in = []
        _plays_in = d.pop("plays_in")
        for plays_in_item_data in _plays_in:
            plays_in_item = PlaysIn.from_dict(plays_in_item_data)

            plays_in.append(plays_in_item)

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

        team_checked_in = cls(
            id=id,
            tournament=tournament,
            name=name,
            players=players,
            checked_in_at=checked_in_at,
            withdrawn_at=withdrawn_at,
            plays_in=plays_in,
            rating=rating,
            seed=seed,
        )

        team_checked_in.additional_properties = d
        return team_checked_in

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
