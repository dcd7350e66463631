from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="StateProgress")


@_attrs_define
class StateProgress:
    """Where a match stands: deals, bazzis, whether it is over and who won.

    Attributes:
        dealer (int): The seat (0-3) that deals next.
        deals (int): Deals played.
        difference (int): Side 0's points less side 1's, this bazzi.
        bazzis (list[int]): Bazzis won by side 0 and side 1.
        over (bool):
        winner_side (int | None): The side that won or went through (0 or 1), or null: not decided, or drawn.
        winner (int | None): Deprecated: winner_side.
    """

    dealer: int
    deals: int
    difference: int
    bazzis: list[int]
    over: bool
    winner_side: int | None
    winner: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        dealer = self.dealer

        deals = self.deals

        difference = self.difference

        bazzis = self.bazzis

        over = self.over

        winner_side: int | None
        winner_side = self.winner_side

        winner: int | None
        winner = self.winner

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "dealer": dealer,
                "deals": deals,
                "difference": difference,
                "bazzis": bazzis,
                "over": over,
                "winner_side": winner_side,
                "winner": winner,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        dealer = d.pop("dealer")

        deals = d.pop("deals")

        difference = d.pop("difference")

        bazzis = cast(list[int], d.pop("bazzis"))

        over = d.pop("over")

        def _parse_winner_side(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        winner_side = _parse_winner_side(d.pop("winner_side"))

        def _parse_winner(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        winner = _parse_winner(d.pop("winner"))

        state_progress = cls(
            dealer=dealer,
            deals=deals,
            difference=difference,
            bazzis=bazzis,
            over=over,
            winner_side=winner_side,
            winner=winner,
        )

        state_progress.additional_properties = d
        return state_progress

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
