"""A match's history as a pure fold: the state after each stored event.

No database here. ``apply_event`` is the one place a match's state changes: the planner emits
events through it, and ``verify_match``/``rebuild_snapshots`` replay the stored log through it,
so a snapshot and a replay cannot disagree by construction. It re-derives everything the
append checked: the engine replays every move and re-scores every deal, an entered result is
checked again, who entered and who confirmed a result are told apart (the two-person rule), a
correction is counted from the start again, and each derived event (a new deal, a deal's
score, a dispute, the match's end) must be the one the state makes due, with exactly the
content the rules give.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import seep_core as sc

from . import ledger as counting
from .kinds import CORRECTIONS, Confirmation, Kind, Mode
from .state import (
    CALLED_OFF,
    FINISHED,
    IN_PROGRESS,
    SCHEDULED,
    Entry,
    LastPlay,
    LogInconsistent,
    MatchState,
)

K = Kind
DIGITAL, TABLE, SCORE = Mode.DIGITAL, Mode.TABLE, Mode.SCORE
MATCH_STARTED, DEAL_STARTED, MOVE_PLAYED = K.MATCH_STARTED, K.DEAL_STARTED, K.MOVE_PLAYED
DEAL_ENDED, MATCH_ENDED = K.DEAL_ENDED, K.MATCH_ENDED

Event = tuple[str, dict[str, Any]]

_STARTED_FIELDS = {"first_dealer", "rules", "format", "mode", "players", "users"}
#: the longest reason a director (or a team rejecting a result) may give
MAX_REASON = 500


def apply_event(
    state: MatchState, kind: str, payload: dict[str, Any], actor: int | None = None
) -> MatchState:
    """Return the state after one stored event; raise LogInconsistent if it cannot follow.

    ``actor`` is the user id the event records (None: the server): who entered a result and
    who confirms it must be told apart.
    """
    try:
        return _apply(state, kind, payload, actor)
    except (sc.SeepError, KeyError, TypeError, IndexError, ValueError, StopIteration) as exc:
        if isinstance(exc, LogInconsistent):
            raise
        raise LogInconsistent(f"{kind} does not follow: {exc}") from exc


def replay(
    events: Sequence[Event] | Sequence[tuple[str, dict[str, Any], int | None]], mode: str
) -> MatchState:
    """Return the state after folding ``events`` (kind, payload[, actor]) from the start."""
    state = MatchState(mode)
    for event in events:
        state = apply_event(state, *event)
    return state


def match_outcome(progress: sc.MatchProgress, forfeit: int | None = None) -> dict[str, Any]:
    """Return the payload of the ``match_ended`` event the match's standing calls for."""
    out: dict[str, Any] = {
        "winner": progress.winner,
        "draw": progress.draw,
        "bazzis": list(progress.bazzis),
        "difference": progress.difference,
        "deals": progress.deals,
    }
    if forfeit is not None:
        out["forfeit"] = forfeit
    return out


def _apply(state: MatchState, kind: str, payload: dict[str, Any], actor: int | None) -> MatchState:
    if not isinstance(payload, dict):
        raise LogInconsistent(f"{kind} with a payload that is not an object")
    if state.due is not None and kind != state.due:
        raise LogInconsistent(f"{kind} where the server owed {state.due}")
    if state.status == FINISHED and state.due is None and kind not in CORRECTIONS:
        raise LogInconsistent(f"{kind} after the match ended")
    if state.status == CALLED_OFF:
        raise LogInconsistent(f"{kind} after the match was called off")
    if kind == K.MATCH_CALLED_OFF:
        return _match_called_off(state, payload)
    if kind == MATCH_STARTED:
        return _match_started(state, payload)
    progress = state.progress
    if progress is None:
        raise LogInconsistent(f"{kind} before match_started")
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise LogInconsistent(f"unknown event kind {kind!r}")
    after = handler(state, progress, payload, actor)
    if after.last_play is not None and kind != MOVE_PLAYED:  # recorded after it: it stays
        after = replace(after, last_play=None)
    return after


def _match_called_off(state: MatchState, payload: dict[str, Any]) -> MatchState:
    if set(payload) != {"reason"}:
        raise LogInconsistent(f"match_called_off with fields {sorted(payload)}")
    _reason(payload)
    if not state.untouched:
        raise LogInconsistent("match_called_off after something was recorded")
    return replace(state, status=CALLED_OFF, due=None, deal=None)


