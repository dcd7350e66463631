from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.player_enum import PlayerEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="TeamTokenRequestRequest")


@_attrs_define
class TeamTokenRequestRequest:
    """The body of ``POST /teams/{id}/token/``: how long the token lasts, and the player it
    is bound to, if any (nothing else).

        Attributes:
            expires_in_days (int | Unset): How long it lasts, in days: 1 to 30. Default: 1.
            player (PlayerEnum | Unset): * `first` - first
                * `second` - second
    """

    expires_in_days: int | Unset = 1
    player: PlayerEnum | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        expires_in_days = self.expires_in_days

        player: str | Unset = UNSET
        if not isinstance(self.player, Unset):
            player = self.player.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if expires_in_days is not UNSET:
            field_dict["expires_in_days"] = expires_in_days
        if player is not UNSET:
            field_dict["player"] = player

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        expires_in_days = d.pop("expires_in_days", UNSET)

        _player = d.pop("player", UNSET)
        player: PlayerEnum | Unset
        if isinstance(_player, Unset):
            player = UNSET
        else:
            player = PlayerEnum(_player)

        team_token_request_request = cls(
            expires_in_days=expires_in_days,
            player=player,
        )

        team_token_request_request.additional_properties = d
        return team_token_request_request

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
