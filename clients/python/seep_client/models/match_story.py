from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.rating_fields import RatingFields
    from ..models.seat import Seat


T = TypeVar("T", bound="MatchStory")


@_attrs_define
class MatchStory:
    """
    Attributes:
        match (int):
        finished_at (datetime.datetime):
        result (str): won, drew or lost
        before (RatingFields):
        after (RatingFields):
        moved (float): after.conservative - before.conservative.
        expected (float | None): The member's side's chance to win by the model: Phi((sum mu - sum mu of the opponents)
            / sqrt(2 beta^2 + the four sigma^2)); null when one of the others hides their rating (the chance would give it
            away).
        actual (float): 1 won, 0.5 drew, 0 lost.
        partner (Seat):
        opponents (list[Seat]):
    """

    match: int
    finished_at: datetime.datetime
    result: str
    before: RatingFields
    after: RatingFields
    moved: float
    expected: float | None
    actual: float
    partner: Seat
    opponents: list[Seat]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        match = self.match

        finished_at = self.finished_at.isoformat()

        result = self.result

        before = self.before.to_dict()

        after = self.after.to_dict()

        moved = self.moved

        expected: float | None
        expected = self.expected

        actual = self.actual

        partner = self.partner.to_dict()

        opponents = []
        for opponents_item_data in self.opponents:
            opponents_item = opponents_item_data.to_dict()
            opponents.append(opponents_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "match": match,
                "finished_at": finished_at,
                "result": result,
                "before": before,
                "after": after,
                "moved": moved,
                "expected": expected,
                "actual": actual,
                "partner": partner,
                "opponents": opponents,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.rating_fields import RatingFields
        from ..models.seat import Seat

        d = dict(src_dict)
        match = d.pop("match")

        finished_at = datetime.datetime.fromisoformat(d.pop("finished_at"))

        result = d.pop("result")

        before = RatingFields.from_dict(d.pop("before"))

        after = RatingFields.from_dict(d.pop("after"))

        moved = d.pop("moved")

        def _parse_expected(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        expected = _parse_expected(d.pop("expected"))

        actual = d.pop("actual")

        partner = Seat.from_dict(d.pop("partner"))

        opponents = []
        _opponents = d.pop("opponents")
        for opponents_item_data in _opponents:
            opponents_item = Seat.from_dict(opponents_item_data)

            opponents.append(opponents_item)

        match_story = cls(
            match=match,
            finished_at=finished_at,
            result=result,
            before=before,
            after=after,
            moved=moved,
            expected=expected,
            actual=actual,
            partner=partner,
            opponents=opponents,
        )

        match_story.additional_properties = d
        return match_story

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
