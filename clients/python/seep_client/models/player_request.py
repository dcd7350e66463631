from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.player_request_user_type_1 import PlayerRequestUserType1


T = TypeVar("T", bound="PlayerRequest")


@_attrs_define
class PlayerRequest:
    """A player of a team: a member of the tournament's club (``member``), or a name (and an
    account) for the club's member with that account, or else a new member.

        Attributes:
            member (int | Unset): A member of the tournament's club, by id (GET /clubs/{id}/members/).
            name (str | Unset): Without a member: who plays (a new member).
            user (int | None | PlayerRequestUserType1 | Unset): Without a member: the account this player signs in with (to
                play digital moves), one of the club's people: the club's member with it plays.
    """

    member: int | Unset = UNSET
    name: str | Unset = UNSET
    user: int | None | PlayerRequestUserType1 | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.player_request_user_type_1 import PlayerRequestUserType1

        member = self.member

        name = self.name

        user: dict[str, Any] | int | None | Unset
        if isinstance(self.user, Unset):
            user = UNSET
        elif isinstance(self.user, PlayerRequestUserType1):
            user = self.user.to_dict()
        else:
            user = self.user

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if member is not UNSET:
            field_dict["member"] = member
        if name is not UNSET:
            field_dict["name"] = name
        if user is not UNSET:
            field_dict["user"] = user

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.player_request_user_type_1 import PlayerRequestUserType1

        d = dict(src_dict)
        member = d.pop("member", UNSET)

        name = d.pop("name", UNSET)

        def _parse_user(data: object) -> int | None | PlayerRequestUserType1 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                user_type_1 = PlayerRequestUserType1.from_dict(data)

                return user_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(int | None | PlayerRequestUserType1 | Unset, data)

        user = _parse_user(d.pop("user", UNSET))

        player_request = cls(
            member=member,
            name=name,
            user=user,
        )

        player_request.additional_properties = d
        return player_request

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
