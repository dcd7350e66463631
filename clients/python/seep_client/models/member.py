from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.member_user_type_1 import MemberUserType1


T = TypeVar("T", bound="Member")


@_attrs_define
class Member:
    """A member of a club. ``contact`` is shown to the club's directors only (anyone else who
    sees the member gets null).

        Attributes:
            id (int):
            club (int):
            name (str):
            contact (None | str | Unset): A phone number or e-mail, to tell two members of one name apart (its directors
                only).
            user (int | MemberUserType1 | None | Unset): The account they sign in with, if any (one of the club's people:
                its directors, its members' accounts, yours). A member plays without one.
    """

    id: int
    club: int
    name: str
    contact: None | str | Unset = UNSET
    user: int | MemberUserType1 | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.member_user_type_1 import MemberUserType1

        id = self.id

        club = self.club

        name = self.name

        contact: None | str | Unset
        if isinstance(self.contact, Unset):
            contact = UNSET
        else:
            contact = self.contact

        user: dict[str, Any] | int | None | Unset
        if isinstance(self.user, Unset):
            user = UNSET
        elif isinstance(self.user, MemberUserType1):
            user = self.user.to_dict()
        else:
            user = self.user

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "club": club,
                "name": name,
            }
        )
        if contact is not UNSET:
            field_dict["contact"] = contact
        if user is not UNSET:
            field_dict["user"] = user

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.member_user_type_1 import MemberUserType1

        d = dict(src_dict)
        id = d.pop("id")

        club = d.pop("club")

        name = d.pop("name")

        def _parse_contact(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        contact = _parse_contact(d.pop("contact", UNSET))

        def _parse_user(data: object) -> int | MemberUserType1 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                user_type_1 = MemberUserType1.from_dict(data)

                return user_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(int | MemberUserType1 | None | Unset, data)

        user = _parse_user(d.pop("user", UNSET))

        member = cls(
            id=id,
            club=club,
            name=name,
            contact=contact,
            user=user,
        )

        member.additional_properties = d
        return member

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
