from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="StateEntry")


@_attrs_define
class StateEntry:
    """A deal's result entered and not yet counted, with the result's own fields.

    Attributes:
        entry (int): The entry's number in the deal.
        side (int): The side that entered it (0 or 1).
        by (str): Who entered it (the log's actor).
    """

    entry: int
    side: int
    by: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        entry = self.entry

        side = self.side

        by = self.by

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "entry": entry,
                "side": side,
                "by": by,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        entry = d.pop("entry")

        side = d.pop("side")

        by = d.pop("by")

        state_entry = cls(
            entry=entry,
            side=side,
            by=by,
        )

        state_entry.additional_properties = d
        return state_entry

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
