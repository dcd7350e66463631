from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.match_reopened_body_kind import MatchReopenedBodyKind

if TYPE_CHECKING:
    from ..models.head import Head
    from ..models.side import Side


T = TypeVar("T", bound="MatchReopenedBody")


@_attrs_define
class MatchReopenedBody:
    """What every delivery's body holds, whatever its kind (the signature covers it all).

    Attributes:
        id (int): The delivery's id (also in Seep-Delivery).
        created_at (datetime.datetime):
        kind (MatchReopenedBodyKind): * `match.completed` - match.completed
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
        match (int):
        sides (list[Side]): The match's two sides, side 0 first (docs/api.md, "One vocabulary").
        bazzis (list[int]): By side.
        difference (int):
        deals (int):
        head (Head):
    """

    id: int
    created_at: datetime.datetime
    kind: MatchReopenedBodyKind
    tournament: int
    seq: int
    match: int
    sides: list[Side]
    bazzis: list[int]
    difference: int
    deals: int
    head: Head
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        created_at = self.created_at.isoformat()

        kind = self.kind.value

        tournament = self.tournament

        seq = self.seq

        match = self.match

        sides = []
        for sides_item_data in self.sides:
            sides_item = sides_item_data.to_dict()
            sides.append(sides_item)

        bazzis = self.bazzis

        difference = self.difference

        deals = self.deals

        head = self.head.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "created_at": created_at,
                "kind": kind,
                "tournament": tournament,
                "seq": seq,
                "match": match,
                "sides": sides,
                "bazzis": bazzis,
                "difference": difference,
                "deals": deals,
                "head": head,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.head import Head
        from ..models.side import Side

        d = dict(src_dict)
        id = d.pop("id")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        kind = MatchReopenedBodyKind(d.pop("kind"))

        tournament = d.pop("tournament")

        seq = d.pop("seq")

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

        match_reopened_body = cls(
            id=id,
            created_at=created_at,
            kind=kind,
            tournament=tournament,
            seq=seq,
            match=match,
            sides=sides,
            bazzis=bazzis,
            difference=difference,
            deals=deals,
            head=head,
        )

        match_reopened_body.additional_properties = d
        return match_reopened_body

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
