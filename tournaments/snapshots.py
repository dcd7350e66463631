"""Match snapshots: the engine state at a point of a log, a cache that must prove itself.

A snapshot is the state after the event ``seq`` whose hash is ``head_hash``, with a keyed
digest over the match id, the seq, that hash and the state. It is written at most every
``SNAPSHOT_EVERY`` events, not at every append (rewriting a few KB of state at each append
was most of the append's WAL), so it is at the head of the log or a few events behind it:
the state at the head is the snapshot's with the events after it folded on (``folded``),
read with it. It is trusted only when its digest checks out, it is not past the head, and
the events after it run from its own seq and hash to the head's (the match row's): so a
row copied from another match, a state edited in place, a row left past the head or one
whose event was replaced is not trusted, and the state is rebuilt from the log, which is
the authority. An older state version is rebuilt too (but for the ones still read:
``matchlog.state.READABLE_VERSIONS``). The state is stored as its canonical JSON
(``chain.canonical_json``), the very text the digest is taken over.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Q

from . import matchlog
from .appendsql import Held
from .chain import canonical_json
from .models import Match, MatchEvent, MatchSnapshot
from .per_match import PerMatch
from .reads import consistent_read

log = logging.getLogger(__name__)

_SALT = "tournaments.snapshot"

#: an append writes the snapshot when its events reach a multiple of this seq (or the match
#: has none, or it was rebuilt): so a snapshot is fewer than this many events behind the head
#: (plus those of the append that passed it), and a reader folds at most that many
SNAPSHOT_EVERY = 32

#: the events after a snapshot, from its own: (seq, hash, kind, payload, actor id, via)
Tail = list[tuple[int, str, str, dict[str, Any], int | None, str]]
#: what reads the events of a match from a seq (to the head that was read)
TailReader = Callable[[int], Tail]


def due(before_seq: int, after_seq: int) -> bool:
    """Whether an append that takes the log from ``before_seq`` to ``after_seq`` writes the
    snapshot (it passes a multiple of ``SNAPSHOT_EVERY``)."""
    return after_seq // SNAPSHOT_EVERY != before_seq // SNAPSHOT_EVERY


def events_from(match_id: int, start: int, head: int) -> Tail:
    """Return the match's events ``start`` to ``head`` (stored events never change, so any
    read of them is the log's, whenever it runs)."""
    rows = MatchEvent.objects.filter(match_id=match_id, seq__gte=start, seq__lte=head)
    return [
        (seq, hash_, kind, payload, actor, via)
        for seq, hash_, kind, payload, actor, via in rows.order_by("seq").values_list(
            "seq", "hash", "kind", "payload", "actor_id", "via"
        )
    ]


def folded(
    match: Match, state: matchlog.MatchState, at: tuple[int, str], tail: Tail
) -> matchlog.MatchState | None:
    """Return ``state``, the state after the event ``at`` (seq, hash), with the events of
    ``tail`` after it folded on, to the match's head; or None if ``tail`` does not run from
    that event to the head, seq after seq, or does not fold (the log then decides)."""
    events = [event for event in tail if event[0] >= at[0]]
    head = (match.last_seq, match.last_hash)
    if (
        not events
        or events[0][:2] != at
        or events[-1][:2] != head
        or [event[0] for event in events] != list(range(at[0], head[0] + 1))
    ):
        log.error(
            "events after seq %s of match %s do not reach its head: rebuilding", at[0], match.pk
        )
        return None
    try:
        for _, _, kind, payload, actor, via in events[1:]:
            state = matchlog.apply_event(state, kind, payload, matchlog.author(actor, via))
    except matchlog.LogInconsistent as exc:
        log.error("events after the snapshot of match %s do not fold (%s)", match.pk, exc)
        return None
    return state


def canonical_digest(match_id: int, seq: int, head_hash: str, canonical_state: str) -> str:
    """Return the keyed digest that binds a snapshot's state (its canonical JSON,
    ``canonical_state``) to its match and head."""
    message = f"{match_id}:{seq}:{head_hash}:{canonical_state}"
    return hmac.digest(_key(settings.SECRET_KEY), message.encode(), "sha256").hex()


