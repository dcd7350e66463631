"""Planning a command: the events a client's request makes, checked by folding them.

No database here: the append service locks, plans with ``plan`` and writes what it returns.
A command is folded like any stored event, then the server writes whatever the state makes
due (a new deal, a deal's score, a dispute, the match's end or its reopening) until nothing
is, so the planner and a replay of the log cannot disagree. The planner checks first what the
fold would refuse, to refuse it in words a player or a score-keeper understands, with a code.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import seep_core as sc

from ..errors import CommandRefused, MatchStateConflict, NotPermitted
from .decks import Shuffle, secure_deck
from .fold import (
    MAX_REASON,
    Event,
    apply_event,
    deal_result,
    match_outcome,
    other_version,
    owns,
    play_move,
    played_result,
)
from .kinds import COMMANDS, CORRECTIONS, SERVICE_COMMANDS, Confirmation, Kind, Mode
from .state import (
    CALLED_OFF,
    FINISHED,
    IN_PROGRESS,
    SCHEDULED,
    Entry,
    LogInconsistent,
    MatchState,
)

K = Kind
DIGITAL, TABLE, SCORE = Mode.DIGITAL, Mode.TABLE, Mode.SCORE


@dataclass(frozen=True)
class MatchSetup:
    """What the match row fixes: its mode, rules, format, first dealer, and who sits where."""

    mode: str
    rules: dict[str, Any]
    format: dict[str, Any]
    first_dealer: int | None
    #: the players' ids and their users' ids by seat; read only when the match starts
    players: tuple[int, ...] = ()
    users: tuple[int | None, ...] = ()
    confirmation: str = Confirmation.NONE


def plan(
    state: MatchState,
    setup: MatchSetup,
    kind: str,
    payload: Any,
    *,
    actor: int | None = None,
    shuffle: Shuffle = secure_deck,
    draw_dealer: Callable[[], int] = lambda: secrets.randbelow(4),
) -> tuple[list[Event], MatchState]:
    """Return the events a command makes (the command first) and the state after them.

    ``actor`` is the user id asking (None: the server). Raises CommandRefused
    (MatchStateConflict when the match cannot take it now, NotPermitted for the two-person
    rule), or the engine's SeepError for a refused move or deal result.
    """
    if kind not in COMMANDS and kind not in SERVICE_COMMANDS:
        raise CommandRefused(
            f"{kind!r} is not something a client appends: one of {', '.join(COMMANDS)}",
            code="kind_not_appendable",
        )
    if not isinstance(payload, dict):
        raise CommandRefused("the payload is an object", code="bad_payload")
    if state.status == CALLED_OFF:
        raise MatchStateConflict("the match was called off", code="match_called_off")
    if state.status == FINISHED and kind not in CORRECTIONS:
        raise MatchStateConflict("the match is over", code="match_over", rule="M1")
    if kind == K.MATCH_CALLED_OFF:
        command = _match_called_off(state, payload)
    elif kind == K.MATCH_STARTED:
        command = _match_started(state, setup, payload, draw_dealer)
    elif state.status == SCHEDULED:
        raise MatchStateConflict("the match has not started", code="match_not_started")
    elif kind == K.MOVE_PLAYED:
        command, after = _move_played(state, setup, payload)  # checked and applied once
        return _with_due([command], after, shuffle)
    else:
        command = _COMMANDS[kind](state, payload, actor)
    try:
        after = apply_event(state, *command, actor)
    except LogInconsistent as exc:  # a check the planner missed: refused, never written
        raise CommandRefused(str(exc), code="not_possible") from exc
    return _with_due([command], after, shuffle)


def _with_due(
    events: list[Event], state: MatchState, shuffle: Shuffle
) -> tuple[list[Event], MatchState]:
    while state.due is not None:
        event = _due_event(state, shuffle)
        events.append(event)
        state = apply_event(state, *event)
    return events, state


def _match_started(
    state: MatchState, setup: MatchSetup, payload: dict[str, Any], draw_dealer: Callable[[], int]
) -> Event:
    _expect_fields(payload, set(), {"first_dealer"})
    if state.status != SCHEDULED:
        raise MatchStateConflict("the match has started already", code="match_started")
    first = payload.get("first_dealer", setup.first_dealer)
    if first is None:
        first = draw_dealer()  # S2: at random
    if type(first) is not int or not 0 <= first <= 3:
        raise CommandRefused(f"first_dealer is a seat 0-3, not {first!r}", code="bad_payload")
    started = {
        "first_dealer": first,
        "rules": setup.rules,
        "format": setup.format,
        "mode": setup.mode,
        "players": list(setup.players),
        "users": list(setup.users),
    }
    if setup.confirmation != Confirmation.NONE:
        started["confirmation"] = setup.confirmation
    return K.MATCH_STARTED, started


def _move_played(
    state: MatchState, setup: MatchSetup, payload: dict[str, Any]
) -> tuple[Event, MatchState]:
    if setup.mode not in (DIGITAL, TABLE):
        raise CommandRefused(
            f"moves are recorded in digital and table matches; this match is in {setup.mode} mode",
            code="mode_mismatch",
        )
    _expect_fields(payload, {"move"}, set())
    recorded, after = play_move(state, payload["move"])  # raises IllegalMove / MalformedMove
    return (K.MOVE_PLAYED, recorded), after


def _move_withdrawn(state: MatchState, payload: dict[str, Any], actor: int | None) -> Event:
    """A table's last play taken back by its recorder, before the next one is recorded."""
    if state.mode != TABLE:
        raise CommandRefused(
            f"a play is withdrawn at a physical table only; this match is in {state.mode} mode",
            code="mode_mismatch",
        )
    _expect_fields(payload, {"move"}, set())
    last = state.last_play
    if last is None:
        raise MatchStateConflict(
            "only the last play can be withdrawn, before anything else is recorded: a deal's "
            "last play, a throw-in or a play already withdrawn is the director's to correct",
            code="nothing_to_withdraw",
        )
    try:
        named = sc.canonical_move(last.before, payload["move"])
    except sc.SeepError:
        named = None
    if named != last.move:
        raise MatchStateConflict(
            f"the last play is {last.move}, not {payload['move']}", code="not_the_last_play"
        )
    return K.MOVE_WITHDRAWN, {"deal": state.deal_no, "move": last.move}


