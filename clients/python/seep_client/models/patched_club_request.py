from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.language_enum import LanguageEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchedClubRequest")


@_attrs_define
class PatchedClubRequest:
    """A serializer that refuses fields it does not know, instead of ignoring them.

    Attributes:
        name (str | Unset):
        time_zone (str | Unset): An IANA time zone name (Asia/Kolkata); its tournaments' pages show times in it. Default
            UTC.
        language (LanguageEnum | Unset): * `en` - en
            * `hi` - hi
            * `pa` - pa
            * `ur` - ur
            * `bn` - bn
    """

    name: str | Unset = UNSET
    time_zone: str | Unset = UNSET
    language: LanguageEnum | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        time_zone = self.time_zone

        language: str | Unset = UNSET
        if not isinstance(self.language, Unset):
            language = self.language.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if time_zone is not UNSET:
            field_dict["time_zone"] = time_zone
        if language is not UNSET:
            field_dict["language"] = language

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name", UNSET)

        time_zone = d.pop("time_zone", UNSET)

        _language = d.pop("language", UNSET)
        language: LanguageEnum | Unset
        if isinstance(_language, Unset):
            language = UNSET
        else:
            language = LanguageEnum(_language)

        patched_club_request = cls(
            name=name,
            time_zone=time_zone,
            language=language,
        )

        patched_club_request.additional_properties = d
        return patched_club_request

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
