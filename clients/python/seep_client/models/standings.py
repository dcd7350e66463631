from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.standing_row import StandingRow


T = TypeVar("T", bound="Standings")


@_attrs_define
class Standings:
    """
    Attributes:
        stage (int):
        as_of_round (int | None):
        rows (list[StandingRow]):
    """

    stage: int
    as_of_round: int | None
    rows: list[StandingRow]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        stage = self.stage

        as_of_round: int | None
        as_of_round = self.as_of_round

        rows = []
        for rows_item_data in self.rows:
            rows_item = rows_item_data.to_dict()
            rows.append(rows_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "stage": stage,
                "as_of_round": as_of_round,
                "rows": rows,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.standing_row import StandingRow

        d = dict(src_dict)
        stage = d.pop("stage")

        def _parse_as_of_round(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        as_of_round = _parse_as_of_round(d.pop("as_of_round"))

        rows = []
        _rows = d.pop("rows")
        for rows_item_data in _rows:
            rows_item = StandingRow.from_dict(rows_item_data)

            rows.append(rows_item)

        standings = cls(
            stage=stage,
            as_of_round=as_of_round,
            rows=rows,
        )

        standings.additional_properties = d
        return standings

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