def _score_mode(state: MatchState) -> sc.MatchProgress:
    if state.mode != SCORE:
        raise CommandRefused(
            f"deal results are entered in score matches; this match is in {state.mode} mode",
            code="mode_mismatch",
        )
    assert state.progress is not None
    return state.progress


def _deal_result(state: MatchState, payload: dict[str, Any], actor: int | None) -> Event:
    """A deal's result entered and counted at once (score mode)."""
    progress = _score_mode(state)
    _expect_fields(payload, {"points", "sweeps"}, set())
    return K.DEAL_ENDED, deal_result(
        progress, state.deal_no + 1, payload["points"], payload["sweeps"]
    )


def _deal_entered(state: MatchState, payload: dict[str, Any], actor: int | None) -> Event:
    """A deal's result entered by one side, to count once the other agrees."""
    progress = _score_mode(state)
    if state.confirmation == Confirmation.NONE:
        raise CommandRefused(
            "this match takes each deal's result at once: append deal_ended",
            code="no_confirmation",
        )
    _expect_fields(payload, {"points", "sweeps"}, set())
    if state.disputed:
        raise MatchStateConflict(
            "this deal's result is disputed: the team that entered it may withdraw it or accept "
            "the other version, else the director decides it",
            code="deal_disputed",
        )
    side = state.side_of(actor)
    for entry in state.entries:
        if state.confirmation == Confirmation.OTHER_TEAM:
            raise MatchStateConflict(
                "this deal's result was entered already and awaits the other team's answer",
                code="entry_pending",
            )
        if entry.actor == actor or (side is not None and entry.side == side):
            raise MatchStateConflict(
                "your side has entered this deal already; the other side enters theirs",
                code="already_entered",
            )
        if side is None and entry.side is None:  # both sides: a team's entry must be one
            raise MatchStateConflict(
                "this deal was entered by someone of neither team already: a team's matching "
                "entry (or a director's confirmation) counts it",
                code="already_entered",
            )
    result = deal_result(progress, state.deal_no + 1, payload["points"], payload["sweeps"])
    return K.DEAL_ENTERED, {**result, "side": side}