def _match_started(state: MatchState, payload: dict[str, Any]) -> MatchState:
    if state.status != SCHEDULED:
        raise LogInconsistent("match_started twice")
    if set(payload) - {"confirmation"} != _STARTED_FIELDS:
        raise LogInconsistent(f"match_started with fields {sorted(payload)}")
    if payload["mode"] != state.mode:
        raise LogInconsistent(f"match_started in {payload['mode']} mode, the match is {state.mode}")
    confirmation = Confirmation(payload.get("confirmation", Confirmation.NONE))
    if confirmation != Confirmation.NONE and state.mode != SCORE:
        raise LogInconsistent("confirmation is for deal results entered in score mode")
    players, users = payload["players"], payload["users"]
    if not (
        isinstance(players, list)
        and len(players) == 4
        and all(type(p) is int for p in players)
        and isinstance(users, list)
        and len(users) == 4
        and all(u is None or type(u) is int for u in users)
    ):
        raise LogInconsistent("match_started without four seated players")
    progress = sc.start_match(
        payload["first_dealer"],
        sc.MatchFormat.from_dict(payload["format"]),
        sc.Rules.from_dict(payload["rules"]),
    )
    return replace(
        state,
        status=IN_PROGRESS,
        progress=progress,
        players=tuple(players),
        users=tuple(users),
        due=DEAL_STARTED if state.digital_like else None,
        first_dealer=payload["first_dealer"],
        confirmation=confirmation,
    )


def _deal_started(
    state: MatchState, progress: sc.MatchProgress, payload: dict[str, Any], actor: int | None
) -> MatchState:
    if state.due != DEAL_STARTED:
        raise LogInconsistent("deal_started while a deal is in play, or not in a match of moves")
    fields = {"deal", "dealer", "deck"} if state.mode == DIGITAL else {"deal", "dealer"}
    if set(payload) != fields:
        raise LogInconsistent(f"deal_started with fields {sorted(payload)}")
    if payload["deal"] != state.deal_no + 1 or payload["dealer"] != progress.dealer:
        raise LogInconsistent(
            f"deal_started #{payload['deal']} by seat {payload['dealer']}, expected "
            f"#{state.deal_no + 1} by seat {progress.dealer}"
        )
    deal: sc.Deal | sc.TableDeal
    if state.mode == DIGITAL:
        deal = sc.new_deal(payload["dealer"], payload["deck"], progress.rules)
    else:  # a physical table: the deck is never known
        deal = sc.new_table_deal(payload["dealer"], progress.rules)
    return replace(state, deal_no=payload["deal"], deal=deal, due=None)


def play_move(state: MatchState, move: Any) -> tuple[dict[str, Any], MatchState]:
    """Return the ``move_played`` payload of ``move`` (canonical) and the state after it.

    The engine checks and applies the move once (``seep_core.play``), a digital deal's or a
    table's: the planner records a client's move with it, and the replay of a stored move goes
    through it too.
    """
    deal = state.deal
    if not state.digital_like or deal is None or deal.phase in ("over", "redealt"):
        raise LogInconsistent("move_played with no deal in play")
    canonical, after = sc.play(deal, move)
    due = (
        DEAL_ENDED if after.phase == "over" else DEAL_STARTED if after.phase == "redealt" else None
    )
    # a table's recorder may take the play back before the next (``move_withdrawn``)
    last = LastPlay(deal, canonical) if isinstance(deal, sc.TableDeal) else None
    return {"deal": state.deal_no, "move": canonical}, replace(
        state, deal=after, due=due, last_play=last
    )


def _move_played(
    state: MatchState, progress: sc.MatchProgress, payload: dict[str, Any], actor: int | None
) -> MatchState:
    if set(payload) != {"deal", "move"} or payload["deal"] != state.deal_no:
        raise LogInconsistent(f"move_played for deal {payload.get('deal')!r}, not in play")
    recorded, after = play_move(state, payload["move"])
    if recorded != payload:
        raise LogInconsistent(f"move_played {payload['move']} is not in the form the append stores")
    return after


