from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.team_changed_body_change import TeamChangedBodyChange
from ..models.team_changed_body_kind import TeamChangedBodyKind

if TYPE_CHECKING:
    from ..models.team_ref import TeamRef


T = TypeVar("T", bound="TeamChangedBody")


@_attrs_define
class TeamChangedBody:
    """What every delivery's body holds, whatever its kind (the signature covers it all).

    Attributes:
        id (int): The delivery's id (also in Seep-Delivery).
        created_at (datetime.datetime):
        kind (TeamChangedBodyKind): * `match.completed` - match.completed
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
        team (TeamRef):
        change (TeamChangedBodyChange): What became of it.

            * `registered` - registered
            * `renamed` - renamed
            * `checked_in` - checked_in
            * `checked_out` - checked_out
            * `withdrawn` - withdrawn
            * `reinstated` - reinstated
        checked_in (bool):
        withdrawn (bool):
    """

    id: int
    created_at: datetime.datetime
    kind: TeamChangedBodyKind
    tournament: int
    seq: int
    team: TeamRef
    change: TeamChangedBodyChange
    checked_in: bool
    withdrawn: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        created_at = self.created_at.isoformat()

        kind = self.kind.value

        tournament = self.tournament

        seq = self.seq

        team = self.team.to_dict()

        change = self.change.value

        checked_in = self.checked_in

        withdrawn = self.withdrawn

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "created_at": created_at,
                "kind": kind,
                "tournament": tournament,
                "seq": seq,
                "team": team,
                "change": change,
                "checked_in": checked_in,
                "withdrawn": withdrawn,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.team_ref import TeamRef

        d = dict(src_dict)
        id = d.pop("id")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        kind = TeamChangedBodyKind(d.pop("kind"))

        tournament = d.pop("tournament")

        seq = d.pop("seq")

        team = TeamRef.from_dict(d.pop("team"))

        change = TeamChangedBodyChange(d.pop("change"))

        checked_in = d.pop("checked_in")

        withdrawn = d.pop("withdrawn")

        team_changed_body = cls(
            id=id,
            created_at=created_at,
            kind=kind,
            tournament=tournament,
            seq=seq,
            team=team,
            change=change,
            checked_in=checked_in,
            withdrawn=withdrawn,
        )

        team_changed_body.additional_properties = d
        return team_changed_body

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
