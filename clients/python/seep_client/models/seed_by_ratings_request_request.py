from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.measure_enum import MeasureEnum

T = TypeVar("T", bound="SeedByRatingsRequestRequest")


@_attrs_define
class SeedByRatingsRequestRequest:
    """
    Attributes:
        measure (MeasureEnum): * `sum` - the sum of the members' ratings
            * `conservative` - the sum of the members' conservative estimates
    """

    measure: MeasureEnum
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        measure = self.measure.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "measure": measure,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        measure = MeasureEnum(d.pop("measure"))

        seed_by_ratings_request_request = cls(
            measure=measure,
        )

        seed_by_ratings_request_request.additional_properties = d
        return seed_by_ratings_request_request

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
