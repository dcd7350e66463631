"""Writing a match's history: the one append service every writer goes through."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

import seep_core as sc

from . import matchlog
from .access import is_director, is_scorekeeper, seats_of
from .chain import GENESIS, event_hash, request_digest
from .errors import (
    CommandRefused,
    IdempotencyKeyReused,
    MoveRefused,
    NotPermitted,
    StaleSequence,
)
from .models import Match, MatchEvent, MatchSnapshot, Team, Tournament

log = logging.getLogger(__name__)

#: the longest Idempotency-Key accepted (the column's size)
MAX_KEY_LENGTH = MatchEvent._meta.get_field("idempotency_key").max_length or 200
#: read with the locked match: a join per relation costs more than it saves, so the seated
#: players are looked up only when a player (not a director) appends
_APPEND_RELATED = ("tournament", "snapshot")


@dataclass(frozen=True)
class AppendResult:
    """The events one append wrote (the command first), and the log's head after it."""

    events: list[MatchEvent]
    last_seq: int
    replayed: bool  # True: an idempotent retry, answered with the original events


def match_create(
    *,
    tournament: Tournament,
    team0: Team,
    team1: Team,
    mode: str,
    match_format: dict[str, Any] | None = None,
    first_dealer: int | None = None,
) -> Match:
    """Create a scheduled match; it records the tournament's rules as they are now."""
    match = Match(
        tournament=tournament,
        team0=team0,
        team1=team1,
        mode=mode,
        rules=None,
        match_format=match_format,
        first_dealer=first_dealer,
    )
    match.full_clean()
    match.save()
    return match


def match_append_event(
    *,
    match: Match | int,
    expected_seq: int,
    kind: str,
    payload: Any,
    actor: Any,
    idempotency_key: str | None = None,
    shuffle: matchlog.Shuffle = matchlog.secure_deck,
) -> AppendResult:
    """Append a command (and the events it causes) to a match's log, or refuse and write nothing.

    In one transaction: lock the match; answer a repeated ``idempotency_key`` with the
    original events; check ``expected_seq`` against the head of the log (StaleSequence);
    check the actor may do this; validate by replaying the command through seep_core from
    the match's snapshot (IllegalMove keeps its rule id); write the events, chained by hash,
    and the new snapshot. The scoring projection is scheduled after the commit, never before.
    ``actor`` None is the server itself (demo seeding, internal jobs).
    """
    match_id = match.pk if isinstance(match, Match) else match
    if idempotency_key is not None and not (
        isinstance(idempotency_key, str) and 1 <= len(idempotency_key) <= MAX_KEY_LENGTH
    ):
        raise CommandRefused(
            f"an idempotency key is 1 to {MAX_KEY_LENGTH} characters", code="bad_idempotency_key"
        )
    digest = request_digest(kind, payload, expected_seq)
    try:
        with transaction.atomic():
            locked = (
                # of=self: lock this match's row only. A plain FOR UPDATE with these joins
                # also locks the tournament and team rows, serializing every match of a
                # tournament behind one lock.
                # The tournament (for permissions) and the snapshot come along.
                Match.objects.select_for_update(of=("self",))
                .select_related(*_APPEND_RELATED)
                .get(pk=match_id)
            )
            if idempotency_key is not None:
                original = _original_result(locked, idempotency_key, digest)
                if original is not None:
                    return original
            if expected_seq != locked.last_seq:
                raise StaleSequence(expected_seq=expected_seq, current_seq=locked.last_seq)
            _authorize(locked, actor, kind, payload)
            state = _load_state(locked)
            setup = matchlog.MatchSetup(
                locked.mode, locked.rules, locked.match_format, locked.first_dealer
            )
            try:
                planned, new_state = matchlog.plan(state, setup, kind, payload, shuffle=shuffle)
            except sc.SeepError as exc:
                raise MoveRefused(exc.message, code=exc.code, rule=exc.rule) from exc
            events = _write(locked, planned, actor, idempotency_key, digest, new_state)
            # robust: a broker that is down must not fail an append that has committed (the
            # scoring catch-up sends it later). Not a functools.partial: Django 5.2 logs a
            # failed robust callback by its __qualname__, which a partial does not have.
            transaction.on_commit(lambda: _schedule_projection(match_id), robust=True)
            return AppendResult(events, events[-1].seq, replayed=False)
    except IntegrityError as exc:
        # Only a racing writer that slipped past the lock (or a duplicate key) gets here.
        current = Match.objects.values_list("last_seq", flat=True).get(pk=match_id)
        log.warning("append to match %s lost a race: %s", match_id, exc)
        raise StaleSequence(expected_seq=expected_seq, current_seq=current) from exc


