from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.published_fixture import PublishedFixture


T = TypeVar("T", bound="RoundPublishedEntry")


@_attrs_define
class RoundPublishedEntry:
    """
    Attributes:
        seq (int): Its place in the tournament's results log.
        created_at (datetime.datetime):
        tournament (int):
        stage (int):
        round_ (int): The round's number in its stage.
        name (str):
        fixtures (list[PublishedFixture]):
        kind (str): What happened: the webhook's kind.
    """

    seq: int
    created_at: datetime.datetime
    tournament: int
    stage: int
    round_: int
    name: str
    fixtures: list[PublishedFixture]
    kind: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        seq = self.seq

        created_at = self.created_at.isoformat()

        tournament = self.tournament

        stage = self.stage

        round_ = self.round_

        name = self.name

        fixtures = []
        for fixtures_item_data in self.fixtures:
            fixtures_item = fixtures_item_data.to_dict()
            fixtures.append(fixtures_item)

        kind = self.kind

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "seq": seq,
                "created_at": created_at,
                "tournament": tournament,
                "stage": stage,
                "round": round_,
                "name": name,
                "fixtures": fixtures,
                "kind": kind,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.published_fixture import PublishedFixture

        d = dict(src_dict)
        seq = d.pop("seq")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        tournament = d.pop("tournament")

        stage = d.pop("stage")

        round_ = d.pop("round")

        name = d.pop("name")

        fixtures = []
        _fixtures = d.pop("fixtures")
        for fixtures_item_data in _fixtures:
            fixtures_item = PublishedFixture.from_dict(fixtures_item_data)

            fixtures.append(fixtures_item)

        kind = d.pop("kind")

        round_published_entry = cls(
            seq=seq,
            created_at=created_at,
            tournament=tournament,
            stage=stage,
            round_=round_,
            name=name,
            fixtures=fixtures,
            kind=kind,
        )

        round_published_entry.additional_properties = d
        return round_published_entry

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
