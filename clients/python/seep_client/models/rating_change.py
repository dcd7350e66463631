from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.member_ref import MemberRef


T = TypeVar("T", bound="RatingChange")


@_attrs_define
class RatingChange:
    """
    Attributes:
        match (int):
        tournament (int):
        day (datetime.date): The evening's date.
        finished_at (datetime.datetime):
        partner (MemberRef):
        result (str): won, drew or lost
        mu_before (float): Before the match (after the drift of time away).
        sigma_before (float): Before the match.
        mu (float): After the match.
        sigma (float): After the match.
    """

    match: int
    tournament: int
    day: datetime.date
    finished_at: datetime.datetime
    partner: MemberRef
    result: str
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        match = self.match

        tournament = self.tournament

        day = self.day.isoformat()

        finished_at = self.finished_at.isoformat()

        partner = self.partner.to_dict()

        result = self.result

        mu_before = self.mu_before

        sigma_before = self.sigma_before

        mu = self.mu

        sigma = self.sigma

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "match": match,
                "tournament": tournament,
                "day": day,
                "finished_at": finished_at,
                "partner": partner,
                "result": result,
                "mu_before": mu_before,
                "sigma_before": sigma_before,
                "mu": mu,
                "sigma": sigma,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.member_ref import MemberRef

        d = dict(src_dict)
        match = d.pop("match")

        tournament = d.pop("tournament")

        day = datetime.date.fromisoformat(d.pop("day"))

        finished_at = datetime.datetime.fromisoformat(d.pop("finished_at"))

        partner = MemberRef.from_dict(d.pop("partner"))

        result = d.pop("result")

        mu_before = d.pop("mu_before")

        sigma_before = d.pop("sigma_before")

        mu = d.pop("mu")

        sigma = d.pop("sigma")

        rating_change = cls(
            match=match,
            tournament=tournament,
            day=day,
            finished_at=finished_at,
            partner=partner,
            result=result,
            mu_before=mu_before,
            sigma_before=sigma_before,
            mu=mu,
            sigma=sigma,
        )

        rating_change.additional_properties = d
        return rating_change

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
