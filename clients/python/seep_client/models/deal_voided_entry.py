from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.deal_fields import DealFields


T = TypeVar("T", bound="DealVoidedEntry")


@_attrs_define
class DealVoidedEntry:
    """
    Attributes:
        seq (int): Its place in the tournament's results log.
        created_at (datetime.datetime):
        tournament (int):
        match (int):
        deal (int):
        replaced (DealFields): A deal's result as it stood (what a correction replaced).
        kind (str): What happened: the webhook's kind.
    """

    seq: int
    created_at: datetime.datetime
    tournament: int
    match: int
    deal: int
    replaced: DealFields
    kind: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        seq = self.seq

        created_at = self.created_at.isoformat()

        tournament = self.tournament

        match = self.match

        deal = self.deal

        replaced = self.replaced.to_dict()

        kind = self.kind

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "seq": seq,
                "created_at": created_at,
                "tournament": tournament,
                "match": match,
                "deal": deal,
                "replaced": replaced,
                "kind": kind,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.deal_fields import DealFields

        d = dict(src_dict)
        seq = d.pop("seq")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        tournament = d.pop("tournament")

        match = d.pop("match")

        deal = d.pop("deal")

        replaced = DealFields.from_dict(d.pop("replaced"))

        kind = d.pop("kind")

        deal_voided_entry = cls(
            seq=seq,
            created_at=created_at,
            tournament=tournament,
            match=match,
            deal=deal,
            replaced=replaced,
            kind=kind,
        )

        deal_voided_entry.additional_properties = d
        return deal_voided_entry

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
