from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Notice")


@_attrs_define
class Notice:
    """
    Attributes:
        id (int):
        stage (int):
        fixture (int | None):
        code (str):
        message (str):
        created_at (datetime.datetime):
        resolved_at (datetime.datetime | None):
    """

    id: int
    stage: int
    fixture: int | None
    code: str
    message: str
    created_at: datetime.datetime
    resolved_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        stage = self.stage

        fixture: int | None
        fixture = self.fixture

        code = self.code

        message = self.message

        created_at = self.created_at.isoformat()

        resolved_at: None | str
        if isinstance(self.resolved_at, datetime.datetime):
            resolved_at = self.resolved_at.isoformat()
        else:
            resolved_at = self.resolved_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "stage": stage,
                "fixture": fixture,
                "code": code,
                "message": message,
                "created_at": created_at,
                "resolved_at": resolved_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        stage = d.pop("stage")

        def _parse_fixture(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        fixture = _parse_fixture(d.pop("fixture"))

        code = d.pop("code")

        message = d.pop("message")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_resolved_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                resolved_at_type_0 = datetime.datetime.fromisoformat(data)

                return resolved_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        resolved_at = _parse_resolved_at(d.pop("resolved_at"))

        notice = cls(
            id=id,
            stage=stage,
            fixture=fixture,
            code=code,
            message=message,
            created_at=created_at,
            resolved_at=resolved_at,
        )

        notice.additional_properties = d
        return notice

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
