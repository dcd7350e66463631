from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.evening import Evening
    from ..models.evening_story import EveningStory
    from ..models.ladder_place import LadderPlace
    from ..models.member_ref import MemberRef
    from ..models.partner import Partner
    from ..models.partnership import Partnership
    from ..models.rating_change import RatingChange
    from ..models.rating_fields import RatingFields


T = TypeVar("T", bound="MemberRating")


@_attrs_define
class MemberRating:
    """
    Attributes:
        member (MemberRef):
        rating (None | RatingFields):
        rating_hidden (bool): The member keeps their rating from the club's public page and API.
        settled_after (int): Rated matches after which a rating is no longer provisional.
        history (list[RatingChange]):
        story (list[EveningStory]): What each published evening did to the rating, latest first.
        partnerships (list[Partnership]): The pair's own rating, for partners of at least 5 matches together.
        partners (list[Partner]):
        evenings (list[Evening]):
        ladders (list[LadderPlace]):
    """

    member: MemberRef
    rating: None | RatingFields
    rating_hidden: bool
    settled_after: int
    history: list[RatingChange]
    story: list[EveningStory]
    partnerships: list[Partnership]
    partners: list[Partner]
    evenings: list[Evening]
    ladders: list[LadderPlace]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.rating_fields import RatingFields

        member = self.member.to_dict()

        rating: dict[str, Any] | None
        if isinstance(self.rating, RatingFields):
            rating = self.rating.to_dict()
        else:
            rating = self.rating

        rating_hidden = self.rating_hidden

        settled_after = self.settled_after

        history = []
        for history_item_data in self.history:
            history_item = history_item_data.to_dict()
            history.append(history_item)

        story = []
        for story_item_data in self.story:
            story_item = story_item_data.to_dict()
            story.append(story_item)

        partnerships = []
        for partnerships_item_data in self.partnerships:
            partnerships_item = partnerships_item_data.to_dict()
            partnerships.append(partnerships_item)

        partners = []
        for partners_item_data in self.partners:
            partners_item = partners_item_data.to_dict()
            partners.append(partners_item)

        evenings = []
        for evenings_item_data in self.evenings:
            evenings_item = evenings_item_data.to_dict()
            evenings.append(evenings_item)

        ladders = []
        for ladders_item_data in self.ladders:
            ladders_item = ladders_item_data.to_dict()
            ladders.append(ladders_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "member": member,
                "rating": rating,
                "rating_hidden": rating_hidden,
                "settled_after": settled_after,
                "history": history,
                "story": story,
                "partnerships": partnerships,
                "partners": partners,
                "evenings": evenings,
                "ladders": ladders,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.evening import Evening
        from ..models.evening_story import EveningStory
        from ..models.ladder_place import LadderPlace
        from ..models.member_ref import MemberRef
        from ..models.partner import Partner
        from ..models.partnership import Partnership
        from ..models.rating_change import RatingChange
        from ..models.rating_fields import RatingFields

        d = dict(src_dict)
        member = MemberRef.from_dict(d.pop("member"))

        def _parse_rating(data: object) -> None | RatingFields:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                rating_type_0 = RatingFields.from_dict(data)

                return rating_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RatingFields, data)

        rating = _parse_rating(d.pop("rating"))

        rating_hidden = d.pop("rating_hidden")

        settled_after = d.pop("settled_after")

        history = []
        _history = d.pop("history")
        for history_item_data in _history:
            history_item = RatingChange.from_dict(history_item_data)

            history.append(history_item)

        story = []
        _story = d.pop("story")
        for story_item_data in _story:
            story_item = EveningStory.from_dict(story_item_data)

            story.append(story_item)

        partnerships = []
        _partnerships = d.pop("partnerships")
        for partnerships_item_data in _partnerships:
            partnerships_item = Partnership.from_dict(partnerships_item_data)

            partnerships.append(partnerships_item)

        partners = []
        _partners = d.pop("partners")
        for partners_item_data in _partners:
            partners_item = Partner.from_dict(partners_item_data)

            partners.append(partners_item)

        evenings = []
        _evenings = d.pop("evenings")
        for evenings_item_data in _evenings:
            evenings_item = Evening.from_dict(evenings_item_data)

            evenings.append(evenings_item)

        ladders = []
        _ladders = d.pop("ladders")
        for ladders_item_data in _ladders:
            ladders_item = LadderPlace.from_dict(ladders_item_data)

            ladders.append(ladders_item)

        member_rating = cls(
            member=member,
            rating=rating,
            rating_hidden=rating_hidden,
            settled_after=settled_after,
            history=history,
            story=story,
            partnerships=partnerships,
            partners=partners,
            evenings=evenings,
            ladders=ladders,
        )

        member_rating.additional_properties = d
        return member_rating

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
