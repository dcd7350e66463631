from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.method_enum import MethodEnum

T = TypeVar("T", bound="CutDecision")


@_attrs_define
class CutDecision:
    """How a director decided a tie at a cut (docs/competition.md, "Ties at the cut").

    Attributes:
        method (MethodEnum): * `lot` - lot
            * `order` - order
        order (list[int]): The tied teams' ids as decided, highest first.
        lot_seed (int | None): A drawn lot: the random seed it was drawn from (it replays).
        decided_by (str):
        decided_at (datetime.datetime):
        words (str): How the standings say it: "lot drawn by ann at 21:04".
    """

    method: MethodEnum
    order: list[int]
    lot_seed: int | None
    decided_by: str
    decided_at: datetime.datetime
    words: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        method = self.method.value

        order = self.order

        lot_seed: int | None
        lot_seed = self.lot_seed

        decided_by = self.decided_by

        decided_at = self.decided_at.isoformat()

        words = self.words

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "method": method,
                "order": order,
                "lot_seed": lot_seed,
                "decided_by": decided_by,
                "decided_at": decided_at,
                "words": words,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        method = MethodEnum(d.pop("method"))

        order = cast(list[int], d.pop("order"))

        def _parse_lot_seed(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        lot_seed = _parse_lot_seed(d.pop("lot_seed"))

        decided_by = d.pop("decided_by")

        decided_at = datetime.datetime.fromisoformat(d.pop("decided_at"))

        words = d.pop("words")

        cut_decision = cls(
            method=method,
            order=order,
            lot_seed=lot_seed,
            decided_by=decided_by,
            decided_at=decided_at,
            words=words,
        )

        cut_decision.additional_properties = d
        return cut_decision

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