@functools.lru_cache(maxsize=4)
def _key(secret: str) -> bytes:
    """The HMAC key Django's ``salted_hmac(_SALT, ..., algorithm="sha256")`` derives from
    ``secret``, derived once (an append takes a digest; deriving it was a hash more)."""
    return hashlib.sha256((_SALT + secret).encode()).digest()


def save_snapshot(match_id: int, seq: int, head_hash: str, state: matchlog.MatchState) -> None:
    """Write the match's snapshot; the caller holds the match row's lock, so no one races."""
    text = canonical_json(state.to_json())
    fields = {
        "seq": seq,
        "head_hash": head_hash,
        "digest": canonical_digest(match_id, seq, head_hash, text),
        "state": text,
    }
    if not MatchSnapshot.objects.filter(match_id=match_id).update(**fields):
        MatchSnapshot.objects.create(match_id=match_id, **fields)


def proven_state(
    match: Match,
    row: tuple[int, str, str, str | None] | None,
    tail: TailReader | None = None,
) -> matchlog.MatchState | None:
    """Return the state at ``match``'s head from a snapshot row (seq, head_hash, digest,
    state: its JSON as stored) read for it, if it proves; else None (no row, or one that does
    not prove). The digest is checked over the text as stored, before it is decoded; a row
    behind the head has the events after it folded on (``folded``), read by ``tail`` (from a
    seq; by default from the table, to the head that was read).
    """
    if row is None:
        return None
    seq, head_hash, digest, text = row
    if seq > match.last_seq or (seq == match.last_seq and head_hash != match.last_hash):
        log.error(
            "snapshot of match %s is at seq %s, the log at %s: rebuilding it",
            match.pk,
            seq,
            match.last_seq,
        )
        return None
    if not isinstance(text, str) or not hmac.compare_digest(
        digest, canonical_digest(match.pk, seq, head_hash, text)
    ):
        log.error("snapshot of match %s does not prove its state: rebuilding it", match.pk)
        return None
    try:
        state = matchlog.MatchState.from_json(json.loads(text))
    except ValueError as exc:
        log.warning("snapshot of match %s is not readable (%s): rebuilding it", match.pk, exc)
        return None
    if seq == match.last_seq:
        return state
    events = (tail or _reader(match))(seq)
    return folded(match, state, (seq, head_hash), events)


def _reader(match: Match) -> TailReader:
    return functools.partial(events_from, match.pk, head=match.last_seq)


def replay_log(match: Match) -> matchlog.MatchState:
    """Return the state after replaying every stored event of ``match`` through the engine.

    Raises LogInconsistent if the log does not replay, or if its last event is not the head
    the match row holds.
    """
    rows = MatchEvent.objects.filter(match=match).order_by("seq")
    events = list(rows.values_list("seq", "hash", "kind", "payload", "actor_id", "via"))
    head = (events[-1][0], events[-1][1]) if events else (0, "")
    if head != (match.last_seq, match.last_hash or ""):
        raise matchlog.LogInconsistent(
            f"the match's head of log (seq {match.last_seq}) is not its last event (seq {head[0]})"
        )
    return matchlog.replay(
        [
            (kind, payload, matchlog.author(actor, via))
            for _, _, kind, payload, actor, via in events
        ],
        match.mode,
    )


def rebuild_snapshot(match: Match) -> matchlog.MatchState:
    """Rebuild a match's snapshot (and its status) from its log; call with the match locked."""
    state = replay_log(match)
    save_snapshot(match.pk, match.last_seq, match.last_hash, state)
    if match.status != state.status:
        Match.objects.filter(pk=match.pk).update(status=state.status)
        match.status = state.status
    return state


#: what ``RecentStates`` keeps of a match: (seq, head hash, snapshot digest, state, the
#: match's row as this process's last write of it left it, or None)
Kept = tuple[int, str, str, matchlog.MatchState, Held | None]


