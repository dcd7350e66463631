from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.rule_enum import RuleEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchedSeasonRequest")


@_attrs_define
class PatchedSeasonRequest:
    """A club's season: its dates, how its evenings score (``rule``, ``points``) and how many
    of each member's evenings count (``best``).

    A body of the wrong shape (not a date, not a list of whole numbers) is 400 ``invalid``; a
    value a season refuses, 422 ``bad_season`` (docs/seasons.md).

        Attributes:
            name (str | Unset): 1 to 200 characters.
            starts_on (datetime.date | Unset):
            ends_on (datetime.date | Unset):
            rule (RuleEnum | Unset): * `places` - points per place each evening
                * `wins` - points per match won
            points (list[int] | Unset): places: the points of the 1st, 2nd... place; wins: one number, per match won (1 to
                64 whole numbers from 0 to 10,000).
            best (int | None | Unset): Only each member's best N evenings count, 1 to 1000 (null: all).
    """

    name: str | Unset = UNSET
    starts_on: datetime.date | Unset = UNSET
    ends_on: datetime.date | Unset = UNSET
    rule: RuleEnum | Unset = UNSET
    points: list[int] | Unset = UNSET
    best: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        starts_on: str | Unset = UNSET
        if not isinstance(self.starts_on, Unset):
            starts_on = self.starts_on.isoformat()

        ends_on: str | Unset = UNSET
        if not isinstance(self.ends_on, Unset):
            ends_on = self.ends_on.isoformat()

        rule: str | Unset = UNSET
        if not isinstance(self.rule, Unset):
            rule = self.rule.value

        points: list[int] | Unset = UNSET
        if not isinstance(self.points, Unset):
            points = self.points

        best: int | None | Unset
        if isinstance(self.best, Unset):
            best = UNSET
        else:
            best = self.best

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if starts_on is not UNSET:
            field_dict["starts_on"] = starts_on
        if ends_on is not UNSET:
            field_dict["ends_on"] = ends_on
        if rule is not UNSET:
            field_dict["rule"] = rule
        if points is not UNSET:
            field_dict["points"] = points
        if best is not UNSET:
            field_dict["best"] = best

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name", UNSET)

        _starts_on = d.pop("starts_on", UNSET)
        starts_on: datetime.date | Unset
        if isinstance(_starts_on, Unset):
            starts_on = UNSET
        else:
            starts_on = datetime.date.fromisoformat(_starts_on)

        _ends_on = d.pop("ends_on", UNSET)
        ends_on: datetime.date | Unset
        if isinstance(_ends_on, Unset):
            ends_on = UNSET
        else:
            ends_on = datetime.date.fromisoformat(_ends_on)

        _rule = d.pop("rule", UNSET)
        rule: RuleEnum | Unset
        if isinstance(_rule, Unset):
            rule = UNSET
        else:
            rule = RuleEnum(_rule)

        points = cast(list[int], d.pop("points", UNSET))

        def _parse_best(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        best = _parse_best(d.pop("best", UNSET))

        patched_season_request = cls(
            name=name,
            starts_on=starts_on,
            ends_on=ends_on,
            rule=rule,
            points=points,
            best=best,
        )

        patched_season_request.additional_properties = d
        return patched_season_request

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
