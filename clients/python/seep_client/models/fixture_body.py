from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.fixture_body_kind import FixtureBodyKind

if TYPE_CHECKING:
    from ..models.side import Side


T = TypeVar("T", bound="FixtureBody")


@_attrs_define
class FixtureBody:
    """A fixture of a published round, as it is now (``match.made``, ``fixture.filled``).

    Attributes:
        id (int): The delivery's id (also in Seep-Delivery).
        created_at (datetime.datetime):
        kind (FixtureBodyKind): * `match.completed` - match.completed
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
        stage (int):
        round_ (int): The round's number in its stage.
        fixture (int):
        table (int | None):
        key (None | str):
        sides (list[Side]): The fixture's two sides, side 0 first (docs/api.md, "One vocabulary").
        winner_side (int | None): The side that won or went through (0 or 1), or null: not decided, or drawn.
        a (int | None): Deprecated: sides[0].id.
        b (int | None): Deprecated: sides[1].id.
        match (int | None):
        result (None | str): "a": side 0 won, "b": side 1 won ("forfeit_a": side 0 forfeited, "bye": side 0 had a bye),
            "draw", "void", or empty (pending); winner_side names the side that went through.
    """

    id: int
    created_at: datetime.datetime
    kind: FixtureBodyKind
    tournament: int
    seq: int
    stage: int
    round_: int
    fixture: int
    table: int | None
    key: None | str
    sides: list[Side]
    winner_side: int | None
    a: int | None
    b: int | None
    match: int | None
    result: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        created_at = self.created_at.isoformat()

        kind = self.kind.value

        tournament = self.tournament

        seq = self.seq

        stage = self.stage

        round_ = self.round_

        fixture = self.fixture

        table: int | None
        table = self.table

        key: None | str
        key = self.key

        sides = []
        for sides_item_data in self.sides:
            sides_item = sides_item_data.to_dict()
            sides.append(sides_item)

        winner_side: int | None
        winner_side = self.winner_side

        a: int | None
        a = self.a

        b: int | None
        b = self.b

        match: int | None
        match = self.match

        result: None | str
        result = self.result

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "created_at": created_at,
                "kind": kind,
                "tournament": tournament,
                "seq": seq,
                "stage": stage,
                "round": round_,
                "fixture": fixture,
                "table": table,
                "key": key,
                "sides": sides,
                "winner_side": winner_side,
                "a": a,
                "b": b,
                "match": match,
                "result": result,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.side import Side

        d = dict(src_dict)
        id = d.pop("id")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        kind = FixtureBodyKind(d.pop("kind"))

        tournament = d.pop("tournament")

        seq = d.pop("seq")

        stage = d.pop("stage")

        round_ = d.pop("round")

        fixture = d.pop("fixture")

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

        def _parse_a(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        a = _parse_a(d.pop("a"))

        def _parse_b(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        b = _parse_b(d.pop("b"))

        def _parse_match(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        match = _parse_match(d.pop("match"))

        def _parse_result(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        result = _parse_result(d.pop("result"))

        fixture_body = cls(
            id=id,
            created_at=created_at,
            kind=kind,
            tournament=tournament,
            seq=seq,
            stage=stage,
            round_=round_,
            fixture=fixture,
            table=table,
            key=key,
            sides=sides,
            winner_side=winner_side,
            a=a,
            b=b,
            match=match,
            result=result,
        )

        fixture_body.additional_properties = d
        return fixture_body

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