class RecentStates(PerMatch[Kept]):
    """The state this process last wrote or proved for each match, kept to skip decoding its
    snapshot again; and, after its own write, the match's row, to append on it in one trip.

    An entry is the state after the event ``seq`` whose hash is ``head_hash``, and the digest
    of the snapshot it is the state of: written with it (``services._write``), or proved
    against it (``current_state``). It is used only when a read finds that same head and
    that same snapshot row (seq, head hash, digest): the head's hash names the whole log
    before it and the state is that log's fold, so it is the state the snapshot and the events
    after it (a snapshot is written every few events: migration 0023) prove,
    decoded already. Anything else (another process's append, a repair, a row replaced) is
    a miss, and the snapshot is read and proved as ever. A write that does not commit leaves
    an entry no head will match. Bounded; shared by the threads of the process.

    The row (``appendsql.Held``) is kept by a write, at the head it wrote; a reader that
    keeps the same head and snapshot (racing that write) leaves it be; any other head goes
    without it, and ``forget_row`` drops it when the server found it no longer holds
    (``appendsql.write_held``).
    """

    SIZE = 2048

    def keep(
        self,
        match_id: int,
        seq: int,
        head_hash: str,
        digest: str,
        state: matchlog.MatchState,
        row: Held | None = None,
    ) -> None:
        with self._lock:
            held = self._kept.get(match_id)
            if held is not None and held[0] > seq:
                return  # a reader that raced an append: the append's state is the newer
            if row is None and held is not None and held[:3] == (seq, head_hash, digest):
                # a reader that raced this process's own write and proved what it wrote: the
                # same head and snapshot, so the row held there still is
                row = held[4]
            self._put(match_id, (seq, head_hash, digest, state, row))

    def clear(self) -> None:
        """Forget every match: for a database whose ids start again (a test's, rolled back;
        one restored from a backup), where a kept state of a higher seq than the log's would
        stop this process from keeping the new ones (``keep`` takes it for a raced read)."""
        super().clear()

    def forget_row(self, match_id: int) -> None:
        """Keep the match's state, without the row held with it."""
        with self._lock:
            held = self._kept.get(match_id)
            if held is not None and held[4] is not None:
                self._kept[match_id] = (*held[:4], None)


#: this process's kept states (the appends' and the readers')
recent = RecentStates()


def state_at_head(
    match: Match,
    kept: Kept | None,
    snapshot: tuple[int, str, str, Any] | None,
    tail: TailReader | None = None,
) -> matchlog.MatchState | None:
    """Return the state at ``match``'s head from what a read found, or None (then the log
    decides): the state ``kept`` (``recent.get`` before the read) if the read found the
    snapshot row it was kept with (the digest binds the row's seq and head hash), with the
    events since it folded on if the head moved on; else the row's own state if it proves
    (``proven_state``). A state found is kept at the head. A row whose state was not sent
    (its digest was the kept one) does not prove. ``tail`` reads the events from a seq.
    """
    head = (match.last_seq, match.last_hash)
    state = None
    if kept is not None and snapshot is not None and snapshot[2] == kept[2]:
        if kept[:2] == head:
            return kept[3]
        if kept[0] < head[0]:
            state = folded(match, kept[3], (kept[0], kept[1]), (tail or _reader(match))(kept[0]))
    if state is None:
        state = proven_state(match, snapshot, tail)
    if state is not None and snapshot is not None:
        recent.keep(match.pk, head[0], head[1], snapshot[2], state)
    return state


