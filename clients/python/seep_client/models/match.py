from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.confirmation_enum import ConfirmationEnum
from ..models.match_status_enum import MatchStatusEnum
from ..models.mode_enum import ModeEnum

if TYPE_CHECKING:
    from ..models.match_result import MatchResult
    from ..models.side import Side
    from ..models.team_ref import TeamRef


T = TypeVar("T", bound="Match")


@_attrs_define
class Match:
    """
    Attributes:
        id (int):
        tournament (int):
        stage (int | None):
        round_ (int | None):
        table (int | None):
        sides (list[Side]): The match's two sides, side 0 first (docs/api.md, "One vocabulary").
        team0 (TeamRef):
        team1 (TeamRef):
        mode (ModeEnum): * `digital` - digital (the server deals)
            * `table` - table (every move recorded at a physical table)
            * `score` - score (each deal's result entered)
        confirmation (ConfirmationEnum): * `none` - no confirmation
            * `other_team` - the other team confirms
            * `both_enter` - both teams enter, matching entries count
        status (MatchStatusEnum): * `scheduled` - scheduled
            * `in_progress` - in progress
            * `finished` - finished
            * `called_off` - called off
        rules (Any):
        match_format (Any): How long the match lasts (M1); blank takes the tournament's format.
        first_dealer (int | None):
        last_seq (int):
        last_hash (str):
        created_at (datetime.datetime):
        result (MatchResult | None):
    """

    id: int
    tournament: int
    stage: int | None
    round_: int | None
    table: int | None
    sides: list[Side]
    team0: TeamRef
    team1: TeamRef
    mode: ModeEnum
    confirmation: ConfirmationEnum
    status: MatchStatusEnum
    rules: Any
    match_format: Any
    first_dealer: int | None
    last_seq: int
    last_hash: str
    created_at: datetime.datetime
    result: MatchResult | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.match_result import MatchResult

        id = self.id

        tournament = self.tournament

        stage: int | None
        stage = self.stage

        round_: int | None
        round_ = self.round_

        table: int | None
        table = self.table

        sides = []
        for sides_item_data in self.sides:
            sides_item = sides_item_data.to_dict()
            sides.append(sides_item)

        team0 = self.team0.to_dict()

        team1 = self.team1.to_dict()

        mode = self.mode.value

        confirmation = self.confirmation.value

        status = self.status.value

        rules = self.rules

        match_format = self.match_format

        first_dealer: int | None
        first_dealer = self.first_dealer

        last_seq = self.last_seq

        last_hash = self.last_hash

        created_at = self.created_at.isoformat()

        result: dict[str, Any] | None
        if isinstance(self.result, MatchResult):
            result = self.result.to_dict()
        else:
            result = self.result

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "tournament": tournament,
                "stage": stage,
                "round": round_,
                "table": table,
                "sides": sides,
                "team0": team0,
                "team1": team1,
                "mode": mode,
                "confirmation": confirmation,
                "status": status,
                "rules": rules,
                "match_format": match_format,
                "first_dealer": first_dealer,
                "last_seq": last_seq,
                "last_hash": last_hash,
                "created_at": created_at,
                "result": result,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.match_result import MatchResult
        from ..models.side import Side
        from ..models.team_ref import TeamRef

        d = dict(src_dict)
        id = d.pop("id")

        tournament = d.pop("tournament")

        def _parse_stage(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        stage = _parse_stage(d.pop("stage"))

        def _parse_round_(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        round_ = _parse_round_(d.pop("round"))

        def _parse_table(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        table = _parse_table(d.pop("table"))

        sides = []
        _sides = d.pop("sides")
        for sides_item_data in _sides:
            sides_item = Side.from_dict(sides_item_data)

            sides.append(sides_item)

        team0 = TeamRef.from_dict(d.pop("team0"))

        team1 = TeamRef.from_dict(d.pop("team1"))

        mode = ModeEnum(d.pop("mode"))

        confirmation = ConfirmationEnum(d.pop("confirmation"))

        status = MatchStatusEnum(d.pop("status"))

        rules = d.pop("rules")

        match_format = d.pop("match_format")

        def _parse_first_dealer(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        first_dealer = _parse_first_dealer(d.pop("first_dealer"))

        last_seq = d.pop("last_seq")

        last_hash = d.pop("last_hash")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_result(data: object) -> MatchResult | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                result_type_0 = MatchResult.from_dict(data)

                return result_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MatchResult | None, data)

        result = _parse_result(d.pop("result"))

        match = cls(
            id=id,
            tournament=tournament,
            stage=stage,
            round_=round_,
            table=table,
            sides=sides,
            team0=team0,
            team1=team1,
            mode=mode,
            confirmation=confirmation,
            status=status,
            rules=rules,
            match_format=match_format,
            first_dealer=first_dealer,
            last_seq=last_seq,
            last_hash=last_hash,
            created_at=created_at,
            result=result,
        )

        match.additional_properties = d
        return match

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
