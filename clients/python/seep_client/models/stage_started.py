from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.confirmation_enum import ConfirmationEnum
from ..models.entry_enum import EntryEnum
from ..models.format_enum import FormatEnum
from ..models.mode_enum import ModeEnum
from ..models.seeding_enum import SeedingEnum
from ..models.stage_status_enum import StageStatusEnum
from ..models.swiss_method_enum import SwissMethodEnum
from ..models.tiebreaks_enum import TiebreaksEnum
from ..models.withdrawal_enum import WithdrawalEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.stage_started_scorekeepers_item_type_1 import (
        StageStartedScorekeepersItemType1,
    )
    from ..models.team_ref import TeamRef


T = TypeVar("T", bound="StageStarted")


@_attrs_define
class StageStarted:
    """A stage just started, and the registered teams it left out, not checked in.

    Attributes:
        id (int):
        tournament (int):
        order (int): 1 for the first stage, 2 next...
        name (str):
        format_ (FormatEnum): * `round_robin` - round robin
            * `double_round_robin` - double round robin
            * `swiss` - Swiss
            * `single_elimination` - single elimination
            * `double_elimination` - double elimination
            * `groups` - round-robin groups
        status (StageStatusEnum): * `pending` - pending
            * `running` - running
            * `complete` - complete
        started_at (datetime.datetime | None):
        completed_at (datetime.datetime | None):
        not_checked_in (list[TeamRef]): The registered teams (not withdrawn) not checked in, left out of the stage:
            empty for a stage that takes the top teams of the stage before. Checked in later, each joins a Swiss stage with
            late_entry at its next round (0 points), or a stage to come that takes the registered teams; otherwise its
            check-in is refused (409 late_entry_refused).
        rounds (int | None | Unset): Swiss: how many rounds (the others know their own).
        groups (int | None | Unset): Groups: how many.
        entry (EntryEnum | Unset): * `registered` - every checked-in team
            * `top` - the top N of the previous stage
            * `top_per_group` - the top N of each group of the previous stage
        entry_count (int | None | Unset): N of the top N (per group) entering from the previous.
        late_entry (bool | Unset): Swiss: a team registered after the start joins the next round.
        seeding (SeedingEnum | Unset): * `manual` - manual order
            * `rating` - by rating
            * `random` - random (the seed is recorded)
            * `standings` - by the previous stage's standings
        seeding_seed (int | None | Unset): The random seed a random seeding used (recorded).
        swiss_method (SwissMethodEnum | Unset): * `slide` - slide (1 v 5, 2 v 6...)
            * `fold` - fold (1 v 8, 2 v 7...)
            * `adjacent` - adjacent (1 v 2, 3 v 4...)
        match_format (Any | Unset): How long each match lasts (M1). Left out: the tournament's; an elimination stage's
            never draws (left out, draws is false; true is refused, bad_format).
        mode (ModeEnum | Unset): * `digital` - digital (the server deals)
            * `table` - table (every move recorded at a physical table)
            * `score` - score (each deal's result entered)
        confirmation (ConfirmationEnum | Unset): * `none` - no confirmation
            * `other_team` - the other team confirms
            * `both_enter` - both teams enter, matching entries count
        points_win (int | Unset):
        points_draw (int | Unset):
        points_loss (int | Unset):
        points_bye (int | Unset):
        points_forfeit (int | Unset): What the team that forfeits gets (its opponent gets a win).
        tiebreaks (list[TiebreaksEnum] | Unset):
        tiebreak_seed (int | None | Unset): The seed of the random draw tie-break (recorded).
        third_place (bool | Unset): Single elimination.
        grand_final_reset (bool | Unset): Double elimination.
        withdrawal (WithdrawalEnum | Unset): * `forfeit` - the withdrawn team forfeits its later fixtures
            * `bye` - its opponents get a bye
        start_matches (bool | Unset): Start each match (first dealer drawn) when its round is published.
        review_draw (bool | Unset): A bracket: its first round stays a draft when the stage starts, for the directors to
            review (swap seeds) and publish; off, it is published at the start.
        scorekeepers (list[int | StageStartedScorekeepersItemType1] | Unset): Who keeps score at every match of the
            stage: accounts, each by id or as a member ({"member": id}), of the club's people.
    """

    id: int
    tournament: int
    order: int
    name: str
    format_: FormatEnum
    status: StageStatusEnum
    started_at: datetime.datetime | None
    completed_at: datetime.datetime | None
    not_checked_in: list[TeamRef]
    rounds: int | None | Unset = UNSET
    groups: int | None | Unset = UNSET
    entry: EntryEnum | Unset = UNSET
    entry_count: int | None | Unset = UNSET
    late_entry: bool | Unset = UNSET
    seeding: SeedingEnum | Unset = UNSET
    seeding_seed: int | None | Unset = UNSET
    swiss_method: SwissMethodEnum | Unset = UNSET
    match_format: Any | Unset = UNSET
    mode: ModeEnum | Unset = UNSET
    confirmation: ConfirmationEnum | Unset = UNSET
    points_win: int | Unset = UNSET
    points_draw: int | Unset = UNSET
    points_loss: int | Unset = UNSET
    points_bye: int | Unset = UNSET
    points_forfeit: int | Unset = UNSET
    tiebreaks: list[TiebreaksEnum] | Unset = UNSET
    tiebreak_seed: int | None | Unset = UNSET
    third_place: bool | Unset = UNSET
    grand_final_reset: bool | Unset = UNSET
    withdrawal: WithdrawalEnum | Unset = UNSET
    start_matches: bool | Unset = UNSET
    review_draw: bool | Unset = UNSET
    scorekeepers: list[int | StageStartedScorekeepersItemType1] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.stage_started_scorekeepers_item_type_1 import (
            StageStartedScorekeepersItemType1,
        )

        id = self.id

        tournament = self.tournament

        order = self.order

        name = self.name

        format_ = self.format_.value

        status = self.status.value

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        completed_at: None | str
        if isinstance(self.completed_at, datetime.datetime):
            completed_at = self.completed_at.isoformat()
        else:
            completed_at = self.completed_at

        not_checked_in = []
        for not_checked_in_item_data in self.not_checked_in:
            not_checked_in_item = not_checked_in_item_data.to_dict()
            not_checked_in.append(not_checked_in_item)

        rounds: int | None | Unset
        if isinstance(self.rounds, Unset):
            rounds = UNSET
        else:
            rounds = self.rounds

        groups: int | None | Unset
        if isinstance(self.groups, Unset):
            groups = UNSET
        else:
            groups = self.groups

        entry: str | Unset = UNSET
        if not isinstance(self.entry, Unset):
            entry = self.entry.value

        entry_count: int | None | Unset
        if isinstance(self.entry_count, Unset):
            entry_count = UNSET
        else:
            entry_count = self.entry_count

        late_entry = self.late_entry

        seeding: str | Unset = UNSET
        if not isinstance(self.seeding, Unset):
            seeding = self.seeding.value

        seeding_seed: int | None | Unset
        if isinstance(self.seeding_seed, Unset):
            seeding_seed = UNSET
        else:
            seeding_seed = self.seeding_seed

        swiss_method: str | Unset = UNSET
        if not isinstance(self.swiss_method, Unset):
            swiss_method = self.swiss_method.value

        match_format = self.match_format

        mode: str | Unset = UNSET
        if not isinstance(self.mode, Unset):
            mode = self.mode.value

        confirmation: str | Unset = UNSET
        if not isinstance(self.confirmation, Unset):
            confirmation = self.confirmation.value

        points_win = self.points_win

        points_draw = self.points_draw

        points_loss = self.points_loss

        points_bye = self.points_bye

        points_forfeit = self.points_forfeit

        tiebreaks: list[str] | Unset = UNSET
        if not isinstance(self.tiebreaks, Unset):
            tiebreaks = []
            for tiebreaks_item_data in self.tiebreaks:
                tiebreaks_item = tiebreaks_item_data.value
                tiebreaks.append(tiebreaks_item)

        tiebreak_seed: int | None | Unset
        if isinstance(self.tiebreak_seed, Unset):
            tiebreak_seed = UNSET
        else:
            tiebreak_seed = self.tiebreak_seed

        third_place = self.third_place

        grand_final_reset = self.grand_final_reset

        withdrawal: str | Unset = UNSET
        if not isinstance(self.withdrawal, Unset):
            withdrawal = self.withdrawal.value

        start_matches = self.start_matches

        review_draw = self.review_draw

        scorekeepers: list[dict[str, Any] | int] | Unset = UNSET
        if not isinstance(self.scorekeepers, Unset):
            scorekeepers = []
            for scorekeepers_item_data in self.scorekeepers:
                scorekeepers_item: dict[str, Any] | int
                if isinstance(
                    scorekeepers_item_data, StageStartedScorekeepersItemType1
                ):
                    scorekeepers_item = scorekeepers_item_data.to_dict()
                else:
                    scorekeepers_item = scorekeepers_item_data
                scorekeepers.append(scorekeepers_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "tournament": tournament,
                "order": order,
                "name": name,
                "format": format_,
                "status": status,
                "started_at": started_at,
                "completed_at": completed_at,
                "not_checked_in": not_checked_in,
            }
        )
        if rounds is not UNSET:
            field_dict["rounds"] = rounds
        if groups is not UNSET:
            field_dict["groups"] = groups
        if entry is not UNSET:
            field_dict["entry"] = entry
        if entry_count is not UNSET:
            field_dict["entry_count"] = entry_count
        if late_entry is not UNSET:
            field_dict["late_entry"] = late_entry
        if seeding is not UNSET:
            field_dict["seeding"] = seeding
        if seeding_seed is not UNSET:
            field_dict["seeding_seed"] = seeding_seed
        if swiss_method is not UNSET:
            field_dict["swiss_method"] = swiss_method
        if match_format is not UNSET:
            field_dict["match_format"] = match_format
        if mode is not UNSET:
            field_dict["mode"] = mode
        if confirmation is not UNSET:
            field_dict["confirmation"] = confirmation
        if points_win is not UNSET:
            field_dict["points_win"] = points_win
        if points_draw is not UNSET:
            field_dict["points_draw"] = points_draw
        if points_loss is not UNSET:
            field_dict["points_loss"] = points_loss
        if points_bye is not UNSET:
            field_dict["points_bye"] = points_bye
        if points_forfeit is not UNSET:
            field_dict["points_forfeit"] = points_forfeit
        if tiebreaks is not UNSET:
            field_dict["tiebreaks"] = tiebreaks
        if tiebreak_seed is not UNSET:
            field_dict["tiebreak_seed"] = tiebreak_seed
        if third_place is not UNSET:
            field_dict["third_place"] = third_place
        if grand_final_reset is not UNSET:
            field_dict["grand_final_reset"] = grand_final_reset
        if withdrawal is not UNSET:
            field_dict["withdrawal"] = withdrawal
        if start_matches is not UNSET:
            field_dict["start_matches"] = start_matches
        if review_draw is not UNSET:
            field_dict["review_draw"] = review_draw
        if scorekeepers is not UNSET:
            field_dict["scorekeepers"] = scorekeepers

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.stage_started_scorekeepers_item_type_1 import (
            StageStartedScorekeepersItemType1,
        )
        from ..models.team_ref import TeamRef

        d = dict(src_dict)
        id = d.pop("id")

        tournament = d.pop("tournament")

        order = d.pop("order")

        name = d.pop("name")

        format_ = FormatEnum(d.pop("format"))

        status = StageStatusEnum(d.pop("status"))

        def _parse_started_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = datetime.datetime.fromisoformat(data)

                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        started_at = _parse_started_at(d.pop("started_at"))

        def _parse_completed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                completed_at_type_0 = datetime.datetime.fromisoformat(data)

                return completed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        completed_at = _parse_completed_at(d.pop("completed_at"))

        not_checked_in = []
        _not_checked_in = d.pop("not_checked_in")
        for not_checked_in_item_data in _not_checked_in:
            not_checked_in_item = TeamRef.from_dict(not_checked_in_item_data)

            not_checked_in.append(not_checked_in_item)

        def _parse_rounds(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rounds = _parse_rounds(d.pop("rounds", UNSET))

        def _parse_groups(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        groups = _parse_groups(d.pop("groups", UNSET))

        _entry = d.pop("entry", UNSET)
        entry: EntryEnum | Unset
        if isinstance(_entry, Unset):
            entry = UNSET
        else:
            entry = EntryEnum(_entry)

        def _parse_entry_count(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        entry_count = _parse_entry_count(d.pop("entry_count", UNSET))

        late_entry = d.pop("late_entry", UNSET)

        _seeding = d.pop("seeding", UNSET)
        seeding: SeedingEnum | Unset
        if isinstance(_seeding, Unset):
            seeding = UNSET
        else:
            seeding = SeedingEnum(_seeding)

        def _parse_seeding_seed(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        seeding_seed = _parse_seeding_seed(d.pop("seeding_seed", UNSET))

        _swiss_method = d.pop("swiss_method", UNSET)
        swiss_method: SwissMethodEnum | Unset
        if isinstance(_swiss_method, Unset):
            swiss_method = UNSET
        else:
            swiss_method = SwissMethodEnum(_swiss_method)

        match_format = d.pop("match_format", UNSET)

        _mode = d.pop("mode", UNSET)
        mode: ModeEnum | Unset
        if isinstance(_mode, Unset):
            mode = UNSET
        else:
            mode = ModeEnum(_mode)

        _confirmation = d.pop("confirmation", UNSET)
        confirmation: ConfirmationEnum | Unset
        if isinstance(_confirmation, Unset):
            confirmation = UNSET
        else:
            confirmation = ConfirmationEnum(_confirmation)

        points_win = d.pop("points_win", UNSET)

        points_draw = d.pop("points_draw", UNSET)

        points_loss = d.pop("points_loss", UNSET)

        points_bye = d.pop("points_bye", UNSET)

        points_forfeit = d.pop("points_forfeit", UNSET)

        _tiebreaks = d.pop("tiebreaks", UNSET)
        tiebreaks: list[TiebreaksEnum] | Unset = UNSET
        if _tiebreaks is not UNSET:
            tiebreaks = []
            for tiebreaks_item_data in _tiebreaks:
                tiebreaks_item = TiebreaksEnum(tiebreaks_item_data)

                tiebreaks.append(tiebreaks_item)

        def _parse_tiebreak_seed(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        tiebreak_seed = _parse_tiebreak_seed(d.pop("tiebreak_seed", UNSET))

        third_place = d.pop("third_place", UNSET)

        grand_final_reset = d.pop("grand_final_reset", UNSET)

        _withdrawal = d.pop("withdrawal", UNSET)
        withdrawal: WithdrawalEnum | Unset
        if isinstance(_withdrawal, Unset):
            withdrawal = UNSET
        else:
            withdrawal = WithdrawalEnum(_withdrawal)

        start_matches = d.pop("start_matches", UNSET)

        review_draw = d.pop("review_draw", UNSET)

        _scorekeepers = d.pop("scorekeepers", UNSET)
        scorekeepers: list[int | StageStartedScorekeepersItemType1] | Unset = UNSET
        if _scorekeepers is not UNSET:
            scorekeepers = []
            for scorekeepers_item_data in _scorekeepers:

                def _parse_scorekeepers_item(
                    data: object,
                ) -> int | StageStartedScorekeepersItemType1:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        scorekeepers_item_type_1 = (
                            StageStartedScorekeepersItemType1.from_dict(data)
                        )

                        return scorekeepers_item_type_1
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    return cast(int | StageStartedScorekeepersItemType1, data)

                scorekeepers_item = _parse_scorekeepers_item(scorekeepers_item_data)

                scorekeepers.append(scorekeepers_item)

        stage_started = cls(
            id=id,
            tournament=tournament,
            order=order,
            name=name,
            format_=format_,
            status=status,
            started_at=started_at,
            completed_at=completed_at,
            not_checked_in=not_checked_in,
            rounds=rounds,
            groups=groups,
            entry=entry,
            entry_count=entry_count,
            late_entry=late_entry,
            seeding=seeding,
            seeding_seed=seeding_seed,
            swiss_method=swiss_method,
            match_format=match_format,
            mode=mode,
            confirmation=confirmation,
            points_win=points_win,
            points_draw=points_draw,
            points_loss=points_loss,
            points_bye=points_bye,
            points_forfeit=points_forfeit,
            tiebreaks=tiebreaks,
            tiebreak_seed=tiebreak_seed,
            third_place=third_place,
            grand_final_reset=grand_final_reset,
            withdrawal=withdrawal,
            start_matches=start_matches,
            review_draw=review_draw,
            scorekeepers=scorekeepers,
        )

        stage_started.additional_properties = d
        return stage_started

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
