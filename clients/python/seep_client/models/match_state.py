from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.match_state_legal_moves_type_0_item import (
        MatchStateLegalMovesType0Item,
    )
    from ..models.match_state_position_type_0 import MatchStatePositionType0
    from ..models.state_entry import StateEntry
    from ..models.state_progress import StateProgress


T = TypeVar("T", bound="MatchState")


@_attrs_define
class MatchState:
    """The position as the caller may see it, and their legal moves.

    Attributes:
        match (int):
        status (str): The match's status, as its log says.
        mode (str): digital, score or table.
        last_seq (int): The seq of the log's last event.
        deal (int | None): The deal in play's number.
        seat (int | None): The caller's seat (0-3) the position is shown to, or null.
        position (MatchStatePositionType0 | None): The deal as the caller may see it (a card they may not see is null; a
            director sees every card), or null between deals.
        legal_moves (list[MatchStateLegalMovesType0Item] | None): The moves the caller may play now (their seat is to
            play), else null.
        confirmation (str): Who confirms a deal's entered result (score mode), or none.
        entries (list[StateEntry]): The next deal's entered results awaiting an answer, each with its fields as entered
            (provisional: they count once confirmed).
        disputed (bool): Whether the entries disagree (a director's).
        progress (None | StateProgress): Where the match stands, or null.
    """

    match: int
    status: str
    mode: str
    last_seq: int
    deal: int | None
    seat: int | None
    position: MatchStatePositionType0 | None
    legal_moves: list[MatchStateLegalMovesType0Item] | None
    confirmation: str
    entries: list[StateEntry]
    disputed: bool
    progress: None | StateProgress
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.match_state_position_type_0 import MatchStatePositionType0
        from ..models.state_progress import StateProgress

        match = self.match

        status = self.status

        mode = self.mode

        last_seq = self.last_seq

        deal: int | None
        deal = self.deal

        seat: int | None
        seat = self.seat

        position: dict[str, Any] | None
        if isinstance(self.position, MatchStatePositionType0):
            position = self.position.to_dict()
        else:
            position = self.position

        legal_moves: list[dict[str, Any]] | None
        if isinstance(self.legal_moves, list):
            legal_moves = []
            for legal_moves_type_0_item_data in self.legal_moves:
                legal_moves_type_0_item = legal_moves_type_0_item_data.to_dict()
                legal_moves.append(legal_moves_type_0_item)

        else:
            legal_moves = self.legal_moves

        confirmation = self.confirmation

        entries = []
        for entries_item_data in self.entries:
            entries_item = entries_item_data.to_dict()
            entries.append(entries_item)

        disputed = self.disputed

        progress: dict[str, Any] | None
        if isinstance(self.progress, StateProgress):
            progress = self.progress.to_dict()
        else:
            progress = self.progress

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "match": match,
                "status": status,
                "mode": mode,
                "last_seq": last_seq,
                "deal": deal,
                "seat": seat,
                "position": position,
                "legal_moves": legal_moves,
                "confirmation": confirmation,
                "entries": entries,
                "disputed": disputed,
                "progress": progress,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.match_state_legal_moves_type_0_item import (
            MatchStateLegalMovesType0Item,
        )
        from ..models.match_state_position_type_0 import MatchStatePositionType0
        from ..models.state_entry import StateEntry
        from ..models.state_progress import StateProgress

        d = dict(src_dict)
        match = d.pop("match")

        status = d.pop("status")

        mode = d.pop("mode")

        last_seq = d.pop("last_seq")

        def _parse_deal(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        deal = _parse_deal(d.pop("deal"))

        def _parse_seat(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        seat = _parse_seat(d.pop("seat"))

        def _parse_position(data: object) -> MatchStatePositionType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                position_type_0 = MatchStatePositionType0.from_dict(data)

                return position_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MatchStatePositionType0 | None, data)

        position = _parse_position(d.pop("position"))

        def _parse_legal_moves(
            data: object,
        ) -> list[MatchStateLegalMovesType0Item] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                legal_moves_type_0 = []
                _legal_moves_type_0 = data
                for legal_moves_type_0_item_data in _legal_moves_type_0:
                    legal_moves_type_0_item = MatchStateLegalMovesType0Item.from_dict(
                        legal_moves_type_0_item_data
                    )

                    legal_moves_type_0.append(legal_moves_type_0_item)

                return legal_moves_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[MatchStateLegalMovesType0Item] | None, data)

        legal_moves = _parse_legal_moves(d.pop("legal_moves"))

        confirmation = d.pop("confirmation")

        entries = []
        _entries = d.pop("entries")
        for entries_item_data in _entries:
            entries_item = StateEntry.from_dict(entries_item_data)

            entries.append(entries_item)

        disputed = d.pop("disputed")

        def _parse_progress(data: object) -> None | StateProgress:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                progress_type_0 = StateProgress.from_dict(data)

                return progress_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | StateProgress, data)

        progress = _parse_progress(d.pop("progress"))

        match_state = cls(
            match=match,
            status=status,
            mode=mode,
            last_seq=last_seq,
            deal=deal,
            seat=seat,
            position=position,
            legal_moves=legal_moves,
            confirmation=confirmation,
            entries=entries,
            disputed=disputed,
            progress=progress,
        )

        match_state.additional_properties = d
        return match_state

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
