from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="StandingsChangedEntry")


@_attrs_define
class StandingsChangedEntry:
    """
    Attributes:
        seq (int): Its place in the tournament's results log.
        created_at (datetime.datetime):
        tournament (int):
        stage (int):
        rounds (list[int]): The rounds whose tables changed (0: the seeding).
        as_of_round (int): The last of them: the table is as of it (a webhook's ``rows``; a results log entry carries no
            table: GET /stages/{id}/standings/?round=as_of_round).
        kind (str): What happened: the webhook's kind.
    """

    seq: int
    created_at: datetime.datetime
    tournament: int
    stage: int
    rounds: list[int]
    as_of_round: int
    kind: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        seq = self.seq

        created_at = self.created_at.isoformat()

        tournament = self.tournament

        stage = self.stage

        rounds = self.rounds

        as_of_round = self.as_of_round

        kind = self.kind

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "seq": seq,
                "created_at": created_at,
                "tournament": tournament,
                "stage": stage,
                "rounds": rounds,
                "as_of_round": as_of_round,
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

        rounds = cast(list[int], d.pop("rounds"))

        as_of_round = d.pop("as_of_round")

        kind = d.pop("kind")

        standings_changed_entry = cls(
            seq=seq,
            created_at=created_at,
            tournament=tournament,
            stage=stage,
            rounds=rounds,
            as_of_round=as_of_round,
            kind=kind,
        )

        standings_changed_entry.additional_properties = d
        return standings_changed_entry

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
