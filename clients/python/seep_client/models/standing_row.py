from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.standing_row_tiebreaks import StandingRowTiebreaks
    from ..models.team_ref import TeamRef


T = TypeVar("T", bound="StandingRow")


@_attrs_define
class StandingRow:
    """
    Attributes:
        rank (int): The place; before the first round (0), the seed order.
        team (TeamRef):
        group (int | None):
        points (int):
        played (int): Games against an opponent, forfeits included; byes not.
        won (int):
        drawn (int):
        lost (int):
        byes (int): Rounds the team sat out (counted apart from played).
        tiebreaks (StandingRowTiebreaks):
    """

    rank: int
    team: TeamRef
    group: int | None
    points: int
    played: int
    won: int
    drawn: int
    lost: int
    byes: int
    tiebreaks: StandingRowTiebreaks
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        rank = self.rank

        team = self.team.to_dict()

        group: int | None
        group = self.group

        points = self.points

        played = self.played

        won = self.won

        drawn = self.drawn

        lost = self.lost

        byes = self.byes

        tiebreaks = self.tiebreaks.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "rank": rank,
                "team": team,
                "group": group,
                "points": points,
                "played": played,
                "won": won,
                "drawn": drawn,
                "lost": lost,
                "byes": byes,
                "tiebreaks": tiebreaks,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.standing_row_tiebreaks import StandingRowTiebreaks
        from ..models.team_ref import TeamRef

        d = dict(src_dict)
        rank = d.pop("rank")

        team = TeamRef.from_dict(d.pop("team"))

        def _parse_group(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        group = _parse_group(d.pop("group"))

        points = d.pop("points")

        played = d.pop("played")

        won = d.pop("won")

        drawn = d.pop("drawn")

        lost = d.pop("lost")

        byes = d.pop("byes")

        tiebreaks = StandingRowTiebreaks.from_dict(d.pop("tiebreaks"))

        standing_row = cls(
            rank=rank,
            team=team,
            group=group,
            points=points,
            played=played,
            won=won,
            drawn=drawn,
            lost=lost,
            byes=byes,
            tiebreaks=tiebreaks,
        )

        standing_row.additional_properties = d
        return standing_row

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
