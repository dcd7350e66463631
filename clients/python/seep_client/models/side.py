from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Side")


@_attrs_define
class Side:
    """One of a fixture's or a match's two sides, in the one vocabulary of the API (docs/api.md):
    ``sides`` is always two of these, side 0 first; a side is named by its index elsewhere
    (``winner_side``, an entry's ``side``, the first of every pair of numbers).

        Attributes:
            side (int): 0: the team at seats 0 and 2 (the match's team 0, the fixture's first); 1: the team at seats 1 and
                3.
            id (int | None): The team's id: null while it is not known (a bracket slot waiting for a result) or for the
                missing side of a bye.
            name (None | str): The team's name.
            source (None | str): Where the team comes from in a bracket ("Seed 3", "winner of QF1"), or null.
    """

    side: int
    id: int | None
    name: None | str
    source: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        side = self.side

        id: int | None
        id = self.id

        name: None | str
        name = self.name

        source: None | str
        source = self.source

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "side": side,
                "id": id,
                "name": name,
                "source": source,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        side = d.pop("side")

        def _parse_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        id = _parse_id(d.pop("id"))

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))

        def _parse_source(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        source = _parse_source(d.pop("source"))

        side = cls(
            side=side,
            id=id,
            name=name,
            source=source,
        )

        side.additional_properties = d
        return side

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
