from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.deal_corrected_entry import DealCorrectedEntry
    from ..models.deal_recorded_entry import DealRecordedEntry
    from ..models.deal_voided_entry import DealVoidedEntry
    from ..models.fixture_filled_entry import FixtureFilledEntry
    from ..models.match_completed_entry import MatchCompletedEntry
    from ..models.match_made_entry import MatchMadeEntry
    from ..models.match_reopened_entry import MatchReopenedEntry
    from ..models.round_published_entry import RoundPublishedEntry
    from ..models.round_unpublished_entry import RoundUnpublishedEntry
    from ..models.standings_changed_entry import StandingsChangedEntry
    from ..models.team_changed_entry import TeamChangedEntry
    from ..models.tournament_changed_entry import TournamentChangedEntry


T = TypeVar("T", bound="ResultPage")


@_attrs_define
class ResultPage:
    """
    Attributes:
        results (list[DealCorrectedEntry | DealRecordedEntry | DealVoidedEntry | FixtureFilledEntry |
            MatchCompletedEntry | MatchMadeEntry | MatchReopenedEntry | RoundPublishedEntry | RoundUnpublishedEntry |
            StandingsChangedEntry | TeamChangedEntry | TournamentChangedEntry]):
        next_ (None | str):
        last_seq (int):
    """

    results: list[
        DealCorrectedEntry
        | DealRecordedEntry
        | DealVoidedEntry
        | FixtureFilledEntry
        | MatchCompletedEntry
        | MatchMadeEntry
        | MatchReopenedEntry
        | RoundPublishedEntry
        | RoundUnpublishedEntry
        | StandingsChangedEntry
        | TeamChangedEntry
        | TournamentChangedEntry
    ]
    next_: None | str
    last_seq: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.deal_corrected_entry import DealCorrectedEntry
        from ..models.deal_recorded_entry import DealRecordedEntry
        from ..models.deal_voided_entry import DealVoidedEntry
        from ..models.fixture_filled_entry import FixtureFilledEntry
        from ..models.match_completed_entry import MatchCompletedEntry
        from ..models.match_made_entry import MatchMadeEntry
        from ..models.match_reopened_entry import MatchReopenedEntry
        from ..models.round_published_entry import RoundPublishedEntry
        from ..models.round_unpublished_entry import RoundUnpublishedEntry
        from ..models.standings_changed_entry import StandingsChangedEntry
        from ..models.tournament_changed_entry import TournamentChangedEntry

        results = []
        for results_item_data in self.results:
            results_item: dict[str, Any]
            if (
                isinstance(results_item_data, MatchCompletedEntry)
                or isinstance(results_item_data, DealRecordedEntry)
                or isinstance(results_item_data, DealCorrectedEntry)
                or isinstance(results_item_data, DealVoidedEntry)
                or isinstance(results_item_data, MatchReopenedEntry)
                or isinstance(results_item_data, MatchMadeEntry)
                or isinstance(results_item_data, FixtureFilledEntry)
                or isinstance(results_item_data, RoundPublishedEntry)
                or isinstance(results_item_data, RoundUnpublishedEntry)
                or isinstance(results_item_data, StandingsChangedEntry)
                or isinstance(results_item_data, TournamentChangedEntry)
            ):
                results_item = results_item_data.to_dict()
            else:
                results_item = results_item_data.to_dict()

            results.append(results_item)

        next_: None | str
        next_ = self.next_

        last_seq = self.last_seq

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "results": results,
                "next": next_,
                "last_seq": last_seq,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.deal_corrected_entry import DealCorrectedEntry
        from ..models.deal_recorded_entry import DealRecordedEntry
        from ..models.deal_voided_entry import DealVoidedEntry
        from ..models.fixture_filled_entry import FixtureFilledEntry
        from ..models.match_completed_entry import MatchCompletedEntry
        from ..models.match_made_entry import MatchMadeEntry
        from ..models.match_reopened_entry import MatchReopenedEntry
        from ..models.round_published_entry import RoundPublishedEntry
        from ..models.round_unpublished_entry import RoundUnpublishedEntry
        from ..models.standings_changed_entry import StandingsChangedEntry
        from ..models.team_changed_entry import TeamChangedEntry
        from ..models.tournament_changed_entry import TournamentChangedEntry

        d = dict(src_dict)
        results = []
        _results = d.pop("results")
        for results_item_data in _results:

            def _parse_results_item(
                data: object,
            ) -> (
                DealCorrectedEntry
                | DealRecordedEntry
                | DealVoidedEntry
                | FixtureFilledEntry
                | MatchCompletedEntry
                | MatchMadeEntry
                | MatchReopenedEntry
                | RoundPublishedEntry
                | RoundUnpublishedEntry
                | StandingsChangedEntry
                | TeamChangedEntry
                | TournamentChangedEntry
            ):
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_result_entry_type_0 = (
                        MatchCompletedEntry.from_dict(data)
                    )

                    return componentsschemas_result_entry_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_result_entry_type_1 = DealRecordedEntry.from_dict(
                        data
                    )

                    return componentsschemas_result_entry_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_result_entry_type_2 = (
                        DealCorrectedEntry.from_dict(data)
                    )

                    return componentsschemas_result_entry_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_result_entry_type_3 = DealVoidedEntry.from_dict(
                        data
                    )

                    return componentsschemas_result_entry_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_result_entry_type_4 = (
                        MatchReopenedEntry.from_dict(data)
                    )

                    return componentsschemas_result_entry_type_4
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_result_entry_type_5 = MatchMadeEntry.from_dict(
                        data
                    )

                    return componentsschemas_result_entry_type_5
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_result_entry_type_6 = (
                        FixtureFilledEntry.from_dict(data)
                    )

                    return componentsschemas_result_entry_type_6
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_result_entry_type_7 = (
                        RoundPublishedEntry.from_dict(data)
                    )

                    return componentsschemas_result_entry_type_7
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_result_entry_type_8 = (
                        RoundUnpublishedEntry.from_dict(data)
                    )

                    return componentsschemas_result_entry_type_8
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_result_entry_type_9 = (
                        StandingsChangedEntry.from_dict(data)
                    )

                    return componentsschemas_result_entry_type_9
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_result_entry_type_10 = (
                        TournamentChangedEntry.from_dict(data)
                    )

                    return componentsschemas_result_entry_type_10
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_result_entry_type_11 = TeamChangedEntry.from_dict(
                    data
                )

                return componentsschemas_result_entry_type_11

            results_item = _parse_results_item(results_item_data)

            results.append(results_item)

        def _parse_next_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_ = _parse_next_(d.pop("next"))

        last_seq = d.pop("last_seq")

        result_page = cls(
            results=results,
            next_=next_,
            last_seq=last_seq,
        )

        result_page.additional_properties = d
        return result_page

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
