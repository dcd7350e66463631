from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.language_enum import LanguageEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.user_ref import UserRef


T = TypeVar("T", bound="Club")


@_attrs_define
class Club:
    """A serializer that refuses fields it does not know, instead of ignoring them.

    Attributes:
        id (int):
        name (str):
        slug (str):
        directors (list[UserRef]):
        created_at (datetime.datetime):
        time_zone (str | Unset): An IANA time zone name (Asia/Kolkata); its tournaments' pages show times in it. Default
            UTC.
        language (LanguageEnum | Unset): * `en` - en
            * `hi` - hi
            * `pa` - pa
            * `ur` - ur
            * `bn` - bn
    """

    id: int
    name: str
    slug: str
    directors: list[UserRef]
    created_at: datetime.datetime
    time_zone: str | Unset = UNSET
    language: LanguageEnum | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        slug = self.slug

        directors = []
        for directors_item_data in self.directors:
            directors_item = directors_item_data.to_dict()
            directors.append(directors_item)

        created_at = self.created_at.isoformat()

        time_zone = self.time_zone

        language: str | Unset = UNSET
        if not isinstance(self.language, Unset):
            language = self.language.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "slug": slug,
                "directors": directors,
                "created_at": created_at,
            }
        )
        if time_zone is not UNSET:
            field_dict["time_zone"] = time_zone
        if language is not UNSET:
            field_dict["language"] = language

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.user_ref import UserRef

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        slug = d.pop("slug")

        directors = []
        _directors = d.pop("directors")
        for directors_item_data in _directors:
            directors_item = UserRef.from_dict(directors_item_data)

            directors.append(directors_item)

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        time_zone = d.pop("time_zone", UNSET)

        _language = d.pop("language", UNSET)
        language: LanguageEnum | Unset
        if isinstance(_language, Unset):
            language = UNSET
        else:
            language = LanguageEnum(_language)

        club = cls(
            id=id,
            name=name,
            slug=slug,
            directors=directors,
            created_at=created_at,
            time_zone=time_zone,
            language=language,
        )

        club.additional_properties = d
        return club

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
