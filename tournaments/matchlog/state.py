"""Where a match stands between events: the value the fold produces and a snapshot stores."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, NamedTuple

import seep_core as sc

from .kinds import Confirmation, Kind, Mode, Status
from .ledger import Counted

SCHEDULED, IN_PROGRESS, FINISHED = Status.SCHEDULED, Status.IN_PROGRESS, Status.FINISHED
CALLED_OFF = Status.CALLED_OFF
#: the version of ``MatchState.to_json``; a snapshot of another version is rebuilt, but for
#: ``READABLE_VERSIONS``, which are read as they are
STATE_VERSION = 7
#: 6 stored a table's last play with the whole deal before it; 7 stores what the play changed
READABLE_VERSIONS = (6, 7)


class LogInconsistent(ValueError):
    """A stored event that does not follow from the events before it (found by a replay)."""


class Entry(NamedTuple):
    """A deal result entered and not yet counted (score mode with confirmation)."""

    number: int  # 1, 2... within the deal
    actor: int | None  # who entered it
    side: int | None  # their team, or None (a score-keeper, a director)
    points: tuple[int, int]
    sweeps: tuple[tuple[int, ...], tuple[int, ...]]
    total: tuple[int, int]

    def result(self) -> dict[str, Any]:
        """Return its result as a deal_ended payload has it."""
        return {
            "points": list(self.points),
            "sweeps": [list(self.sweeps[0]), list(self.sweeps[1])],
            "total": list(self.total),
        }


class LastPlay(NamedTuple):
    """A table's last play while it is the log's last event: the move recorded and the deal
    before it, so that the recorder can withdraw it (``move_withdrawn``) before the next.

    In memory it holds the deal before the play; stored (``to_json``), only what the play
    changed of it: the fields of the deal's JSON that differ from the deal after it (the
    state's own deal), so that a snapshot does not hold a second deal for a rare undo.
    """

    before: sc.TableDeal
    move: dict[str, Any]

    def to_json(self, after: sc.Deal | sc.TableDeal | None) -> dict[str, Any]:
        """Return the play as a snapshot stores it: its move, and how the deal before it
        differs from ``after``, the deal the play left (``_undo_of``)."""
        now = {} if after is None else after.to_dict()
        return {"move": copy.deepcopy(self.move), "undo": _undo_of(self.before.to_dict(), now)}

    @classmethod
    def from_json(
        cls, data: dict[str, Any], after: sc.Deal | sc.TableDeal | None, rules: sc.Rules | None
    ) -> LastPlay:
        """Return the play ``to_json`` wrote, ``after`` the deal it left; or a version 6
        snapshot's (the whole deal before it, ``before``)."""
        if "before" in data:
            return cls(sc.TableDeal.from_dict(data["before"], rules), data["move"])
        if after is None:
            raise ValueError("a last play stored without the deal it left")
        before = _undone(after.to_dict(), data["undo"])
        return cls(sc.TableDeal.from_dict(before, rules), data["move"])


def _undo_of(before: Any, after: Any) -> dict[str, Any]:
    """Return what turns ``after`` (JSON) back into ``before``: ``{"d": {key: undo}}`` for the
    keys of an object that differ, ``{"i": {index: undo}}`` for the items of a list of the
    same length that differ, ``{"x": [index, ...]}`` for the items added to a list (a
    capture's cards in a pile, a card thrown to the floor), ``{"r": [[index, item], ...]}``
    for the items taken from one (a house captured, a promise kept), else ``{"v": before}``. A play
    changes a few fields of a deal and adds a few cards to a list: its undo is that, not a
    second deal."""
    if isinstance(before, dict) and isinstance(after, dict) and set(before) == set(after):
        return {"d": {k: _undo_of(v, after[k]) for k, v in before.items() if after[k] != v}}
    if isinstance(before, list) and isinstance(after, list):
        if len(before) == len(after):
            return {
                "i": {str(i): _undo_of(v, after[i]) for i, v in enumerate(before) if after[i] != v}
            }
        added = _added(before, after)
        if added is not None:
            return {"x": added}
        taken = _added(after, before)
        if taken is not None:
            return {"r": [[i, copy.deepcopy(before[i])] for i in taken]}
    return {"v": copy.deepcopy(before)}


def _added(before: list[Any], after: list[Any]) -> list[int] | None:
    """Return the indexes of ``after``'s items that ``before`` has not, if ``before`` is
    ``after`` without them (in order); else None."""
    added, at = [], 0
    for index, item in enumerate(after):
        if at < len(before) and before[at] == item:
            at += 1
        else:
            added.append(index)
    return added if at == len(before) else None


