from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.team_index_enum import TeamIndexEnum

T = TypeVar("T", bound="MatchResult")


@_attrs_define
class MatchResult:
    """
    Attributes:
        seq (int): The result is the log folded up to this event; it has caught up when it equals the match's last_seq
            (GET ?wait_for_seq=N waits for it).
        deals (int): Deals scored (redeals excluded).
        difference (int): The running difference, team 0 minus team 1 (L1-L3).
        bazzis0 (int):
        bazzis1 (int):
        next_dealer (int | None): The seat dealing the next deal (R1-R3).
        over (bool): The format says the match is over (M1).
        winner_side (int | None): The side that won or went through (0 or 1), or null: not decided, or drawn.
        winner (None | TeamIndexEnum): Deprecated: winner_side (the same side).

            * `0` - team 0
            * `1` - team 1
        draw (bool):
        completed_at (datetime.datetime | None): When the event that ended the match was recorded (none while it is open
            again after a correction).
    """

    seq: int
    deals: int
    difference: int
    bazzis0: int
    bazzis1: int
    next_dealer: int | None
    over: bool
    winner_side: int | None
    winner: None | TeamIndexEnum
    draw: bool
    completed_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        seq = self.seq

        deals = self.deals

        difference = self.difference

        bazzis0 = self.bazzis0

        bazzis1 = self.bazzis1

        next_dealer: int | None
        next_dealer = self.next_dealer

        over = self.over

        winner_side: int | None
        winner_side = self.winner_side

        winner: int | None
        if isinstance(self.winner, TeamIndexEnum):
            winner = self.winner.value
        else:
            winner = self.winner

        draw = self.draw

        completed_at: None | str
        if isinstance(self.completed_at, datetime.datetime):
            completed_at = self.completed_at.isoformat()
        else:
            completed_at = self.completed_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "seq": seq,
                "deals": deals,
                "difference": difference,
                "bazzis0": bazzis0,
                "bazzis1": bazzis1,
                "next_dealer": next_dealer,
                "over": over,
                "winner_side": winner_side,
                "winner": winner,
                "draw": draw,
                "completed_at": completed_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        seq = d.pop("seq")

        deals = d.pop("deals")

        difference = d.pop("difference")

        bazzis0 = d.pop("bazzis0")

        bazzis1 = d.pop("bazzis1")

        def _parse_next_dealer(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        next_dealer = _parse_next_dealer(d.pop("next_dealer"))

        over = d.pop("over")

        def _parse_winner_side(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        winner_side = _parse_winner_side(d.pop("winner_side"))

        def _parse_winner(data: object) -> None | TeamIndexEnum:
            if data is None:
                return data
            try:
                if not isinstance(data, int):
                    raise TypeError()
                winner_type_0 = TeamIndexEnum(data)

                return winner_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TeamIndexEnum, data)

        winner = _parse_winner(d.pop("winner"))

        draw = d.pop("draw")

        def _parse_completed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                completed_at_type_0 = datetime.datetime.fromisoformat(data)

                return completed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        completed_at = _parse_completed_at(d.pop("completed_at"))

        match_result = cls(
            seq=seq,
            deals=deals,
            difference=difference,
            bazzis0=bazzis0,
            bazzis1=bazzis1,
            next_dealer=next_dealer,
            over=over,
            winner_side=winner_side,
            winner=winner,
            draw=draw,
            completed_at=completed_at,
        )

        match_result.additional_properties = d
        return match_result

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
