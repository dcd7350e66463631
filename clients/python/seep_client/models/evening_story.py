from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.match_story import MatchStory
    from ..models.rating_fields import RatingFields


T = TypeVar("T", bound="EveningStory")


@_attrs_define
class EveningStory:
    """
    Attributes:
        tournament (int):
        name (str):
        date (datetime.date):
        before (RatingFields):
        after (RatingFields):
        moved (float): after.conservative - before.conservative.
        expected (float | None): The sum of the matches' expected results (null when one is not shown).
        actual (float): The sum of their results.
        matches (list[MatchStory]):
    """

    tournament: int
    name: str
    date: datetime.date
    before: RatingFields
    after: RatingFields
    moved: float
    expected: float | None
    actual: float
    matches: list[MatchStory]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        tournament = self.tournament

        name = self.name

        date = self.date.isoformat()

        before = self.before.to_dict()

        after = self.after.to_dict()

        moved = self.moved

        expected: float | None
        expected = self.expected

        actual = self.actual

        matches = []
        for matches_item_data in self.matches:
            matches_item = matches_item_data.to_dict()
            matches.append(matches_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "tournament": tournament,
                "name": name,
                "date": date,
                "before": before,
                "after": after,
                "moved": moved,
                "expected": expected,
                "actual": actual,
                "matches": matches,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.match_story import MatchStory
        from ..models.rating_fields import RatingFields

        d = dict(src_dict)
        tournament = d.pop("tournament")

        name = d.pop("name")

        date = datetime.date.fromisoformat(d.pop("date"))

        before = RatingFields.from_dict(d.pop("before"))

        after = RatingFields.from_dict(d.pop("after"))

        moved = d.pop("moved")

        def _parse_expected(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        expected = _parse_expected(d.pop("expected"))

        actual = d.pop("actual")

        matches = []
        _matches = d.pop("matches")
        for matches_item_data in _matches:
            matches_item = MatchStory.from_dict(matches_item_data)

            matches.append(matches_item)

        evening_story = cls(
            tournament=tournament,
            name=name,
            date=date,
            before=before,
            after=after,
            moved=moved,
            expected=expected,
            actual=actual,
            matches=matches,
        )

        evening_story.additional_properties = d
        return evening_story

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
