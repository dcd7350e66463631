from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchedRoundEditRequest")


@_attrs_define
class PatchedRoundEditRequest:
    """A serializer that refuses fields it does not know, instead of ignoring them.

    Attributes:
        swap_teams (list[int] | Unset): Two team ids of the draft: they change places.
        swap_tables (list[int] | Unset): Two table numbers of the draft: their fixtures change tables.
        force (bool | Unset): Make the edit even if it breaks a pairing constraint. Default: False.
    """

    swap_teams: list[int] | Unset = UNSET
    swap_tables: list[int] | Unset = UNSET
    force: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        swap_teams: list[int] | Unset = UNSET
        if not isinstance(self.swap_teams, Unset):
            swap_teams = self.swap_teams

        swap_tables: list[int] | Unset = UNSET
        if not isinstance(self.swap_tables, Unset):
            swap_tables = self.swap_tables

        force = self.force

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if swap_teams is not UNSET:
            field_dict["swap_teams"] = swap_teams
        if swap_tables is not UNSET:
            field_dict["swap_tables"] = swap_tables
        if force is not UNSET:
            field_dict["force"] = force

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        swap_teams = cast(list[int], d.pop("swap_teams", UNSET))

        swap_tables = cast(list[int], d.pop("swap_tables", UNSET))

        force = d.pop("force", UNSET)

        patched_round_edit_request = cls(
            swap_teams=swap_teams,
            swap_tables=swap_tables,
            force=force,
        )

        patched_round_edit_request.additional_properties = d
        return patched_round_edit_request

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