def _answered_entry(state: MatchState, payload: dict[str, Any], actor: int | None) -> int:
    """Check who may confirm or reject an entry (the two-person rule); return its number."""
    _score_mode(state)
    if state.disputed:
        raise MatchStateConflict(
            "this deal's result is disputed: the team that entered it may withdraw it or accept "
            "the other version, else the director decides it",
            code="deal_disputed",
        )
    number = payload.get("entry")
    entry = next((e for e in state.entries if e.number == number), None)
    if entry is None:
        raise MatchStateConflict(
            f"there is no entry {number!r} of the next deal to answer", code="no_such_entry"
        )
    if actor is not None and entry.actor == actor:
        raise NotPermitted(
            "you entered this result: someone of the other team (or a director) confirms it",
            code="own_entry",
        )
    side = state.side_of(actor)
    if side is not None and side == entry.side:
        raise NotPermitted(
            "your team entered this result: the other team (or a director) confirms it",
            code="own_team_entry",
        )
    return entry.number


def _deal_confirmed(state: MatchState, payload: dict[str, Any], actor: int | None) -> Event:
    _expect_fields(payload, {"entry"}, set())
    number = _answered_entry(state, payload, actor)
    return K.DEAL_CONFIRMED, {"deal": state.deal_no + 1, "entry": number}


def _deal_rejected(state: MatchState, payload: dict[str, Any], actor: int | None) -> Event:
    _expect_fields(payload, {"entry", "reason"}, {"points", "sweeps"})
    progress = _score_mode(state)
    number = _answered_entry(state, payload, actor)
    out: dict[str, Any] = {"deal": state.deal_no + 1, "entry": number, "reason": _reason(payload)}
    if "points" in payload or "sweeps" in payload:  # their own version, for the director
        _expect_fields(payload, {"entry", "reason", "points", "sweeps"}, set())
        version = deal_result(progress, state.deal_no + 1, payload["points"], payload["sweeps"])
        out.update(points=version["points"], sweeps=version["sweeps"])
    return K.DEAL_REJECTED, out


def _own_entry(state: MatchState, payload: dict[str, Any], actor: int | None) -> Entry:
    """Return the next deal's entry a withdrawal or an acceptance names (``entry``, and
    ``deal`` if the client says which deal it means), if ``actor`` made it or plays in the
    team that did."""
    _score_mode(state)
    if state.confirmation == Confirmation.NONE:
        raise CommandRefused(
            "this match takes each deal's result at once: there is no entry to withdraw or "
            "replace (a director corrects a counted deal)",
            code="no_confirmation",
        )
    _expect_fields(payload, {"entry"}, {"deal"})
    deal = payload.get("deal", state.deal_no + 1)
    if type(deal) is not int:
        raise CommandRefused(f"deal is a deal's number, not {deal!r}", code="bad_payload")
    if 1 <= deal <= state.deal_no:
        raise MatchStateConflict(
            f"deal {deal} counts already: only a director corrects it now", code="deal_counted"
        )
    number = payload["entry"]
    entry = next((e for e in state.entries if e.number == number), None)
    if entry is None or deal != state.deal_no + 1:
        raise MatchStateConflict(
            f"there is no entry {number!r} of the next deal awaiting an answer or disputed",
            code="no_such_entry",
        )
    return entry


