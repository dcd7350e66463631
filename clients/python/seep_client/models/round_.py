from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.round_status_enum import RoundStatusEnum

if TYPE_CHECKING:
    from ..models.fixture import Fixture


T = TypeVar("T", bound="Round")


@_attrs_define
class Round:
    """
    Attributes:
        id (int):
        stage (int):
        number (int):
        name (str):
        part (str): In a bracket: main, winners, losers, final...
        status (RoundStatusEnum): * `draft` - draft
            * `published` - published
            * `complete` - complete
        published_at (datetime.datetime | None):
        completed_at (datetime.datetime | None):
        pairing (Any):
        receipts (Any):
        fixtures (list[Fixture]):
    """

    id: int
    stage: int
    number: int
    name: str
    part: str
    status: RoundStatusEnum
    published_at: datetime.datetime | None
    completed_at: datetime.datetime | None
    pairing: Any
    receipts: Any
    fixtures: list[Fixture]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        stage = self.stage

        number = self.number

        name = self.name

        part = self.part

        status = self.status.value

        published_at: None | str
        if isinstance(self.published_at, datetime.datetime):
            published_at = self.published_at.isoformat()
        else:
            published_at = self.published_at

        completed_at: None | str
        if isinstance(self.completed_at, datetime.datetime):
            completed_at = self.completed_at.isoformat()
        else:
            completed_at = self.completed_at

        pairing = self.pairing

        receipts = self.receipts

        fixtures = []
        for fixtures_item_data in self.fixtures:
            fixtures_item = fixtures_item_data.to_dict()
            fixtures.append(fixtures_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "stage": stage,
                "number": number,
                "name": name,
                "part": part,
                "status": status,
                "published_at": published_at,
                "completed_at": completed_at,
                "pairing": pairing,
                "receipts": receipts,
                "fixtures": fixtures,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.fixture import Fixture

        d = dict(src_dict)
        id = d.pop("id")

        stage = d.pop("stage")

        number = d.pop("number")

        name = d.pop("name")

        part = d.pop("part")

        status = RoundStatusEnum(d.pop("status"))

        def _parse_published_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                published_at_type_0 = datetime.datetime.fromisoformat(data)

                return published_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        published_at = _parse_published_at(d.pop("published_at"))

        def _parse_completed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                completed_at_type_0 = datetime.datetime.fromisoformat(data)

                return completed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        completed_at = _parse_completed_at(d.pop("completed_at"))

        pairing = d.pop("pairing")

        receipts = d.pop("receipts")

        fixtures = []
        _fixtures = d.pop("fixtures")
        for fixtures_item_data in _fixtures:
            fixtures_item = Fixture.from_dict(fixtures_item_data)

            fixtures.append(fixtures_item)

        round_ = cls(
            id=id,
            stage=stage,
            number=number,
            name=name,
            part=part,
            status=status,
            published_at=published_at,
            completed_at=completed_at,
            pairing=pairing,
            receipts=receipts,
            fixtures=fixtures,
        )

        round_.additional_properties = d
        return round_

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