def _original_result(match: Match, key: str, digest: str) -> AppendResult | None:
    first = MatchEvent.objects.filter(match=match, idempotency_key=key).first()
    if first is None:
        return None
    if first.request_digest != digest:
        raise IdempotencyKeyReused(key)
    events = list(
        MatchEvent.objects.filter(match=match)
        .filter(Q(seq=first.seq) | Q(caused_by=first.seq))
        .order_by("seq")
    )
    # The original answer: the head right after that append, not the head now (a client that
    # takes the head now as its next expected_seq would skip the events it has not seen).
    return AppendResult(events, events[-1].seq, replayed=True)


def _authorize(match: Match, actor: Any, kind: str, payload: Any) -> None:
    if actor is None or is_director(actor, match.tournament):
        return
    if kind == matchlog.MOVE_PLAYED:
        move = payload.get("move") if isinstance(payload, dict) else None
        seat = move.get("seat") if isinstance(move, dict) else None
        if match.mode == Match.Mode.DIGITAL and seat in seats_of(actor, match):
            return
        raise NotPermitted(
            "only the player at that seat (or a director) may play its moves",
            code="not_your_seat",
        )
    if kind == matchlog.DEAL_ENDED and is_scorekeeper(actor, match):
        return
    raise NotPermitted(f"you may not append {kind} to this match", code="forbidden")


def _load_state(match: Match) -> matchlog.MatchState:
    try:
        snapshot: MatchSnapshot | None = match.snapshot  # loaded with the locked match
    except MatchSnapshot.DoesNotExist:
        snapshot = None
    if snapshot is None:
        if match.last_seq:
            return rebuild_snapshot(match)
        return matchlog.MatchState(match.mode)
    if snapshot.seq != match.last_seq:  # stale cache (never expected): rebuild, never trust
        log.error("snapshot of match %s at %s, log at %s", match.pk, snapshot.seq, match.last_seq)
        return rebuild_snapshot(match)
    return matchlog.MatchState.from_json(snapshot.state)


def _write(
    match: Match,
    planned: list[matchlog.Event],
    actor: Any,
    idempotency_key: str | None,
    digest: str,
    state: matchlog.MatchState,
) -> list[MatchEvent]:
    now = timezone.now()
    actor_id = None if actor is None else actor.pk
    previous = match.last_hash or GENESIS
    first_seq = match.last_seq + 1
    events = []
    for offset, (kind, payload) in enumerate(planned):
        seq = first_seq + offset
        key = idempotency_key if offset == 0 else None
        caused_by = None if offset == 0 else first_seq
        fields = {
            "seq": seq,
            "kind": kind,
            "payload": payload,
            "recorded_at": now,
            "idempotency_key": key,
            "caused_by": caused_by,
        }
        previous = event_hash(previous, actor=actor_id, **fields)
        events.append(
            MatchEvent(
                match=match,
                actor_id=actor_id,
                request_digest=digest if key is not None else "",
                hash=previous,
                **fields,
            )
        )
    MatchEvent.objects.bulk_create(events)
    last = events[-1]
    Match.objects.filter(pk=match.pk).update(
        last_seq=last.seq, last_hash=last.hash, status=state.status
    )
    _save_snapshot(match, last.seq, state)
    match.last_seq, match.last_hash, match.status = last.seq, last.hash, state.status
    return events


def replay_log(match: Match) -> matchlog.MatchState:
    """Return the state after replaying every stored event of ``match`` through the engine."""
    events = MatchEvent.objects.filter(match=match).order_by("seq").values_list("kind", "payload")
    return matchlog.replay(list(events), match.mode)


def rebuild_snapshot(match: Match) -> matchlog.MatchState:
    """Rebuild a match's snapshot (and its status) from its log; call with the match locked."""
    state = replay_log(match)
    _save_snapshot(match, match.last_seq, state)
    if match.status != state.status:
        Match.objects.filter(pk=match.pk).update(status=state.status)
        match.status = state.status
    return state


def _save_snapshot(match: Match, seq: int, state: matchlog.MatchState) -> None:
    """Write the match's snapshot; the caller holds the match row's lock, so no one races."""
    data = state.to_json()
    if not MatchSnapshot.objects.filter(match=match).update(seq=seq, state=data):
        MatchSnapshot.objects.create(match=match, seq=seq, state=data)


def _schedule_projection(match_id: int) -> None:
    """Ask a worker to bring the match's scoring projection up to date (after the commit)."""
    from scoring.tasks import project_match

    project_match.delay(match_id)


__all__ = [
    "AppendResult",
    "CommandRefused",
    "match_append_event",
    "match_create",
    "rebuild_snapshot",
    "replay_log",
]
