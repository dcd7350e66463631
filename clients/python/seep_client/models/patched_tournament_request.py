from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.patched_tournament_request_directors_item_type_1 import (
        PatchedTournamentRequestDirectorsItemType1,
    )


T = TypeVar("T", bound="PatchedTournamentRequest")


@_attrs_define
class PatchedTournamentRequest:
    """A serializer that refuses fields it does not know, instead of ignoring them.

    Attributes:
        name (str | Unset):
        slug (str | Unset): Its address, /t/<slug>/ (left out: made from the name). The site's once it is published, its
            club's before: refused (400) if a published tournament or another of its club holds it, and publishing is
            refused while a published one holds it; another club's private tournament never counts.
        club (int | None | Unset): The club it belongs to: one you direct (a club's token: its club). Left out: your
            oldest club (one is made for you if you direct none). Fixed once made.
        directors (list[int | PatchedTournamentRequestDirectorsItemType1] | Unset): The accounts directing with the
            organizer, each by id or as a member ({"member": id}), of the club's people (only the organizer changes them).
        rules (Any | Unset): Rule variants (docs/rules.md V).
        match_format (Any | Unset): Default match format (M1).
        published (bool | Unset): Anyone may follow a published tournament; an unpublished one is seen only by its
            directors, players and score-keepers.
        date (datetime.date | None | Unset): The day it is played (null: undated). A club's evening with a date is rated
            and counted on its ladders on that date, its matches in the order they ended; an undated one, on the club's date
            (its time zone) each match ended (docs/seasons.md).
    """

    name: str | Unset = UNSET
    slug: str | Unset = UNSET
    club: int | None | Unset = UNSET
    directors: list[int | PatchedTournamentRequestDirectorsItemType1] | Unset = UNSET
    rules: Any | Unset = UNSET
    match_format: Any | Unset = UNSET
    published: bool | Unset = UNSET
    date: datetime.date | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.patched_tournament_request_directors_item_type_1 import (
            PatchedTournamentRequestDirectorsItemType1,
        )

        name = self.name

        slug = self.slug

        club: int | None | Unset
        if isinstance(self.club, Unset):
            club = UNSET
        else:
            club = self.club

        directors: list[dict[str, Any] | int] | Unset = UNSET
        if not isinstance(self.directors, Unset):
            directors = []
            for directors_item_data in self.directors:
                directors_item: dict[str, Any] | int
                if isinstance(
                    directors_item_data, PatchedTournamentRequestDirectorsItemType1
                ):
                    directors_item = directors_item_data.to_dict()
                else:
                    directors_item = directors_item_data
                directors.append(directors_item)

        rules = self.rules

        match_format = self.match_format

        published = self.published

        date: None | str | Unset
        if isinstance(self.date, Unset):
            date = UNSET
        elif isinstance(self.date, datetime.date):
            date = self.date.isoformat()
        else:
            date = self.date

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if slug is not UNSET:
            field_dict["slug"] = slug
        if club is not UNSET:
            field_dict["club"] = club
        if directors is not UNSET:
            field_dict["directors"] = directors
        if rules is not UNSET:
            field_dict["rules"] = rules
        if match_format is not UNSET:
            field_dict["match_format"] = match_format
        if published is not UNSET:
            field_dict["published"] = published
        if date is not UNSET:
            field_dict["date"] = date

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.patched_tournament_request_directors_item_type_1 import (
            PatchedTournamentRequestDirectorsItemType1,
        )

        d = dict(src_dict)
        name = d.pop("name", UNSET)

        slug = d.pop("slug", UNSET)

        def _parse_club(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        club = _parse_club(d.pop("club", UNSET))

        _directors = d.pop("directors", UNSET)
        directors: list[int | PatchedTournamentRequestDirectorsItemType1] | Unset = (
            UNSET
        )
        if _directors is not UNSET:
            directors = []
            for directors_item_data in _directors:

                def _parse_directors_item(
                    data: object,
                ) -> int | PatchedTournamentRequestDirectorsItemType1:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        directors_item_type_1 = (
                            PatchedTournamentRequestDirectorsItemType1.from_dict(data)
                        )

                        return directors_item_type_1
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    return cast(int | PatchedTournamentRequestDirectorsItemType1, data)

                directors_item = _parse_directors_item(directors_item_data)

                directors.append(directors_item)

        rules = d.pop("rules", UNSET)

        match_format = d.pop("match_format", UNSET)

        published = d.pop("published", UNSET)

        def _parse_date(data: object) -> datetime.date | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                date_type_0 = datetime.date.fromisoformat(data)

                return date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None | Unset, data)

        date = _parse_date(d.pop("date", UNSET))

        patched_tournament_request = cls(
            name=name,
            slug=slug,
            club=club,
            directors=directors,
            rules=rules,
            match_format=match_format,
            published=published,
            date=date,
        )

        patched_tournament_request.additional_properties = d
        return patched_tournament_request

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