def _move_withdrawn(
    state: MatchState, progress: sc.MatchProgress, payload: dict[str, Any], actor: int | None
) -> MatchState:
    """A table's last play taken back, before anything else was recorded: the deal is again
    what it was before that play (one play only: the one before it stays)."""
    last = state.last_play
    if last is None:
        raise LogInconsistent("move_withdrawn, but the last event is not a table's play")
    if payload != {"deal": state.deal_no, "move": last.move}:
        raise LogInconsistent(f"move_withdrawn says {payload}, the last play is {last.move}")
    return replace(state, deal=last.before, due=None, last_play=None)


def deal_result(
    progress: sc.MatchProgress, deal_no: int, points: Any, sweeps: Any, dealer: int | None = None
) -> dict[str, Any]:
    """Return the ``deal_ended`` payload of an entered result, checked (D2, W1-W2)."""
    dealt_by = progress.dealer if dealer is None else dealer
    checked = sc.check_result(points, sweeps, dealt_by, progress.rules)
    return {"deal": deal_no, "dealer": dealt_by, **checked}


def played_result(state: MatchState) -> dict[str, Any]:
    """Return the ``deal_ended`` payload of the deal just played out (digital or table)."""
    deal = state.deal
    assert deal is not None
    out = {"deal": state.deal_no, "dealer": deal.dealer, **sc.score(deal)}
    if isinstance(deal, sc.TableDeal):  # a broken promise is reported with the result
        out["breaches"] = [b.to_dict() for b in deal.breaches]
    return out


def _deal_ended(
    state: MatchState, progress: sc.MatchProgress, payload: dict[str, Any], actor: int | None
) -> MatchState:
    if state.digital_like:
        if state.due != DEAL_ENDED or state.deal is None:
            raise LogInconsistent("deal_ended before the deal is over")
        expected = played_result(state)
    else:
        deal_no = state.deal_no + 1
        if state.due == DEAL_ENDED:  # the result the two sides agreed on
            assert state.accepted is not None
            expected = {"deal": deal_no, "dealer": progress.dealer, **state.accepted.result()}
        else:
            if set(payload) != {"deal", "dealer", "points", "sweeps", "total"}:
                raise LogInconsistent(f"deal_ended with fields {sorted(payload)}")
            expected = deal_result(progress, deal_no, payload["points"], payload["sweeps"])
    if payload != expected:
        raise LogInconsistent(f"deal_ended says {payload}, the rules give {expected}")
    ledger = counting.recount(state.ledger, DEAL_ENDED, payload, 0)
    progress = progress.after_deal(payload["total"])
    due = MATCH_ENDED if progress.over else DEAL_STARTED if state.digital_like else None
    return replace(
        state, progress=progress, deal_no=payload["deal"], deal=None, due=due, ledger=ledger,
        entries=(), accepted=None, disputed=False, entered=0, counter=None,
    )  # fmt: skip


def _match_ended(
    state: MatchState, progress: sc.MatchProgress, payload: dict[str, Any], actor: int | None
) -> MatchState:
    if state.due != MATCH_ENDED:
        raise LogInconsistent("match_ended before the format says the match is over")
    expected = match_outcome(progress, state.forfeit)
    if payload != expected:
        raise LogInconsistent(f"match_ended says {payload}, the deals give {expected}")
    # Entries still awaiting an answer end with the match: a match reopened later starts its
    # next deal afresh, with no old entry to confirm.
    return replace(
        state, status=FINISHED, due=None, deal=None, outcome=payload,
        entries=(), accepted=None, disputed=False, entered=0, counter=None,
    )  # fmt: skip


# --- score entry with confirmation ---------------------------------------------------------


def _score_entry(state: MatchState) -> None:
    if state.mode != SCORE or state.confirmation == Confirmation.NONE:
        raise LogInconsistent("entries are for score matches whose results are confirmed")
    if state.status != IN_PROGRESS:
        raise LogInconsistent("an entry for a match not in progress")
    if state.disputed:
        raise LogInconsistent("an entry for a deal that is with the director")


