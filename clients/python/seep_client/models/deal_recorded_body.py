from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.deal_recorded_body_kind import DealRecordedBodyKind

T = TypeVar("T", bound="DealRecordedBody")


@_attrs_define
class DealRecordedBody:
    """What every delivery's body holds, whatever its kind (the signature covers it all).

    Attributes:
        id (int): The delivery's id (also in Seep-Delivery).
        created_at (datetime.datetime):
        kind (DealRecordedBodyKind): * `match.completed` - match.completed
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
        dealer (int):
        points (list[int]): By side.
        sweeps (list[Any]): By side.
        total (list[int]): By side.
        running_difference (int):
        bazzi (int | None):
        bazzis (list[int]): By side.
    """

    id: int
    created_at: datetime.datetime
    kind: DealRecordedBodyKind
    tournament: int
    seq: int
    match: int
    deal: int
    dealer: int
    points: list[int]
    sweeps: list[Any]
    total: list[int]
    running_difference: int
    bazzi: int | None
    bazzis: list[int]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        created_at = self.created_at.isoformat()

        kind = self.kind.value

        tournament = self.tournament

        seq = self.seq

        match = self.match

        deal = self.deal

        dealer = self.dealer

        points = self.points

        sweeps = self.sweeps

        total = self.total

        running_difference = self.running_difference

        bazzi: int | None
        bazzi = self.bazzi

        bazzis = self.bazzis

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
                "dealer": dealer,
                "points": points,
                "sweeps": sweeps,
                "total": total,
                "running_difference": running_difference,
                "bazzi": bazzi,
                "bazzis": bazzis,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        kind = DealRecordedBodyKind(d.pop("kind"))

        tournament = d.pop("tournament")

        seq = d.pop("seq")

        match = d.pop("match")

        deal = d.pop("deal")

        dealer = d.pop("dealer")

        points = cast(list[int], d.pop("points"))

        sweeps = cast(list[Any], d.pop("sweeps"))

        total = cast(list[int], d.pop("total"))

        running_difference = d.pop("running_difference")

        def _parse_bazzi(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        bazzi = _parse_bazzi(d.pop("bazzi"))

        bazzis = cast(list[int], d.pop("bazzis"))

        deal_recorded_body = cls(
            id=id,
            created_at=created_at,
            kind=kind,
            tournament=tournament,
            seq=seq,
            match=match,
            deal=deal,
            dealer=dealer,
            points=points,
            sweeps=sweeps,
            total=total,
            running_difference=running_difference,
            bazzi=bazzi,
            bazzis=bazzis,
        )

        deal_recorded_body.additional_properties = d
        return deal_recorded_body

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
