from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.player_enum import PlayerEnum

T = TypeVar("T", bound="TeamTokenMade")


@_attrs_define
class TeamTokenMade:
    """
    Attributes:
        token (str): Shown once: keep it secret.
        team (int):
        player (None | PlayerEnum): The player it is bound to; null: the team's token.

            * `first` - first
            * `second` - second
        expiry (datetime.datetime):
    """

    token: str
    team: int
    player: None | PlayerEnum
    expiry: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        token = self.token

        team = self.team

        player: None | str
        if isinstance(self.player, PlayerEnum):
            player = self.player.value
        else:
            player = self.player

        expiry = self.expiry.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "token": token,
                "team": team,
                "player": player,
                "expiry": expiry,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        token = d.pop("token")

        team = d.pop("team")

        def _parse_player(data: object) -> None | PlayerEnum:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                player_type_0 = PlayerEnum(data)

                return player_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PlayerEnum, data)

        player = _parse_player(d.pop("player"))

        expiry = datetime.datetime.fromisoformat(d.pop("expiry"))

        team_token_made = cls(
            token=token,
            team=team,
            player=player,
            expiry=expiry,
        )

        team_token_made.additional_properties = d
        return team_token_made

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
