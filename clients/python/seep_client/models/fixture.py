from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.blank_enum import BlankEnum
from ..models.result_enum import ResultEnum

if TYPE_CHECKING:
    from ..models.side import Side
    from ..models.team_ref import TeamRef


T = TypeVar("T", bound="Fixture")


@_attrs_define
class Fixture:
    """
    Attributes:
        id (int):
        table (int | None):
        key (None | str): A bracket fixture's key ("R2-1": round 2, fixture 1), null elsewhere.
        group (int | None):
        sides (list[Side]): The fixture's two sides, side 0 first (docs/api.md, "One vocabulary").
        winner_side (int | None): The side that won or went through (0 or 1), or null: not decided, or drawn.
        team_a (None | TeamRef): Deprecated: sides[0].
        team_b (None | TeamRef): Deprecated: sides[1].
        source_a (str): Deprecated: sides[0].source.
        source_b (str): Deprecated: sides[1].source.
        result (BlankEnum | ResultEnum): "a": side 0 won, "b": side 1 won ("forfeit_a": side 0 forfeited, "bye": side 0
            had a bye), "draw", "void", or empty (pending); winner_side names the side that went through.

            * `` - pending
            * `a` - won by a
            * `b` - won by b
            * `draw` - drawn
            * `bye` - a bye for a
            * `forfeit_a` - forfeited by a
            * `forfeit_b` - forfeited by b
            * `void` - not played
        match (int | None):
        winner_to (None | str): Where the winner goes: "<key>:<slot>": the key of the fixture of a later round they go
            to, and their place there: "a" for its sides[0], "b" for its sides[1] (the a/b of the deprecated team_a and
            team_b). E.g. "R2-1:a". Null: the final, or not a bracket.
        loser_to (None | str): Where the loser goes (a double elimination's lower bracket): "<key>:<slot>": the key of
            the fixture of a later round they go to, and their place there: "a" for its sides[0], "b" for its sides[1] (the
            a/b of the deprecated team_a and team_b). E.g. "R2-1:a". Null: out.
        floats (Any):
    """

    id: int
    table: int | None
    key: None | str
    group: int | None
    sides: list[Side]
    winner_side: int | None
    team_a: None | TeamRef
    team_b: None | TeamRef
    source_a: str
    source_b: str
    result: BlankEnum | ResultEnum
    match: int | None
    winner_to: None | str
    loser_to: None | str
    floats: Any
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.team_ref import TeamRef

        id = self.id

        table: int | None
        table = self.table

        key: None | str
        key = self.key

        group: int | None
        group = self.group

        sides = []
        for sides_item_data in self.sides:
            sides_item = sides_item_data.to_dict()
            sides.append(sides_item)

        winner_side: int | None
        winner_side = self.winner_side

        team_a: dict[str, Any] | None
        if isinstance(self.team_a, TeamRef):
            team_a = self.team_a.to_dict()
        else:
            team_a = self.team_a

        team_b: dict[str, Any] | None
        if isinstance(self.team_b, TeamRef):
            team_b = self.team_b.to_dict()
        else:
            team_b = self.team_b

        source_a = self.source_a

        source_b = self.source_b

        result: str
        if isinstance(self.result, ResultEnum):
            result = self.result.value
        else:
            result = self.result.value

        match: int | None
        match = self.match

        winner_to: None | str
        winner_to = self.winner_to

        loser_to: None | str
        loser_to = self.loser_to

        floats = self.floats

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "table": table,
                "key": key,
                "group": group,
                "sides": sides,
                "winner_side": winner_side,
                "team_a": team_a,
                "team_b": team_b,
                "source_a": source_a,
                "source_b": source_b,
                "result": result,
                "match": match,
                "winner_to": winner_to,
                "loser_to": loser_to,
                "floats": floats,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.side import Side
        from ..models.team_ref import TeamRef

        d = dict(src_dict)
        id = d.pop("id")

        def _parse_table(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        table = _parse_table(d.pop("table"))

        def _parse_key(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        key = _parse_key(d.pop("key"))

        def _parse_group(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        group = _parse_group(d.pop("group"))

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

        def _parse_team_a(data: object) -> None | TeamRef:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                team_a_type_0 = TeamRef.from_dict(data)

                return team_a_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TeamRef, data)

        team_a = _parse_team_a(d.pop("team_a"))

        def _parse_team_b(data: object) -> None | TeamRef:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                team_b_type_0 = TeamRef.from_dict(data)

                return team_b_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TeamRef, data)

        team_b = _parse_team_b(d.pop("team_b"))

        source_a = d.pop("source_a")

        source_b = d.pop("source_b")

        def _parse_result(data: object) -> BlankEnum | ResultEnum:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                result_type_0 = ResultEnum(data)

                return result_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, str):
                raise TypeError()
            result_type_1 = BlankEnum(data)

            return result_type_1

        result = _parse_result(d.pop("result"))

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

        floats = d.pop("floats")

        fixture = cls(
            id=id,
            table=table,
            key=key,
            group=group,
            sides=sides,
            winner_side=winner_side,
            team_a=team_a,
            team_b=team_b,
            source_a=source_a,
            source_b=source_b,
            result=result,
            match=match,
            winner_to=winner_to,
            loser_to=loser_to,
            floats=floats,
        )

        fixture.additional_properties = d
        return fixture

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
