"""Match snapshots: the engine state at the head of a log, a cache that must prove itself.

A snapshot is trusted only when it is at the head of its match's log (the seq and the hash of
the last event, as the match row holds them) and its keyed digest, over the match id, the
seq, that hash and the state, checks out. Anything else (no row, a row left at an older seq,
a row copied from another match, a state edited in place, an older state version) is not
trusted, and the state is rebuilt from the log, which is the authority.
"""

from __future__ import annotations

import hmac
import logging
from typing import Any

from django.db import connection
from django.utils.crypto import salted_hmac

from . import matchlog
from .appendsql import decoded
from .chain import canonical_json
from .models import Match, MatchEvent, MatchSnapshot
from .reads import consistent_read

log = logging.getLogger(__name__)

_SALT = "tournaments.snapshot"


def snapshot_digest(match_id: int, seq: int, head_hash: str, state: dict[str, Any]) -> str:
    """Return the keyed digest that binds a snapshot's state to its match and head."""
    return canonical_digest(match_id, seq, head_hash, canonical_json(state))


def canonical_digest(match_id: int, seq: int, head_hash: str, canonical_state: str) -> str:
    """Return ``snapshot_digest`` of the state whose canonical JSON is ``canonical_state``."""
    message = f"{match_id}:{seq}:{head_hash}:{canonical_state}"
    return salted_hmac(_SALT, message, algorithm="sha256").hexdigest()


def save_snapshot(match_id: int, seq: int, head_hash: str, state: matchlog.MatchState) -> None:
    """Write the match's snapshot; the caller holds the match row's lock, so no one races."""
    data = state.to_json()
    fields = {
        "seq": seq,
        "head_hash": head_hash,
        "digest": snapshot_digest(match_id, seq, head_hash, data),
        "state": data,
    }
    if not MatchSnapshot.objects.filter(match_id=match_id).update(**fields):
        MatchSnapshot.objects.create(match_id=match_id, **fields)


def proven_state(
    match: Match, row: tuple[int, str, str, dict[str, Any]] | None
) -> matchlog.MatchState | None:
    """Return the state of a snapshot row (seq, head_hash, digest, state) read for ``match``,
    if it proves to be at the match's head; else None (no row, or one that does not prove).
    """
    if row is None:
        return None
    seq, head_hash, digest, state = row
    if (seq, head_hash) != (match.last_seq, match.last_hash):
        log.error(
            "snapshot of match %s is at seq %s, the log at %s: rebuilding it",
            match.pk,
            seq,
            match.last_seq,
        )
        return None
    if not hmac.compare_digest(digest, snapshot_digest(match.pk, seq, head_hash, state)):
        log.error("snapshot of match %s does not prove its state: rebuilding it", match.pk)
        return None
    try:
        return matchlog.MatchState.from_json(state)
    except ValueError as exc:
        log.warning("snapshot of match %s is not readable (%s): rebuilding it", match.pk, exc)
        return None


def replay_log(match: Match) -> matchlog.MatchState:
    """Return the state after replaying every stored event of ``match`` through the engine.

    Raises LogInconsistent if the log does not replay, or if its last event is not the head
    the match row holds.
    """
    rows = MatchEvent.objects.filter(match=match).order_by("seq")
    events = list(rows.values_list("seq", "hash", "kind", "payload", "actor_id"))
    head = (events[-1][0], events[-1][1]) if events else (0, "")
    if head != (match.last_seq, match.last_hash or ""):
        raise matchlog.LogInconsistent(
            f"the match's head of log (seq {match.last_seq}) is not its last event (seq {head[0]})"
        )
    return matchlog.replay(
        [(kind, payload, actor) for _, _, kind, payload, actor in events], match.mode
    )


def rebuild_snapshot(match: Match) -> matchlog.MatchState:
    """Rebuild a match's snapshot (and its status) from its log; call with the match locked."""
    state = replay_log(match)
    save_snapshot(match.pk, match.last_seq, match.last_hash, state)
    if match.status != state.status:
        Match.objects.filter(pk=match.pk).update(status=state.status)
        match.status = state.status
    return state


def current_state(match: Match | int) -> matchlog.MatchState:
    """Return where the match stands now: its snapshot when it proves itself, else a replay.

    For readers (no lock, nothing written). The head and the snapshot come in one statement,
    so in one picture (a snapshot that proves needs nothing else: one round trip); a replay
    reads the head and the events again as one picture, and the log decides whatever state
    the cache is in. Raises Match.DoesNotExist for no such match.
    """
    match_id = match.pk if isinstance(match, Match) else match
    with connection.cursor() as cursor:
        cursor.execute(_HEAD_AND_SNAPSHOT, [match_id])
        row = cursor.fetchone()
    if row is None:
        raise Match.DoesNotExist(f"no match with id {match_id}")
    fresh = Match.from_db(connection.alias, _HEAD_FIELDS, [match_id, *row[:4]])
    state = proven_state(fresh, decoded(tuple(row[4:])) if row[4] is not None else None)
    if state is not None:
        return state
    with consistent_read():
        fresh = Match.objects.only(*_HEAD_FIELDS[1:]).get(pk=match_id)
        return replay_log(fresh)


_HEAD_FIELDS = ["id", "mode", "status", "last_seq", "last_hash"]
_HEAD_AND_SNAPSHOT = (
    f"SELECT m.mode, m.status, m.last_seq, m.last_hash, s.seq, s.head_hash, s.digest, s.state "
    f"FROM {Match._meta.db_table} m "
    f"LEFT JOIN {MatchSnapshot._meta.db_table} s ON s.match_id = m.id WHERE m.id = %s"
)
