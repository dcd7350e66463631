from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.tournament_directors_item_type_1 import TournamentDirectorsItemType1
    from ..models.user_ref import UserRef


T = TypeVar("T", bound="Tournament")


@_attrs_define
class Tournament:
    """A serializer that refuses fields it does not know, instead of ignoring them.

    Attributes:
        id (int):
        name (str):
        slug (str): Its address, /t/<slug>/ (left out: made from the name). The site's once it is published, its club's
            before: refused (400) if a published tournament or another of its club holds it, and publishing is refused while
            a published one holds it; another club's private tournament never counts.
        organizer (UserRef): An account as others see it: its id and its display name, never its user name (half
            of what signs in; docs/api.md, "How an account is shown").
        created_at (datetime.datetime):
        club (int | None | Unset): The club it belongs to: one you direct (a club's token: its club). Left out: your
            oldest club (one is made for you if you direct none). Fixed once made.
        directors (list[int | TournamentDirectorsItemType1] | Unset): The accounts directing with the organizer, each by
            id or as a member ({"member": id}), of the club's people (only the organizer changes them).
        rules (Any | Unset): Rule variants (docs/rules.md V).
        match_format (Any | Unset): Default match format (M1).
        published (bool | Unset): Anyone may follow a published tournament; an unpublished one is seen only by its
            directors, players and score-keepers.
        date (datetime.date | None | Unset): The day it is played (null: undated). A club's evening with a date is rated
            and counted on its ladders on that date, its matches in the order they ended; an undated one, on the club's date
            (its time zone) each match ended (docs/seasons.md).
    """

    id: int
    name: str
    slug: str
    organizer: UserRef
    created_at: datetime.datetime
    club: int | None | Unset = UNSET
    directors: list[int | TournamentDirectorsItemType1] | Unset = UNSET
    rules: Any | Unset = UNSET
    match_format: Any | Unset = UNSET
    published: bool | Unset = UNSET
    date: datetime.date | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.tournament_directors_item_type_1 import (
            TournamentDirectorsItemType1,
        )

        id = self.id

        name = self.name

        slug = self.slug

        organizer = self.organizer.to_dict()

        created_at = self.created_at.isoformat()

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
                if isinstance(directors_item_data, TournamentDirectorsItemType1):
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
        field_dict.update(
            {
                "id": id,
                "name": name,
                "slug": slug,
                "organizer": organizer,
                "created_at": created_at,
            }
        )
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
        from ..models.tournament_directors_item_type_1 import (
            TournamentDirectorsItemType1,
        )
        from ..models.user_ref import UserRef

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        slug = d.pop("slug")

        organizer = UserRef.from_dict(d.pop("organizer"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_club(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        club = _parse_club(d.pop("club", UNSET))

        _directors = d.pop("directors", UNSET)
        directors: list[int | TournamentDirectorsItemType1] | Unset = UNSET
        if _directors is not UNSET:
            directors = []
            for directors_item_data in _directors:

                def _parse_directors_item(
                    data: object,
                ) -> int | TournamentDirectorsItemType1:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        directors_item_type_1 = TournamentDirectorsItemType1.from_dict(
                            data
                        )

                        return directors_item_type_1
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    return cast(int | TournamentDirectorsItemType1, data)

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

        tournament = cls(
            id=id,
            name=name,
            slug=slug,
            organizer=organizer,
            created_at=created_at,
            club=club,
            directors=directors,
            rules=rules,
            match_format=match_format,
            published=published,
            date=date,
        )

        tournament.additional_properties = d
        return tournament

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