def _entry_withdrawn(state: MatchState, payload: dict[str, Any], actor: int | None) -> Event:
    """An entry taken back by the team that made it, before it is answered or once it is
    disputed: the table may then enter the deal again."""
    entry = _own_entry(state, payload, actor)
    if not owns(state, entry, actor):
        raise NotPermitted(
            "only the team that entered this result (or whoever entered it) may withdraw it",
            code="not_your_entry",
        )
    return K.ENTRY_WITHDRAWN, {"deal": state.deal_no + 1, "entry": entry.number}


def _version_accepted(state: MatchState, payload: dict[str, Any], actor: int | None) -> Event:
    """The team that made a disputed entry agrees to the other team's numbers: the deal counts
    with them (two teams agree: one gave the numbers, the other accepts them)."""
    entry = _own_entry(state, payload, actor)
    if not state.disputed:
        raise MatchStateConflict(
            "this entry is not disputed: there is no other version to accept",
            code="not_disputed",
        )
    version = other_version(state, entry)
    side = state.side_of(actor)
    if (
        version is not None
        and actor is not None
        and (actor == version.actor or (side is not None and side == version.side))
    ):
        raise NotPermitted(
            "these are your own team's numbers: the team that entered the result accepts them",
            code="own_version",
        )
    if not owns(state, entry, actor):
        raise NotPermitted(
            "only the team that entered this result (or whoever entered it) may accept the "
            "other version instead",
            code="not_your_entry",
        )
    if version is None:
        raise MatchStateConflict(
            "the other team rejected this result without numbers of its own: withdraw the "
            "entry and enter the deal again, or wait for the director",
            code="no_version",
        )
    result = version.result()
    return K.VERSION_ACCEPTED, {
        "deal": state.deal_no + 1, "entry": entry.number,
        "points": result["points"], "sweeps": result["sweeps"],
    }  # fmt: skip


def _reason(payload: dict[str, Any]) -> str:
    reason = payload.get("reason")
    if not isinstance(reason, str) or not reason.strip() or len(reason) > MAX_REASON:
        raise CommandRefused(f"give a reason, 1 to {MAX_REASON} characters", code="reason_required")
    return reason.strip()


def _counted(state: MatchState, number: Any) -> Any:
    found = next((c for c in state.ledger if c.kind == "deal" and c.deal == number), None)
    if found is None:
        counted = ", ".join(str(c.deal) for c in state.ledger if c.kind == "deal") or "none"
        raise CommandRefused(
            f"deal {number!r} has not been counted (deals counted: {counted})", code="no_such_deal"
        )
    return found


def _check_recount(state: MatchState, kind: str, payload: dict[str, Any]) -> None:
    """Refuse a correction after which the format would end the match before deals played."""
    from . import ledger as counting

    try:
        counting.steps(state.start(), counting.recount(state.ledger, kind, payload, 0))
    except counting.LedgerError as exc:
        item = exc.item
        if item.kind == "deal":
            later = f"deal {item.deal}, played after it: void those deals first"
        else:
            later = (
                f"the adjustment of {item.amount} for team {item.team} counted after it, which "
                "cannot be voided: correct the deals before it to results that do not end it"
            )
        raise CommandRefused(
            f"with this correction the match would have ended before {later}",
            code="correction_ends_early",
        ) from exc


def _deal_corrected(state: MatchState, payload: dict[str, Any], actor: int | None) -> Event:
    _expect_fields(payload, {"deal", "points", "sweeps", "reason"}, set())
    progress = state.progress
    assert progress is not None
    counted = _counted(state, payload["deal"])
    result = deal_result(
        progress, counted.deal, payload["points"], payload["sweeps"], counted.dealer
    )
    corrected = {**result, "reason": _reason(payload)}
    _check_recount(state, K.DEAL_CORRECTED, corrected)
    return K.DEAL_CORRECTED, corrected


def _deal_voided(state: MatchState, payload: dict[str, Any], actor: int | None) -> Event:
    _expect_fields(payload, {"deal", "reason"}, set())
    _counted(state, payload["deal"])
    voided = {"deal": payload["deal"], "reason": _reason(payload)}
    _check_recount(state, K.DEAL_VOIDED, voided)
    return K.DEAL_VOIDED, voided