def _deal_entered(
    state: MatchState, progress: sc.MatchProgress, payload: dict[str, Any], actor: int | None
) -> MatchState:
    _score_entry(state)
    if set(payload) != {"deal", "dealer", "side", "points", "sweeps", "total"}:
        raise LogInconsistent(f"deal_entered with fields {sorted(payload)}")
    side = state.side_of(actor)
    if payload["side"] != side:
        raise LogInconsistent(f"deal_entered for side {payload['side']}, its author's is {side}")
    expected = deal_result(progress, state.deal_no + 1, payload["points"], payload["sweeps"])
    if {**payload, "side": side} != {**expected, "side": side}:
        raise LogInconsistent(f"deal_entered says {payload}, the rules give {expected}")
    for other in state.entries:
        if state.confirmation == Confirmation.OTHER_TEAM:
            raise LogInconsistent("a second entry while one awaits confirmation")
        if other.actor == actor or other.side == side:  # neither team's people: one side
            raise LogInconsistent("a side enters a deal once")
    entry = _entry_of(state.entered + 1, actor, side, expected)
    entries = (*state.entries, entry)
    state = replace(state, entries=entries, entered=entry.number)
    if state.confirmation == Confirmation.BOTH_ENTER and len(entries) == 2:
        first, second = entries
        if first.result() == second.result():
            return replace(state, accepted=first, due=DEAL_ENDED)
        return replace(state, due=K.DEAL_DISPUTED)
    return state


def _pending(state: MatchState, payload: dict[str, Any], actor: int | None) -> Entry:
    """Return the entry a confirmation or rejection names, checking who may answer it."""
    _score_entry(state)
    if payload.get("deal") != state.deal_no + 1:
        raise LogInconsistent(f"an answer for deal {payload.get('deal')!r}, not the next one")
    entry = next((e for e in state.entries if e.number == payload.get("entry")), None)
    if entry is None:
        raise LogInconsistent(f"no entry {payload.get('entry')!r} of deal {payload['deal']}")
    if actor is not None and actor == entry.actor:
        raise LogInconsistent("the one who entered a result cannot answer for it")
    side = state.side_of(actor)
    if side is not None and side == entry.side:
        raise LogInconsistent("a team cannot confirm or reject its own team's entry")
    return entry


def _deal_confirmed(
    state: MatchState, progress: sc.MatchProgress, payload: dict[str, Any], actor: int | None
) -> MatchState:
    if set(payload) != {"deal", "entry"}:
        raise LogInconsistent(f"deal_confirmed with fields {sorted(payload)}")
    entry = _pending(state, payload, actor)
    return replace(state, accepted=entry, due=DEAL_ENDED)


def _deal_rejected(
    state: MatchState, progress: sc.MatchProgress, payload: dict[str, Any], actor: int | None
) -> MatchState:
    if set(payload) - {"points", "sweeps"} != {"deal", "entry", "reason"}:
        raise LogInconsistent(f"deal_rejected with fields {sorted(payload)}")
    entry = _pending(state, payload, actor)
    _reason(payload)
    if "points" not in payload:
        return replace(state, disputed=True)
    # their own version: for the director, and for the entering team to accept
    version = deal_result(progress, state.deal_no + 1, payload["points"], payload["sweeps"])
    counter = _entry_of(entry.number, actor, state.side_of(actor), version)
    return replace(state, disputed=True, counter=counter)


def _deal_disputed(
    state: MatchState, progress: sc.MatchProgress, payload: dict[str, Any], actor: int | None
) -> MatchState:
    if state.due != K.DEAL_DISPUTED:
        raise LogInconsistent("deal_disputed without two entries that differ")
    if payload != {"deal": state.deal_no + 1, "entries": [e.number for e in state.entries]}:
        raise LogInconsistent(f"deal_disputed says {payload}")
    return replace(state, disputed=True, due=None)


# --- settled at the table: an entry withdrawn, the other team's version accepted -----------


def _entry_of(number: int, actor: int | None, side: int | None, result: dict[str, Any]) -> Entry:
    points, sweeps, total = result["points"], result["sweeps"], result["total"]
    return Entry(
        number, actor, side, (points[0], points[1]), (tuple(sweeps[0]), tuple(sweeps[1])),
        (total[0], total[1]),
    )  # fmt: skip


def owns(state: MatchState, entry: Entry, actor: int | None) -> bool:
    """Whether ``actor`` may take ``entry`` back or give it up for the other version: who
    entered it, or someone of their team (None, the server, may: as it may answer any entry)."""
    if actor is None or actor == entry.actor:
        return True
    return entry.side is not None and state.side_of(actor) == entry.side


