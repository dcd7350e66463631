from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.standings_changed_body_kind import StandingsChangedBodyKind

if TYPE_CHECKING:
    from ..models.standing_row import StandingRow


T = TypeVar("T", bound="StandingsChangedBody")


@_attrs_define
class StandingsChangedBody:
    """What every delivery's body holds, whatever its kind (the signature covers it all).

    Attributes:
        id (int): The delivery's id (also in Seep-Delivery).
        created_at (datetime.datetime):
        kind (StandingsChangedBodyKind): * `match.completed` - match.completed
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
        rounds (list[int]): The rounds whose tables changed (0: the seeding).
        as_of_round (int): The last of them: the table is as of it (a webhook's ``rows``; a results log entry carries no
            table: GET /stages/{id}/standings/?round=as_of_round).
        rows (list[StandingRow]): The table, as GET /stages/{id}/standings/?round=as_of_round gives it.
    """

    id: int
    created_at: datetime.datetime
    kind: StandingsChangedBodyKind
    tournament: int
    seq: int
    stage: int
    rounds: list[int]
    as_of_round: int
    rows: list[StandingRow]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        created_at = self.created_at.isoformat()

        kind = self.kind.value

        tournament = self.tournament

        seq = self.seq

        stage = self.stage

        rounds = self.rounds

        as_of_round = self.as_of_round

        rows = []
        for rows_item_data in self.rows:
            rows_item = rows_item_data.to_dict()
            rows.append(rows_item)

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
                "rounds": rounds,
                "as_of_round": as_of_round,
                "rows": rows,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.standing_row import StandingRow

        d = dict(src_dict)
        id = d.pop("id")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        kind = StandingsChangedBodyKind(d.pop("kind"))

        tournament = d.pop("tournament")

        seq = d.pop("seq")

        stage = d.pop("stage")

        rounds = cast(list[int], d.pop("rounds"))

        as_of_round = d.pop("as_of_round")

        rows = []
        _rows = d.pop("rows")
        for rows_item_data in _rows:
            rows_item = StandingRow.from_dict(rows_item_data)

            rows.append(rows_item)

        standings_changed_body = cls(
            id=id,
            created_at=created_at,
            kind=kind,
            tournament=tournament,
            seq=seq,
            stage=stage,
            rounds=rounds,
            as_of_round=as_of_round,
            rows=rows,
        )

        standings_changed_body.additional_properties = d
        return standings_changed_body

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
