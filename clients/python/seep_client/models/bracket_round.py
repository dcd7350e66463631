from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.bracket_fixture import BracketFixture


T = TypeVar("T", bound="BracketRound")


@_attrs_define
class BracketRound:
    """
    Attributes:
        number (int):
        name (str):
        part (str):
        status (str):
        fixtures (list[BracketFixture]):
    """

    number: int
    name: str
    part: str
    status: str
    fixtures: list[BracketFixture]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        number = self.number

        name = self.name

        part = self.part

        status = self.status

        fixtures = []
        for fixtures_item_data in self.fixtures:
            fixtures_item = fixtures_item_data.to_dict()
            fixtures.append(fixtures_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "number": number,
                "name": name,
                "part": part,
                "status": status,
                "fixtures": fixtures,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.bracket_fixture import BracketFixture

        d = dict(src_dict)
        number = d.pop("number")

        name = d.pop("name")

        part = d.pop("part")

        status = d.pop("status")

        fixtures = []
        _fixtures = d.pop("fixtures")
        for fixtures_item_data in _fixtures:
            fixtures_item = BracketFixture.from_dict(fixtures_item_data)

            fixtures.append(fixtures_item)

        bracket_round = cls(
            number=number,
            name=name,
            part=part,
            status=status,
            fixtures=fixtures,
        )

        bracket_round.additional_properties = d
        return bracket_round

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