def other_version(state: MatchState, entry: Entry) -> Entry | None:
    """Return the version the team that made ``entry`` may accept instead, if the deal is
    disputed and there is one: the numbers the other team gave when it rejected the entry
    (the other team confirms), or the other side's entry (both sides enter)."""
    if not state.disputed:
        return None
    if state.confirmation == Confirmation.BOTH_ENTER:
        return next((e for e in state.entries if e.number != entry.number), None)
    if state.counter is not None and state.counter.number == entry.number:
        return state.counter
    return None


def _own_entry(state: MatchState, payload: dict[str, Any], actor: int | None) -> Entry:
    """Return the next deal's entry a withdrawal or an acceptance names, checking that its
    author (or the author's team) makes it."""
    if state.mode != SCORE or state.confirmation == Confirmation.NONE:
        raise LogInconsistent("entries are for score matches whose results are confirmed")
    if state.status != IN_PROGRESS:
        raise LogInconsistent("an entry for a match not in progress")
    if payload.get("deal") != state.deal_no + 1:
        raise LogInconsistent(f"an entry of deal {payload.get('deal')!r}, not the next one")
    entry = next((e for e in state.entries if e.number == payload.get("entry")), None)
    if entry is None:
        raise LogInconsistent(f"no entry {payload.get('entry')!r} of deal {payload['deal']}")
    # A user's row deleted since leaves its events with no actor: who it was is then unknown,
    # and the replay takes the append's word for it (as for an answer).
    if entry.actor is not None and not owns(state, entry, actor):
        raise LogInconsistent("only who entered a result, or their team, withdraws or replaces it")
    return entry


def _entry_withdrawn(
    state: MatchState, progress: sc.MatchProgress, payload: dict[str, Any], actor: int | None
) -> MatchState:
    """An entry taken back by its team, unanswered or disputed: the deal is no longer
    disputed (the other side's entry, if both entered, awaits its match again)."""
    if set(payload) != {"deal", "entry"}:
        raise LogInconsistent(f"entry_withdrawn with fields {sorted(payload)}")
    entry = _own_entry(state, payload, actor)
    entries = tuple(e for e in state.entries if e.number != entry.number)
    return replace(state, entries=entries, disputed=False, counter=None)


def _version_accepted(
    state: MatchState, progress: sc.MatchProgress, payload: dict[str, Any], actor: int | None
) -> MatchState:
    """The team that made an entry agrees to the other team's numbers instead: two teams
    agree, so the deal is counted with those numbers (the ``deal_ended`` now due)."""
    if set(payload) != {"deal", "entry", "points", "sweeps"}:
        raise LogInconsistent(f"version_accepted with fields {sorted(payload)}")
    entry = _own_entry(state, payload, actor)
    version = other_version(state, entry)
    if version is None:
        raise LogInconsistent("version_accepted with no other version of the deal to accept")
    if actor is not None and (
        actor == version.actor
        or (version.side is not None and state.side_of(actor) == version.side)
    ):
        raise LogInconsistent("a team accepts the other team's version, not its own")
    if [payload["points"], payload["sweeps"]] != [list(version.points), version.result()["sweeps"]]:
        raise LogInconsistent(f"version_accepted says {payload}, the version is {version}")
    return replace(state, accepted=version, due=DEAL_ENDED)


# --- corrections ---------------------------------------------------------------------------


def _reason(payload: dict[str, Any]) -> str:
    reason = payload.get("reason")
    if not isinstance(reason, str) or not reason.strip() or len(reason) > MAX_REASON:
        raise LogInconsistent(f"a reason is 1 to {MAX_REASON} characters")
    return reason


def _recounted(state: MatchState, ledger: tuple[counting.Counted, ...]) -> MatchState:
    """Return the state with the ledger counted again from the start, and what it makes due.

    A finished match whose result the correction changes ends again with the new result, or is
    reopened when the format no longer ends it; a running one the correction ends, ends.
    """
    progress = counting.standing(state.start(), ledger)
    if state.forfeit is not None:
        progress = progress.forfeited_by(state.forfeit)
    if state.status == FINISHED:
        if not progress.over:
            due: Kind | None = K.MATCH_REOPENED
        elif match_outcome(progress, state.forfeit) != state.outcome:
            due = MATCH_ENDED
        else:
            due = None
    else:
        due = MATCH_ENDED if progress.over else None
    return replace(state, progress=progress, ledger=ledger, due=due)


