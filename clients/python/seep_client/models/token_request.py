from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="TokenRequest")


@_attrs_define
class TokenRequest:
    """A serializer that refuses fields it does not know, instead of ignoring them.

    Attributes:
        name (str):
        tournament (int | None | Unset): A tournament token: the one tournament it may act in.
        club (int | None | Unset): A club token: the club it may act in (its tournaments, making them, its members); a
            club you direct.
        write (bool | Unset): May it change anything?
        expires_in_days (int | Unset): Days it lasts (a token made by a token: no longer than that token). Default: 30.
    """

    name: str
    tournament: int | None | Unset = UNSET
    club: int | None | Unset = UNSET
    write: bool | Unset = UNSET
    expires_in_days: int | Unset = 30
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        tournament: int | None | Unset
        if isinstance(self.tournament, Unset):
            tournament = UNSET
        else:
            tournament = self.tournament

        club: int | None | Unset
        if isinstance(self.club, Unset):
            club = UNSET
        else:
            club = self.club

        write = self.write

        expires_in_days = self.expires_in_days

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
            }
        )
        if tournament is not UNSET:
            field_dict["tournament"] = tournament
        if club is not UNSET:
            field_dict["club"] = club
        if write is not UNSET:
            field_dict["write"] = write
        if expires_in_days is not UNSET:
            field_dict["expires_in_days"] = expires_in_days

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        def _parse_tournament(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        tournament = _parse_tournament(d.pop("tournament", UNSET))

        def _parse_club(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        club = _parse_club(d.pop("club", UNSET))

        write = d.pop("write", UNSET)

        expires_in_days = d.pop("expires_in_days", UNSET)

        token_request = cls(
            name=name,
            tournament=tournament,
            club=club,
            write=write,
            expires_in_days=expires_in_days,
        )

        token_request.additional_properties = d
        return token_request

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
