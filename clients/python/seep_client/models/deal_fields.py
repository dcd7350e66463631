from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DealFields")


@_attrs_define
class DealFields:
    """A deal's result as it stood (what a correction replaced).

    Attributes:
        match (int):
        deal (int):
        dealer (int):
        points (list[int]): By side.
        sweeps (list[Any]): By side.
        total (list[int]): By side.
        running_difference (int):
        bazzi (int | None):
        bazzis (list[int]): By side.
    """

    match: int
    deal: int
    dealer: int
    points: list[int]
    sweeps: list[Any]
    total: list[int]
    running_difference: int
    bazzi: int | None
    bazzis: list[int]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        match = self.match

        deal = self.deal

        dealer = self.dealer

        points = self.points

        sweeps = self.sweeps

        total = self.total

        running_difference = self.running_difference

        bazzi: int | None
        bazzi = self.bazzi

        bazzis = self.bazzis

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "match": match,
                "deal": deal,
                "dealer": dealer,
                "points": points,
                "sweeps": sweeps,
                "total": total,
                "running_difference": running_difference,
                "bazzi": bazzi,
                "bazzis": bazzis,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        match = d.pop("match")

        deal = d.pop("deal")

        dealer = d.pop("dealer")

        points = cast(list[int], d.pop("points"))

        sweeps = cast(list[Any], d.pop("sweeps"))

        total = cast(list[int], d.pop("total"))

        running_difference = d.pop("running_difference")

        def _parse_bazzi(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        bazzi = _parse_bazzi(d.pop("bazzi"))

        bazzis = cast(list[int], d.pop("bazzis"))

        deal_fields = cls(
            match=match,
            deal=deal,
            dealer=dealer,
            points=points,
            sweeps=sweeps,
            total=total,
            running_difference=running_difference,
            bazzi=bazzi,
            bazzis=bazzis,
        )

        deal_fields.additional_properties = d
        return deal_fields

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
