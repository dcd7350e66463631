from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RoundUnpublishedEntry")


@_attrs_define
class RoundUnpublishedEntry:
    """
    Attributes:
        seq (int): Its place in the tournament's results log.
        created_at (datetime.datetime):
        tournament (int):
        stage (int):
        round_ (int): The round's number in its stage.
        name (str):
        called_off (list[int]): The matches called off (a bracket is taken back whole: every round's).
        kind (str): What happened: the webhook's kind.
    """

    seq: int
    created_at: datetime.datetime
    tournament: int
    stage: int
    round_: int
    name: str
    called_off: list[int]
    kind: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        seq = self.seq

        created_at = self.created_at.isoformat()

        tournament = self.tournament

        stage = self.stage

        round_ = self.round_

        name = self.name

        called_off = self.called_off

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
                "called_off": called_off,
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

        stage = d.pop("stage")

        round_ = d.pop("round")

        name = d.pop("name")

        called_off = cast(list[int], d.pop("called_off"))

        kind = d.pop("kind")

        round_unpublished_entry = cls(
            seq=seq,
            created_at=created_at,
            tournament=tournament,
            stage=stage,
            round_=round_,
            name=name,
            called_off=called_off,
            kind=kind,
        )

        round_unpublished_entry.additional_properties = d
        return round_unpublished_entry

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
