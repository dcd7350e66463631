from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ScoreAdjustedPayloadRequest")


@_attrs_define
class ScoreAdjustedPayloadRequest:
    """A serializer that refuses fields it does not know, instead of ignoring them.

    Attributes:
        team (int):
        points (int): Added to the team's side: a bonus, or a penalty.
        reason (str):
    """

    team: int
    points: int
    reason: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        team = self.team

        points = self.points

        reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "team": team,
                "points": points,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        team = d.pop("team")

        points = d.pop("points")

        reason = d.pop("reason")

        score_adjusted_payload_request = cls(
            team=team,
            points=points,
            reason=reason,
        )

        score_adjusted_payload_request.additional_properties = d
        return score_adjusted_payload_request

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
