from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="StageStartRequest")


@_attrs_define
class StageStartRequest:
    """What a start may say: the registered teams not checked in that it starts without.

    Attributes:
        not_checked_in (list[int] | Unset): The ids of the registered teams not checked in that you start without (as
            the desk's confirmation names them; at most 1,024). Given, the start is refused (409 not_checked_in, naming
            them) while another registered team that has not withdrawn is not checked in. Left out: the stage starts without
            whoever is not checked in, and the answer's not_checked_in says who.
    """

    not_checked_in: list[int] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        not_checked_in: list[int] | Unset = UNSET
        if not isinstance(self.not_checked_in, Unset):
            not_checked_in = self.not_checked_in

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if not_checked_in is not UNSET:
            field_dict["not_checked_in"] = not_checked_in

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        not_checked_in = cast(list[int], d.pop("not_checked_in", UNSET))

        stage_start_request = cls(
            not_checked_in=not_checked_in,
        )

        stage_start_request.additional_properties = d
        return stage_start_request

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
