from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.head import Head
    from ..models.side import Side


T = TypeVar("T", bound="MatchReopenedEntry")


@_attrs_define
class MatchReopenedEntry:
    """
    Attributes:
        seq (int): Its place in the tournament's results log.
        created_at (datetime.datetime):
        tournament (int):
        match (int):
        sides (list[Side]): The match's two sides, side 0 first (docs/api.md, "One vocabulary").
        bazzis (list[int]): By side.
        difference (int):
        deals (int):
        head (Head):
        kind (str): What happened: the webhook's kind.
    """

    seq: int
    created_at: datetime.datetime
    tournament: int
    match: int
    sides: list[Side]
    bazzis: list[int]
    difference: int
    deals: int
    head: Head
    kind: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        seq = self.seq

        created_at = self.created_at.isoformat()

        tournament = self.tournament

        match = self.match

        sides = []
        for sides_item_data in self.sides:
            sides_item = sides_item_data.to_dict()
            sides.append(sides_item)

        bazzis = self.bazzis

        difference = self.difference

        deals = self.deals

        head = self.head.to_dict()

        kind = self.kind

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "seq": seq,
                "created_at": created_at,
                "tournament": tournament,
                "match": match,
                "sides": sides,
                "bazzis": bazzis,
                "difference": difference,
                "deals": deals,
                "head": head,
                "kind": kind,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.head import Head
        from ..models.side import Side

        d = dict(src_dict)
        seq = d.pop("seq")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        tournament = d.pop("tournament")

        match = d.pop("match")

        sides = []
        _sides = d.pop("sides")
        for sides_item_data in _sides:
            sides_item = Side.from_dict(sides_item_data)

            sides.append(sides_item)

        bazzis = cast(list[int], d.pop("bazzis"))

        difference = d.pop("difference")

        deals = d.pop("deals")

        head = Head.from_dict(d.pop("head"))

        kind = d.pop("kind")

        match_reopened_entry = cls(
            seq=seq,
            created_at=created_at,
            tournament=tournament,
            match=match,
            sides=sides,
            bazzis=bazzis,
            difference=difference,
            deals=deals,
            head=head,
            kind=kind,
        )

        match_reopened_entry.additional_properties = d
        return match_reopened_entry

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