def _counted_deal(state: MatchState, number: Any) -> counting.Counted:
    found = next((c for c in state.ledger if c.kind == "deal" and c.deal == number), None)
    if found is None:
        raise LogInconsistent(f"deal {number!r} has not been counted")
    return found


def _deal_corrected(
    state: MatchState, progress: sc.MatchProgress, payload: dict[str, Any], actor: int | None
) -> MatchState:
    if set(payload) != {"deal", "dealer", "points", "sweeps", "total", "reason"}:
        raise LogInconsistent(f"deal_corrected with fields {sorted(payload)}")
    counted = _counted_deal(state, payload["deal"])
    _reason(payload)
    result = deal_result(
        progress, counted.deal, payload["points"], payload["sweeps"], counted.dealer
    )
    if {k: payload[k] for k in result} != result:
        raise LogInconsistent(f"deal_corrected says {payload}, the rules give {result}")
    return _recounted(state, counting.recount(state.ledger, K.DEAL_CORRECTED, payload, 0))


def _deal_voided(
    state: MatchState, progress: sc.MatchProgress, payload: dict[str, Any], actor: int | None
) -> MatchState:
    if set(payload) != {"deal", "reason"}:
        raise LogInconsistent(f"deal_voided with fields {sorted(payload)}")
    _counted_deal(state, payload["deal"])
    _reason(payload)
    return _recounted(state, counting.recount(state.ledger, K.DEAL_VOIDED, payload, 0))


def _score_adjusted(
    state: MatchState, progress: sc.MatchProgress, payload: dict[str, Any], actor: int | None
) -> MatchState:
    if set(payload) != {"team", "points", "reason"}:
        raise LogInconsistent(f"score_adjusted with fields {sorted(payload)}")
    if state.status != IN_PROGRESS:
        raise LogInconsistent("an adjustment after the match ended")
    _reason(payload)
    progress.after_adjustment(payload["team"], payload["points"])  # checks the numbers
    return _recounted(state, counting.recount(state.ledger, K.SCORE_ADJUSTED, payload, 0))


def _match_forfeited(
    state: MatchState, progress: sc.MatchProgress, payload: dict[str, Any], actor: int | None
) -> MatchState:
    if set(payload) != {"team", "reason"} or payload["team"] not in (0, 1):
        raise LogInconsistent(f"match_forfeited with {payload}")
    if state.forfeit is not None:
        raise LogInconsistent("a match is forfeited once")
    _reason(payload)
    return _recounted(replace(state, forfeit=payload["team"]), state.ledger)


def _match_reopened(
    state: MatchState, progress: sc.MatchProgress, payload: dict[str, Any], actor: int | None
) -> MatchState:
    if state.due != K.MATCH_REOPENED:
        raise LogInconsistent("match_reopened without a correction that reopens the match")
    if payload != {"deals": progress.deals}:
        raise LogInconsistent(f"match_reopened says {payload}")
    due = DEAL_STARTED if state.digital_like else None
    return replace(state, status=IN_PROGRESS, outcome=None, due=due)


_HANDLERS: dict[
    str, Callable[[MatchState, sc.MatchProgress, dict[str, Any], int | None], MatchState]
] = {
    DEAL_STARTED: _deal_started,
    MOVE_PLAYED: _move_played,
    K.MOVE_WITHDRAWN: _move_withdrawn,
    DEAL_ENDED: _deal_ended,
    MATCH_ENDED: _match_ended,
    K.DEAL_ENTERED: _deal_entered,
    K.DEAL_CONFIRMED: _deal_confirmed,
    K.DEAL_REJECTED: _deal_rejected,
    K.DEAL_DISPUTED: _deal_disputed,
    K.ENTRY_WITHDRAWN: _entry_withdrawn,
    K.VERSION_ACCEPTED: _version_accepted,
    K.DEAL_CORRECTED: _deal_corrected,
    K.DEAL_VOIDED: _deal_voided,
    K.SCORE_ADJUSTED: _score_adjusted,
    K.MATCH_FORFEITED: _match_forfeited,
    K.MATCH_REOPENED: _match_reopened,
}
