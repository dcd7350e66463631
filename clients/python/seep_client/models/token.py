from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="Token")


@_attrs_define
class Token:
    """A serializer that refuses fields it does not know, instead of ignoring them.

    Attributes:
        id (int):
        name (str):
        created (datetime.datetime):
        expiry (datetime.datetime | None):
        token_key (str):
        made_by (int | None): The token that made this one, if a token did: revoked, it takes this along.
        token (str): Shown once, when it is made.
        tournament (int | None | Unset): A tournament token: the one tournament it may act in.
        club (int | None | Unset): A club token: the club it may act in (its tournaments, making them, its members); a
            club you direct.
        write (bool | Unset): May it change anything?
    """

    id: int
    name: str
    created: datetime.datetime
    expiry: datetime.datetime | None
    token_key: str
    made_by: int | None
    token: str
    tournament: int | None | Unset = UNSET
    club: int | None | Unset = UNSET
    write: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        created = self.created.isoformat()

        expiry: None | str
        if isinstance(self.expiry, datetime.datetime):
            expiry = self.expiry.isoformat()
        else:
            expiry = self.expiry

        token_key = self.token_key

        made_by: int | None
        made_by = self.made_by

        token = self.token

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

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "created": created,
                "expiry": expiry,
                "token_key": token_key,
                "made_by": made_by,
                "token": token,
            }
        )
        if tournament is not UNSET:
            field_dict["tournament"] = tournament
        if club is not UNSET:
            field_dict["club"] = club
        if write is not UNSET:
            field_dict["write"] = write

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        created = datetime.datetime.fromisoformat(d.pop("created"))

        def _parse_expiry(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expiry_type_0 = datetime.datetime.fromisoformat(data)

                return expiry_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        expiry = _parse_expiry(d.pop("expiry"))

        token_key = d.pop("token_key")

        def _parse_made_by(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        made_by = _parse_made_by(d.pop("made_by"))

        token = d.pop("token")

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

        token = cls(
            id=id,
            name=name,
            created=created,
            expiry=expiry,
            token_key=token_key,
            made_by=made_by,
            token=token,
            tournament=tournament,
            club=club,
            write=write,
        )

        token.additional_properties = d
        return token

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