def _undone(after: Any, undo: dict[str, Any]) -> Any:
    """Return ``after`` (JSON) with ``undo`` (``_undo_of``) applied: the value before."""
    if "d" in undo:
        return {**after, **{k: _undone(after[k], u) for k, u in undo["d"].items()}}
    if "i" in undo:
        changed = {int(i): u for i, u in undo["i"].items()}
        return [_undone(v, changed[i]) if i in changed else v for i, v in enumerate(after)]
    if "x" in undo:
        dropped = set(undo["x"])
        return [v for i, v in enumerate(after) if i not in dropped]
    if "r" in undo:
        restored = list(after)
        for index, item in undo["r"]:  # ascending: each goes back where it was
            restored.insert(index, item)
        return restored
    return undo["v"]


def _deal_from_json(data: dict[str, Any], rules: sc.Rules | None) -> sc.Deal | sc.TableDeal:
    if data.get("mode") == "table":
        return sc.TableDeal.from_dict(data, rules)
    return sc.Deal.from_dict(data, rules)


#: how an append made through a team's private link says so: ``via`` is
#: ``team-link:<side>:<link id>`` (docs/links.md); the fold knows its author by its side
LINK_VIA = "team-link:"


def link_author(side: int) -> int:
    """Return the author the fold knows a team's link by: -1 (team 0) or -2 (team 1), never a
    user's id (those are positive)."""
    return -1 - side


def link_side(author: int) -> int:
    """Return the team (0 or 1) a link's author (``link_author``) acts for."""
    return -1 - author


#: what follows a link's ``via`` when its team's code was typed on the other team's phone
ON_PHONE = ":code-on:"


def link_via(
    side: int, link_id: int, on_phone: int | None = None, on_table: int | None = None
) -> str:
    """Return the ``via`` an append through a team's link records: ``team-link:<side>:<id>``,
    and ``:code-on:<the other link's id>`` when the team confirmed with its card's code on the
    other team's phone, or ``:code-on:table-<match id>`` when it spoke with its code on the
    phone opened from the match's table card (the author is still the side: ``author``)."""
    via = f"{LINK_VIA}{side}:{link_id}"
    if on_table is not None:
        return f"{via}{ON_PHONE}table-{on_table}"
    return via if on_phone is None else f"{via}{ON_PHONE}{on_phone}"


def author(actor_id: int | None, via: str) -> int | None:
    """Return the author the fold takes an event to have: its user's id, a team link's author
    (decoded from its ``via``), or None (the server, or a user's row since deleted)."""
    if via.startswith(LINK_VIA):
        side = via[len(LINK_VIA) :].split(":", 1)[0]
        if side in ("0", "1"):
            return link_author(int(side))
    return actor_id


