from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="TournamentChangedEntry")


@_attrs_define
class TournamentChangedEntry:
    """
    Attributes:
        seq (int): Its place in the tournament's results log.
        created_at (datetime.datetime):
        tournament (int):
        name (str):
        slug (str): Its address: /t/<slug>/.
        published (bool):
        date (datetime.date | None):
        place (None | str):
        kind (str): What happened: the webhook's kind.
    """

    seq: int
    created_at: datetime.datetime
    tournament: int
    name: str
    slug: str
    published: bool
    date: datetime.date | None
    place: None | str
    kind: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        seq = self.seq

        created_at = self.created_at.isoformat()

        tournament = self.tournament

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

        kind = self.kind

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "seq": seq,
                "created_at": created_at,
                "tournament": tournament,
                "name": name,
                "slug": slug,
                "published": published,
                "date": date,
                "place": place,
                "kind": kind,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        seq = d.pop("seq")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        tournament = d.pop("tournament")

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

        kind = d.pop("kind")

        tournament_changed_entry = cls(
            seq=seq,
            created_at=created_at,
            tournament=tournament,
            name=name,
            slug=slug,
            published=published,
            date=date,
            place=place,
            kind=kind,
        )

        tournament_changed_entry.additional_properties = d
        return tournament_changed_entry

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
