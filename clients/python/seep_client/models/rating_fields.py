from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RatingFields")


@_attrs_define
class RatingFields:
    """
    Attributes:
        mu (float): The rating: the estimate of the member's skill.
        sigma (float): Its uncertainty (shrinks with play).
        conservative (float): mu - 3 sigma.
        matches (int): Rated matches.
        last_played (datetime.date | None): The evening of the last.
        provisional (bool): Fewer rated matches than the club's settled_after (10 unless it chose): the rating is still
            provisional.
    """

    mu: float
    sigma: float
    conservative: float
    matches: int
    last_played: datetime.date | None
    provisional: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        mu = self.mu

        sigma = self.sigma

        conservative = self.conservative

        matches = self.matches

        last_played: None | str
        if isinstance(self.last_played, datetime.date):
            last_played = self.last_played.isoformat()
        else:
            last_played = self.last_played

        provisional = self.provisional

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "mu": mu,
                "sigma": sigma,
                "conservative": conservative,
                "matches": matches,
                "last_played": last_played,
                "provisional": provisional,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        mu = d.pop("mu")

        sigma = d.pop("sigma")

        conservative = d.pop("conservative")

        matches = d.pop("matches")

        def _parse_last_played(data: object) -> datetime.date | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_played_type_0 = datetime.date.fromisoformat(data)

                return last_played_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None, data)

        last_played = _parse_last_played(d.pop("last_played"))

        provisional = d.pop("provisional")

        rating_fields = cls(
            mu=mu,
            sigma=sigma,
            conservative=conservative,
            matches=matches,
            last_played=last_played,
            provisional=provisional,
        )

        rating_fields.additional_properties = d
        return rating_fields

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
