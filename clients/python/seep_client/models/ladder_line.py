from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.member_ref import MemberRef


T = TypeVar("T", bound="LadderLine")


@_attrs_define
class LadderLine:
    """
    Attributes:
        rank (int): By points, then first places, then matches won: members level on all three share a rank ("1, 2, 2,
            4").
        member (MemberRef):
        points (int): Of the counted evenings.
        evenings (int): Evenings played in the season so far.
        counted (int): Of which count (the best N).
        wins (int): Evenings won (first places), of the counted.
        won (int): Matches won, in the counted evenings.
    """

    rank: int
    member: MemberRef
    points: int
    evenings: int
    counted: int
    wins: int
    won: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        rank = self.rank

        member = self.member.to_dict()

        points = self.points

        evenings = self.evenings

        counted = self.counted

        wins = self.wins

        won = self.won

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "rank": rank,
                "member": member,
                "points": points,
                "evenings": evenings,
                "counted": counted,
                "wins": wins,
                "won": won,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.member_ref import MemberRef

        d = dict(src_dict)
        rank = d.pop("rank")

        member = MemberRef.from_dict(d.pop("member"))

        points = d.pop("points")

        evenings = d.pop("evenings")

        counted = d.pop("counted")

        wins = d.pop("wins")

        won = d.pop("won")

        ladder_line = cls(
            rank=rank,
            member=member,
            points=points,
            evenings=evenings,
            counted=counted,
            wins=wins,
            won=won,
        )

        ladder_line.additional_properties = d
        return ladder_line

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
