from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.method_enum import MethodEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="CutDecideRequest")


@_attrs_define
class CutDecideRequest:
    """A serializer that refuses fields it does not know, instead of ignoring them.

    Attributes:
        tie (str): The tie's name (``tie`` of a tie).
        method (MethodEnum): * `lot` - lot
            * `order` - order
        order (list[int] | Unset): With method order: the tied teams' ids, the highest first, each once.
    """

    tie: str
    method: MethodEnum
    order: list[int] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        tie = self.tie

        method = self.method.value

        order: list[int] | Unset = UNSET
        if not isinstance(self.order, Unset):
            order = self.order

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "tie": tie,
                "method": method,
            }
        )
        if order is not UNSET:
            field_dict["order"] = order

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        tie = d.pop("tie")

        method = MethodEnum(d.pop("method"))

        order = cast(list[int], d.pop("order", UNSET))

        cut_decide_request = cls(
            tie=tie,
            method=method,
            order=order,
        )

        cut_decide_request.additional_properties = d
        return cut_decide_request

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