def current_state(match: Match | int) -> matchlog.MatchState:
    """Return where the match stands now: its snapshot when it proves itself, else a replay.

    For readers (no lock, nothing written). The head and the snapshot come in one statement,
    so in one picture (a snapshot that proves needs nothing else: one round trip); its state
    is not even sent when this process holds it already (``recent``: kept by the last append
    or read of the match here, at the same head and snapshot row). A replay reads the head
    and the events again as one picture, and the log decides whatever state the cache is in.
    Raises Match.DoesNotExist for no such match.
    """
    match_id = match.pk if isinstance(match, Match) else match
    kept = recent.get(match_id)
    with connection.cursor() as cursor:
        cursor.execute(_HEAD_AND_SNAPSHOT, [None if kept is None else kept[2], match_id])
        row = cursor.fetchone()
    if row is None:
        raise Match.DoesNotExist(f"no match with id {match_id}")
    fresh = Match.from_db(connection.alias, _HEAD_FIELDS, [match_id, *row[:4]])
    snapshot = None if row[4] is None else (int(row[4]), row[5], row[6], row[7])
    state = state_at_head(fresh, kept, snapshot)
    if state is not None:
        return state
    with consistent_read():
        fresh = Match.objects.only(*_HEAD_FIELDS[1:]).get(pk=match_id)
        return replay_log(fresh)


_HEAD_FIELDS = ["id", "mode", "status", "last_seq", "last_hash"]
_HEAD_AND_SNAPSHOT = (
    "SELECT m.mode, m.status, m.last_seq, m.last_hash, s.seq, s.head_hash, s.digest, "
    "CASE WHEN s.digest = %s THEN NULL ELSE s.state END "
    f"FROM {Match._meta.db_table} m "
    f"LEFT JOIN {MatchSnapshot._meta.db_table} s ON s.match_id = m.id WHERE m.id = %s"
)


def current_states(match_ids: list[int]) -> dict[int, matchlog.MatchState]:
    """Return where each match stands now, by id, for a page of many tables (a board).

    One statement reads every head with its snapshot (one picture), and one more the events
    after the snapshots (or the states kept) that are behind their heads; each snapshot is
    trusted exactly as ``current_state`` trusts one (``state_at_head``), and a match whose
    snapshot does not prove is replayed from its log (its own queries, as rare as a repair).
    An id of no match is left out.
    """
    rows = Match.objects.filter(pk__in=match_ids).values_list(
        *_HEAD_FIELDS,
        "snapshot__seq",
        "snapshot__head_hash",
        "snapshot__digest",
        "snapshot__state",
    )
    found = []
    behind = Q()
    for row in rows:
        match_id = row[0]
        kept = recent.get(match_id)
        fresh = Match.from_db(connection.alias, _HEAD_FIELDS, list(row[:5]))
        snapshot = None if row[5] is None else (int(row[5]), row[6], row[7], row[8])
        start = _tail_start(fresh, kept, snapshot)
        if start is not None:
            behind |= Q(match_id=match_id, seq__gte=start, seq__lte=fresh.last_seq)
        found.append((fresh, kept, snapshot))
    tails: dict[int, Tail] = {}
    if behind:
        rows_behind = MatchEvent.objects.filter(behind).order_by("match_id", "seq")
        fields = ("match_id", "seq", "hash", "kind", "payload", "actor_id", "via")
        for match_id, seq, hash_, kind, payload, actor, via in rows_behind.values_list(*fields):
            tails.setdefault(match_id, []).append((seq, hash_, kind, payload, actor, via))
    states = {}
    for fresh, kept, snapshot in found:
        state = state_at_head(fresh, kept, snapshot, _given(tails.get(fresh.pk, [])))
        states[fresh.pk] = state if state is not None else current_state(fresh.pk)
    return states


def _given(events: Tail) -> TailReader:
    """A reader of the events read already (``folded`` takes those from the seq it needs)."""
    return lambda start: events


def _tail_start(
    match: Match, kept: Kept | None, snapshot: tuple[int, str, str, Any] | None
) -> int | None:
    """Return the seq from which ``state_at_head`` reads the events of ``match`` (the kept
    state's or the snapshot's), or None if it reads none (at the head, or no snapshot)."""
    if snapshot is None:
        return None
    if kept is not None and snapshot[2] == kept[2] and kept[0] <= match.last_seq:
        return kept[0] if kept[0] < match.last_seq else None
    return snapshot[0] if snapshot[0] < match.last_seq else None
