from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.bracket_fixture_status_enum import BracketFixtureStatusEnum

if TYPE_CHECKING:
    from ..models.bracket_slot import BracketSlot
    from ..models.side import Side


T = TypeVar("T", bound="BracketFixture")


@_attrs_define
class BracketFixture:
    """
    Attributes:
        key (str):
        table (int | None):
        sides (list[Side]): The fixture's two sides, side 0 first (docs/api.md, "One vocabulary").
        winner_side (int | None): The side that won or went through (0 or 1), or null: not decided, or drawn.
        a (BracketSlot | None): Deprecated: sides[0].
        b (BracketSlot | None): Deprecated: sides[1].
        result (None | str): "a": side 0 won, "b": side 1 won ("forfeit_a": side 0 forfeited, "bye": side 0 had a bye),
            "draw", "void", or empty (pending); winner_side names the side that went through.
        winner (int | None): Deprecated: the team id of sides[winner_side].
        status (BracketFixtureStatusEnum): * `waiting` - waiting
            * `ready` - ready
            * `playing` - playing
            * `decided` - decided
            * `void` - void
            * `bye` - bye
        match (int | None):
        winner_to (None | str): Where the winner goes: "<key>:<slot>": the key of the fixture of a later round they go
            to, and their place there: "a" for its sides[0], "b" for its sides[1] (the a/b of the deprecated team_a and
            team_b). E.g. "R2-1:a". Null: the final, or not a bracket.
        loser_to (None | str): Where the loser goes (a double elimination's lower bracket): "<key>:<slot>": the key of
            the fixture of a later round they go to, and their place there: "a" for its sides[0], "b" for its sides[1] (the
            a/b of the deprecated team_a and team_b). E.g. "R2-1:a". Null: out.
    """

    key: str
    table: int | None
    sides: list[Side]
    winner_side: int | None
    a: BracketSlot | None
    b: BracketSlot | None
    result: None | str
    winner: int | None
    status: BracketFixtureStatusEnum
    match: int | None
    winner_to: None | str
    loser_to: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.bracket_slot import BracketSlot

        key = self.key

        table: int | None
        table = self.table

        sides = []
        for sides_item_data in self.sides:
            sides_item = sides_item_data.to_dict()
            sides.append(sides_item)

        winner_side: int | None
        winner_side = self.winner_side

        a: dict[str, Any] | None
        if isinstance(self.a, BracketSlot):
            a = self.a.to_dict()
        else:
            a = self.a

        b: dict[str, Any] | None
        if isinstance(self.b, BracketSlot):
            b = self.b.to_dict()
        else:
            b = self.b

        result: None | str
        result = self.result

        winner: int | None
        winner = self.winner

        status = self.status.value

        match: int | None
        match = self.match

        winner_to: None | str
        winner_to = self.winner_to

        loser_to: None | str
        loser_to = self.loser_to

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "key": key,
                "table": table,
                "sides": sides,
                "winner_side": winner_side,
                "a": a,
                "b": b,
                "result": result,
                "winner": winner,
                "status": status,
                "match": match,
                "winner_to": winner_to,
                "loser_to": loser_to,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.bracket_slot import BracketSlot
        from ..models.side import Side

        d = dict(src_dict)
        key = d.pop("key")

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

        def _parse_winner_side(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        winner_side = _parse_winner_side(d.pop("winner_side"))

        def _parse_a(data: object) -> BracketSlot | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                a_type_0 = BracketSlot.from_dict(data)

                return a_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BracketSlot | None, data)

        a = _parse_a(d.pop("a"))

        def _parse_b(data: object) -> BracketSlot | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                b_type_0 = BracketSlot.from_dict(data)

                return b_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BracketSlot | None, data)

        b = _parse_b(d.pop("b"))

        def _parse_result(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        result = _parse_result(d.pop("result"))

        def _parse_winner(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        winner = _parse_winner(d.pop("winner"))

        status = BracketFixtureStatusEnum(d.pop("status"))

        def _parse_match(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        match = _parse_match(d.pop("match"))

        def _parse_winner_to(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        winner_to = _parse_winner_to(d.pop("winner_to"))

        def _parse_loser_to(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        loser_to = _parse_loser_to(d.pop("loser_to"))

        bracket_fixture = cls(
            key=key,
            table=table,
            sides=sides,
            winner_side=winner_side,
            a=a,
            b=b,
            result=result,
            winner=winner,
            status=status,
            match=match,
            winner_to=winner_to,
            loser_to=loser_to,
        )

        bracket_fixture.additional_properties = d
        return bracket_fixture

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