@dataclass(frozen=True)
class MatchState:
    """Where a match stands after some prefix of its log."""

    mode: str
    status: str = SCHEDULED
    progress: sc.MatchProgress | None = None
    deal_no: int = 0  # the number of the current (or last) deal, redeals included
    deal: sc.Deal | sc.TableDeal | None = None  # digital, table: the deal in play
    #: who sits where, fixed by match_started: the players' ids and their users' ids by seat
    players: tuple[int, ...] | None = None
    users: tuple[int | None, ...] | None = None
    #: the derived event the server must write next, within the same append (None between
    #: appends): the fold refuses anything else, so a log cannot skip or invent one
    due: Kind | None = None
    #: who dealt first (the ledger is counted again from there after a correction)
    first_dealer: int | None = None
    confirmation: str = Confirmation.NONE
    #: what the match counts: its deals' results and adjustments, corrections applied
    ledger: tuple[Counted, ...] = ()
    #: score mode: the next deal's entries awaiting agreement, the one agreed, a dispute
    entries: tuple[Entry, ...] = ()
    accepted: Entry | None = None
    disputed: bool = False
    #: the result the last match_ended recorded, and the team that forfeited, if one did
    outcome: dict[str, Any] | None = None
    forfeit: int | None = None
    #: table mode: the last play, while nothing has been recorded after it (it can be withdrawn)
    last_play: LastPlay | None = None
    #: the next deal's entries made so far, withdrawn ones included: an entry's number is
    #: never given twice within a deal, so the log's answers name one entry each
    entered: int = 0
    #: the numbers a team gave with its rejection of an entry, which the entering team may
    #: accept (``version_accepted``): ``number`` is the entry rejected, ``actor`` and
    #: ``side`` who rejected it
    counter: Entry | None = None

    @property
    def digital_like(self) -> bool:
        """Whether moves are recorded (digital or table mode) rather than deal results."""
        return self.mode in (Mode.DIGITAL, Mode.TABLE)

    @property
    def untouched(self) -> bool:
        """Whether nothing has been recorded yet: not started, or started and its first deal
        dealt (by the server) but no bid, play, entry, result or correction made."""
        if self.status == SCHEDULED:
            return True
        if self.status != IN_PROGRESS or self.ledger or self.entered or self.disputed:
            return False
        if self.accepted is not None or self.forfeit is not None or self.deal_no > 1:
            return False
        return self.deal is None or (self.deal.bid is None and self.deal.plays == 0)

    def side_of(self, actor: int | None) -> int | None:
        """Return the team (0 or 1) of the seat ``actor`` sits at, or None if not seated.

        A team's private link is an author of its own (``link_author``): its team's side.
        """
        if actor is not None and actor < 0:
            return link_side(actor)
        if actor is None or self.users is None:
            return None
        for seat, user in enumerate(self.users):
            if user == actor:
                return seat % 2
        return None

    def start(self) -> sc.MatchProgress:
        """Return the match before its first deal (what the ledger is counted from)."""
        assert self.progress is not None and self.first_dealer is not None
        return sc.start_match(self.first_dealer, self.progress.format, self.progress.rules)

    def to_json(self) -> dict[str, Any]:
        """Return the state as JSON (what a snapshot stores)."""
        return {
            "version": STATE_VERSION,
            "mode": self.mode,
            "status": self.status,
            "deal_no": self.deal_no,
            "progress": None if self.progress is None else self.progress.to_dict(),
            "deal": None if self.deal is None else self.deal.to_dict(),
            "players": None if self.players is None else list(self.players),
            "users": None if self.users is None else list(self.users),
            "due": self.due,
            "first_dealer": self.first_dealer,
            "confirmation": self.confirmation,
            "ledger": [c.to_json() for c in self.ledger],
            "entries": [_entry_json(e) for e in self.entries],
            "accepted": None if self.accepted is None else _entry_json(self.accepted),
            "disputed": self.disputed,
            # a copy: the state may be shared (snapshots.RecentStates), its JSON is the caller's
            "outcome": None if self.outcome is None else copy.deepcopy(self.outcome),
            "forfeit": self.forfeit,
            "last_play": None if self.last_play is None else self.last_play.to_json(self.deal),
            "entered": self.entered,
            "counter": None if self.counter is None else _entry_json(self.counter),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MatchState:
        """Return the state ``to_json`` wrote; raise ValueError for any other shape or version."""
        try:
            if data["version"] not in READABLE_VERSIONS:
                raise ValueError(f"state version {data['version']!r}, not {STATE_VERSION}")
            progress = (
                None if data["progress"] is None else sc.MatchProgress.from_dict(data["progress"])
            )
            deal = None
            if data["deal"] is not None:
                deal = _deal_from_json(data["deal"], progress.rules if progress else None)
            players, users, due = data["players"], data["users"], data["due"]
            accepted, last, counter = data["accepted"], data["last_play"], data["counter"]
            return cls(
                data["mode"],
                Status(data["status"]),
                progress,
                data["deal_no"],
                deal,
                None if players is None else tuple(players),
                None if users is None else tuple(users),
                None if due is None else Kind(due),
                data["first_dealer"],
                data["confirmation"],
                tuple(Counted.from_json(c) for c in data["ledger"]),
                tuple(_entry_from_json(e) for e in data["entries"]),
                None if accepted is None else _entry_from_json(accepted),
                data["disputed"],
                data["outcome"],
                data["forfeit"],
                None
                if last is None
                else LastPlay.from_json(last, deal, deal.rules if deal else None),
                data["entered"],
                None if counter is None else _entry_from_json(counter),
            )
        except (KeyError, TypeError, IndexError) as exc:
            raise ValueError(f"not a match state: {exc!r}") from exc


def _entry_json(entry: Entry) -> list[Any]:
    return [entry.number, entry.actor, entry.side, *entry.result().values()]


def _entry_from_json(data: list[Any]) -> Entry:
    number, actor, side, points, sweeps, total = data
    return Entry(
        number, actor, side, (points[0], points[1]), (tuple(sweeps[0]), tuple(sweeps[1])),
        (total[0], total[1]),
    )  # fmt: skip
