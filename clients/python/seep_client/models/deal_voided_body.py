from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.deal_voided_body_kind import DealVoidedBodyKind

if TYPE_CHECKING:
    from ..models.deal_fields import DealFields


T = TypeVar("T", bound="DealVoidedBody")


@_attrs_define
class DealVoidedBody:
    """What every delivery's body holds, whatever its kind (the signature covers it all).

    Attributes:
        id (int): The delivery's id (also in Seep-Delivery).
        created_at (datetime.datetime):
        kind (DealVoidedBodyKind): * `match.completed` - match.completed
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
        deal (int):
        replaced (DealFields): A deal's result as it stood (what a correction replaced).
    """

    id: int
    created_at: datetime.datetime
    kind: DealVoidedBodyKind
    tournament: int
    seq: int
    match: int
    deal: int
    replaced: DealFields
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        created_at = self.created_at.isoformat()

        kind = self.kind.value

        tournament = self.tournament

        seq = self.seq

        match = self.match

        deal = self.deal

        replaced = self.replaced.to_dict()

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
                "deal": deal,
                "replaced": replaced,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.deal_fields import DealFields

        d = dict(src_dict)
        id = d.pop("id")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        kind = DealVoidedBodyKind(d.pop("kind"))

        tournament = d.pop("tournament")

        seq = d.pop("seq")

        match = d.pop("match")

        deal = d.pop("deal")

        replaced = DealFields.from_dict(d.pop("replaced"))

        deal_voided_body = cls(
            id=id,
            created_at=created_at,
            kind=kind,
            tournament=tournament,
            seq=seq,
            match=match,
            deal=deal,
            replaced=replaced,
        )

        deal_voided_body.additional_properties = d
        return deal_voided_body

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
