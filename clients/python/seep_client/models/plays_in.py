from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PlaysIn")


@_attrs_define
class PlaysIn:
    """A stage a team plays in, and the first round it plays there.

    Attributes:
        stage (int): The stage's id.
        name (str): The stage's name.
        from_round (int | None): The first round the team plays in it (a late entry's: the round it joins, with 0
            points); null: the stage has not started, and the team enters when it does.
    """

    stage: int
    name: str
    from_round: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        stage = self.stage

        name = self.name

        from_round: int | None
        from_round = self.from_round

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "stage": stage,
                "name": name,
                "from_round": from_round,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        stage = d.pop("stage")

        name = d.pop("name")

        def _parse_from_round(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        from_round = _parse_from_round(d.pop("from_round"))

        plays_in = cls(
            stage=stage,
            name=name,
            from_round=from_round,
        )

        plays_in.additional_properties = d
        return plays_in

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
