from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.tournament_changed_body_kind import TournamentChangedBodyKind

T = TypeVar("T", bound="TournamentChangedBody")


@_attrs_define
class TournamentChangedBody:
    """What every delivery's body holds, whatever its kind (the signature covers it all).

    Attributes:
        id (int): The delivery's id (also in Seep-Delivery).
        created_at (datetime.datetime):
        kind (TournamentChangedBodyKind): * `match.completed` - match.completed
            * `match.reopened` - match.reopened
            * `match.made` - match.made
            * `fixture.filled` - fixture.filled
            * `deal.recorded` - deal.recorded
            * `deal.corrected` - deal.corrected
            * `deal.voided` - deal.voided
            * `round.published` - round.published
            * `round.unpublished` - round.unpublished
            * `standings.changed` - standings.changed
            * `tournament.changed` - tournament.changed
            * `team.changed` - team.changed
        tournament (int):
        seq (int): The happening's place in the tournament's results log: one delivery per subscription and seq (a retry
            repeats its id and seq: drop what you have seen).
        name (str):
        slug (str): Its address: /t/<slug>/.
        published (bool):
        date (datetime.date | None):
        place (None | str):
    """

    id: int
    created_at: datetime.datetime
    kind: TournamentChangedBodyKind
    tournament: int
    seq: int
    name: str
    slug: str
    published: bool
    date: datetime.date | None
    place: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        created_at = self.created_at.isoformat()

        kind = self.kind.value

        tournament = self.tournament

        seq = self.seq

        name = self.name

        slug = self.slug

        published = self.published

        date: None | str
        if isinstance(self.date, datetime.date):
            date = self.date.isoformat()
        else:
            date = self.date

        place: None | str
        place = self.place

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "created_at": created_at,
                "kind": kind,
                "tournament": tournament,
                "seq": seq,
                "name": name,
                "slug": slug,
                "published": published,
                "date": date,
                "place": place,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        kind = TournamentChangedBodyKind(d.pop("kind"))

        tournament = d.pop("tournament")

        seq = d.pop("seq")

        name = d.pop("name")

        slug = d.pop("slug")

        published = d.pop("published")

        def _parse_date(data: object) -> datetime.date | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                date_type_0 = datetime.date.fromisoformat(data)

                return date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None, data)

        date = _parse_date(d.pop("date"))

        def _parse_place(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        place = _parse_place(d.pop("place"))

        tournament_changed_body = cls(
            id=id,
            created_at=created_at,
            kind=kind,
            tournament=tournament,
            seq=seq,
            name=name,
            slug=slug,
            published=published,
            date=date,
            place=place,
        )

        tournament_changed_body.additional_properties = d
        return tournament_changed_body

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