def _score_adjusted(state: MatchState, payload: dict[str, Any], actor: int | None) -> Event:
    _expect_fields(payload, {"team", "points", "reason"}, set())
    if state.status != IN_PROGRESS:
        raise MatchStateConflict(
            "the match is over: correct or void a deal instead", code="match_over"
        )
    assert state.progress is not None
    state.progress.after_adjustment(payload["team"], payload["points"])  # the engine's checks
    return K.SCORE_ADJUSTED, {
        "team": payload["team"], "points": payload["points"], "reason": _reason(payload),
    }  # fmt: skip


def _match_called_off(state: MatchState, payload: dict[str, Any]) -> Event:
    _expect_fields(payload, {"reason"}, set())
    if not state.untouched:
        raise MatchStateConflict(
            "something was recorded in this match: it is played, corrected or forfeited, "
            "not called off",
            code="match_recorded",
        )
    return K.MATCH_CALLED_OFF, {"reason": _reason(payload)}


def _match_forfeited(state: MatchState, payload: dict[str, Any], actor: int | None) -> Event:
    _expect_fields(payload, {"team", "reason"}, set())
    if payload["team"] not in (0, 1) or type(payload["team"]) is not int:
        raise CommandRefused("the team that forfeits is 0 or 1", code="bad_payload")
    if state.forfeit is not None:
        raise MatchStateConflict("the match was forfeited already", code="forfeited")
    return K.MATCH_FORFEITED, {"team": payload["team"], "reason": _reason(payload)}


_COMMANDS: dict[str, Callable[[MatchState, dict[str, Any], int | None], Event]] = {
    K.MOVE_WITHDRAWN: _move_withdrawn,
    K.DEAL_ENDED: _deal_result,
    K.DEAL_ENTERED: _deal_entered,
    K.DEAL_CONFIRMED: _deal_confirmed,
    K.DEAL_REJECTED: _deal_rejected,
    K.ENTRY_WITHDRAWN: _entry_withdrawn,
    K.VERSION_ACCEPTED: _version_accepted,
    K.DEAL_CORRECTED: _deal_corrected,
    K.DEAL_VOIDED: _deal_voided,
    K.SCORE_ADJUSTED: _score_adjusted,
    K.MATCH_FORFEITED: _match_forfeited,
}


def _due_event(state: MatchState, shuffle: Shuffle) -> Event:
    """Return the derived event the state makes due."""
    progress = state.progress
    assert progress is not None
    due = state.due
    if due == K.DEAL_STARTED:  # the first deal, the next one, or B2's redeal
        started: dict[str, Any] = {"deal": state.deal_no + 1, "dealer": progress.dealer}
        if state.mode == DIGITAL:
            started["deck"] = shuffle()
        return K.DEAL_STARTED, started
    if due == K.DEAL_ENDED:
        if state.digital_like:
            return K.DEAL_ENDED, played_result(state)
        assert state.accepted is not None  # the entry the sides agreed on
        return K.DEAL_ENDED, {
            "deal": state.deal_no + 1, "dealer": progress.dealer, **state.accepted.result()
        }  # fmt: skip
    if due == K.DEAL_DISPUTED:
        return K.DEAL_DISPUTED, {
            "deal": state.deal_no + 1, "entries": [e.number for e in state.entries]
        }  # fmt: skip
    if due == K.MATCH_REOPENED:
        return K.MATCH_REOPENED, {"deals": progress.deals}
    assert due == K.MATCH_ENDED
    return K.MATCH_ENDED, match_outcome(progress, state.forfeit)


def _expect_fields(payload: dict[str, Any], required: set[str], optional: set[str]) -> None:
    missing = sorted(required - set(payload))
    unknown = sorted(set(payload) - required - optional)
    if missing or unknown:
        parts = [
            f"missing {', '.join(missing)}" if missing else "",
            f"unknown {', '.join(unknown)}" if unknown else "",
        ]
        raise CommandRefused(
            "payload fields: " + "; ".join(p for p in parts if p), code="bad_payload"
        )
