from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.change_enum import ChangeEnum

if TYPE_CHECKING:
    from ..models.team_ref import TeamRef


T = TypeVar("T", bound="TeamChangedEntry")


@_attrs_define
class TeamChangedEntry:
    """
    Attributes:
        seq (int): Its place in the tournament's results log.
        created_at (datetime.datetime):
        tournament (int):
        team (TeamRef):
        change (ChangeEnum): * `registered` - registered
            * `renamed` - renamed
            * `checked_in` - checked_in
            * `checked_out` - checked_out
            * `withdrawn` - withdrawn
            * `reinstated` - reinstated
        checked_in (bool):
        withdrawn (bool):
        kind (str): What happened: the webhook's kind.
    """

    seq: int
    created_at: datetime.datetime
    tournament: int
    team: TeamRef
    change: ChangeEnum
    checked_in: bool
    withdrawn: bool
    kind: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        seq = self.seq

        created_at = self.created_at.isoformat()

        tournament = self.tournament

        team = self.team.to_dict()

        change = self.change.value

        checked_in = self.checked_in

        withdrawn = self.withdrawn

        kind = self.kind

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "seq": seq,
                "created_at": created_at,
                "tournament": tournament,
                "team": team,
                "change": change,
                "checked_in": checked_in,
                "withdrawn": withdrawn,
                "kind": kind,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.team_ref import TeamRef

        d = dict(src_dict)
        seq = d.pop("seq")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        tournament = d.pop("tournament")

        team = TeamRef.from_dict(d.pop("team"))

        change = ChangeEnum(d.pop("change"))

        checked_in = d.pop("checked_in")

        withdrawn = d.pop("withdrawn")

        kind = d.pop("kind")

        team_changed_entry = cls(
            seq=seq,
            created_at=created_at,
            tournament=tournament,
            team=team,
            change=change,
            checked_in=checked_in,
            withdrawn=withdrawn,
            kind=kind,
        )

        team_changed_entry.additional_properties = d
        return team_changed_entry

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
