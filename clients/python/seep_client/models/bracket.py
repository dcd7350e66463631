from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.bracket_round import BracketRound
    from ..models.champion import Champion


T = TypeVar("T", bound="Bracket")


@_attrs_define
class Bracket:
    """
    Attributes:
        stage (int):
        format_ (str):
        status (str):
        rounds (list[BracketRound]):
        champion (Champion | None):
    """

    stage: int
    format_: str
    status: str
    rounds: list[BracketRound]
    champion: Champion | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.champion import Champion

        stage = self.stage

        format_ = self.format_

        status = self.status

        rounds = []
        for rounds_item_data in self.rounds:
            rounds_item = rounds_item_data.to_dict()
            rounds.append(rounds_item)

        champion: dict[str, Any] | None
        if isinstance(self.champion, Champion):
            champion = self.champion.to_dict()
        else:
            champion = self.champion

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "stage": stage,
                "format": format_,
                "status": status,
                "rounds": rounds,
                "champion": champion,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.bracket_round import BracketRound
        from ..models.champion import Champion

        d = dict(src_dict)
        stage = d.pop("stage")

        format_ = d.pop("format")

        status = d.pop("status")

        rounds = []
        _rounds = d.pop("rounds")
        for rounds_item_data in _rounds:
            rounds_item = BracketRound.from_dict(rounds_item_data)

            rounds.append(rounds_item)

        def _parse_champion(data: object) -> Champion | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                champion_type_0 = Champion.from_dict(data)

                return champion_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Champion | None, data)

        champion = _parse_champion(d.pop("champion"))

        bracket = cls(
            stage=stage,
            format_=format_,
            status=status,
            rounds=rounds,
            champion=champion,
        )

        bracket.additional_properties = d
        return bracket

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
