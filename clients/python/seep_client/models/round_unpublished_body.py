from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.round_unpublished_body_kind import RoundUnpublishedBodyKind

T = TypeVar("T", bound="RoundUnpublishedBody")


@_attrs_define
class RoundUnpublishedBody:
    """What every delivery's body holds, whatever its kind (the signature covers it all).

    Attributes:
        id (int): The delivery's id (also in Seep-Delivery).
        created_at (datetime.datetime):
        kind (RoundUnpublishedBodyKind): * `match.completed` - match.completed
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
        stage (int):
        round_ (int): The round's number in its stage.
        name (str):
        called_off (list[int]): The matches called off (a bracket is taken back whole: every round's).
    """

    id: int
    created_at: datetime.datetime
    kind: RoundUnpublishedBodyKind
    tournament: int
    seq: int
    stage: int
    round_: int
    name: str
    called_off: list[int]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        created_at = self.created_at.isoformat()

        kind = self.kind.value

        tournament = self.tournament

        seq = self.seq

        stage = self.stage

        round_ = self.round_

        name = self.name

        called_off = self.called_off

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "created_at": created_at,
                "kind": kind,
                "tournament": tournament,
                "seq": seq,
                "stage": stage,
                "round": round_,
                "name": name,
                "called_off": called_off,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        kind = RoundUnpublishedBodyKind(d.pop("kind"))

        tournament = d.pop("tournament")

        seq = d.pop("seq")

        stage = d.pop("stage")

        round_ = d.pop("round")

        name = d.pop("name")

        called_off = cast(list[int], d.pop("called_off"))

        round_unpublished_body = cls(
            id=id,
            created_at=created_at,
            kind=kind,
            tournament=tournament,
            seq=seq,
            stage=stage,
            round_=round_,
            name=name,
            called_off=called_off,
        )

        round_unpublished_body.additional_properties = d
        return round_unpublished_body

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
