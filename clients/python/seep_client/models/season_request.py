from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.rule_enum import RuleEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="SeasonRequest")


@_attrs_define
class SeasonRequest:
    """A club's season: its dates, how its evenings score (``rule``, ``points``) and how many
    of each member's evenings count (``best``).

    A body of the wrong shape (not a date, not a list of whole numbers) is 400 ``invalid``; a
    value a season refuses, 422 ``bad_season`` (docs/seasons.md).

        Attributes:
            name (str): 1 to 200 characters.
            starts_on (datetime.date):
            ends_on (datetime.date):
            points (list[int]): places: the points of the 1st, 2nd... place; wins: one number, per match won (1 to 64 whole
                numbers from 0 to 10,000).
            rule (RuleEnum | Unset): * `places` - points per place each evening
                * `wins` - points per match won
            best (int | None | Unset): Only each member's best N evenings count, 1 to 1000 (null: all).
    """

    name: str
    starts_on: datetime.date
    ends_on: datetime.date
    points: list[int]
    rule: RuleEnum | Unset = UNSET
    best: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        starts_on = self.starts_on.isoformat()

        ends_on = self.ends_on.isoformat()

        points = self.points

        rule: str | Unset = UNSET
        if not isinstance(self.rule, Unset):
            rule = self.rule.value

        best: int | None | Unset
        if isinstance(self.best, Unset):
            best = UNSET
        else:
            best = self.best

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "starts_on": starts_on,
                "ends_on": ends_on,
                "points": points,
            }
        )
        if rule is not UNSET:
            field_dict["rule"] = rule
        if best is not UNSET:
            field_dict["best"] = best

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        starts_on = datetime.date.fromisoformat(d.pop("starts_on"))

        ends_on = datetime.date.fromisoformat(d.pop("ends_on"))

        points = cast(list[int], d.pop("points"))

        _rule = d.pop("rule", UNSET)
        rule: RuleEnum | Unset
        if isinstance(_rule, Unset):
            rule = UNSET
        else:
            rule = RuleEnum(_rule)

        def _parse_best(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        best = _parse_best(d.pop("best", UNSET))

        season_request = cls(
            name=name,
            starts_on=starts_on,
            ends_on=ends_on,
            points=points,
            rule=rule,
            best=best,
        )

        season_request.additional_properties = d
        return season_request

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
