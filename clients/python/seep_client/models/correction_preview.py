from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CorrectionPreview")


@_attrs_define
class CorrectionPreview:
    """What a correction would change (``?dry_run=true``): nothing is written.

    Attributes:
        match (int):
        kind (str):
        result_before (Any):
        result_after (Any):
        standings (list[Any]):
        bracket (list[Any]):
        notices (list[str]):
        fed_later (bool):
        needs_confirmation (bool):
        ratings (list[Any]): The club's members whose rating would change: {key, name, before, after}, each a {member,
            mu, sigma, conservative, matches} or null.
        ladder (list[Any]): The ladder lines that would change, of the seasons holding the evening: {key, name, before,
            after}, each a {season, season_name, member, rank, points} or null.
    """

    match: int
    kind: str
    result_before: Any
    result_after: Any
    standings: list[Any]
    bracket: list[Any]
    notices: list[str]
    fed_later: bool
    needs_confirmation: bool
    ratings: list[Any]
    ladder: list[Any]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        match = self.match

        kind = self.kind

        result_before = self.result_before

        result_after = self.result_after

        standings = self.standings

        bracket = self.bracket

        notices = self.notices

        fed_later = self.fed_later

        needs_confirmation = self.needs_confirmation

        ratings = self.ratings

        ladder = self.ladder

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "match": match,
                "kind": kind,
                "result_before": result_before,
                "result_after": result_after,
                "standings": standings,
                "bracket": bracket,
                "notices": notices,
                "fed_later": fed_later,
                "needs_confirmation": needs_confirmation,
                "ratings": ratings,
                "ladder": ladder,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        match = d.pop("match")

        kind = d.pop("kind")

        result_before = d.pop("result_before")

        result_after = d.pop("result_after")

        standings = cast(list[Any], d.pop("standings"))

        bracket = cast(list[Any], d.pop("bracket"))

        notices = cast(list[str], d.pop("notices"))

        fed_later = d.pop("fed_later")

        needs_confirmation = d.pop("needs_confirmation")

        ratings = cast(list[Any], d.pop("ratings"))

        ladder = cast(list[Any], d.pop("ladder"))

        correction_preview = cls(
            match=match,
            kind=kind,
            result_before=result_before,
            result_after=result_after,
            standings=standings,
            bracket=bracket,
            notices=notices,
            fed_later=fed_later,
            needs_confirmation=needs_confirmation,
            ratings=ratings,
            ladder=ladder,
        )

        correction_preview.additional_properties = d
        return correction_preview

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
