"""Writing the scoring read models: bring one match's projection up to the head of its log.

``update_match_projection`` is the one writer. It is safe to run twice, concurrently, late or
out of order: it locks the match's result row, compares the checkpoint with the head of the
log, and writes the rows and the new checkpoint in the same transaction, so a second run
finds nothing to do and a stale run can only bring the projection up to date.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass, fields
from typing import Any

from django.db import connection, models, transaction
from django.db.models import F
from django.utils import timezone

import live
from tournaments.models import Match, MatchEvent
from tournaments.reads import consistent_read

from . import happenings as told
from .models import DealResult, MatchResult
from .projections import SCORED_KINDS, DealRow, LogEvent, MatchRow, fold

log = logging.getLogger(__name__)

#: what ``update_match_projection`` did
MISSING = "missing"  # no such match (deleted before it had events): nothing to project
CURRENT = "current"  # the checkpoint is at the head of the log (or no log yet): no writes
ADVANCED = "advanced"  # only events that cannot change a result: the checkpoint moved
RECOMPUTED = "recomputed"  # the match was folded again; changed rows were written

#: the DealResult fields the fold decides (everything but the id and the match)
DEAL_FIELDS = (
    "dealer", "points0", "points1", "sweeps0", "sweeps1", "total0", "total1", "difference",
    "running_difference", "reset", "bazzi", "reason", "bazzis0", "bazzis1", "seq",
)  # fmt: skip


@dataclass(frozen=True)
class ProjectionUpdate:
    """What one call of ``update_match_projection`` found and wrote."""

    match_id: int
    outcome: str  # MISSING, CURRENT, ADVANCED or RECOMPUTED
    seq: int  # the checkpoint afterwards
    rows_changed: int  # deal rows created, changed or deleted, plus the match row's result
    completed: bool  # this call recorded a new or changed result (and scheduled the hook)


def update_match_projection(*, match_id: int, rebuild: bool = False) -> ProjectionUpdate:
    """Bring the scoring projection of match ``match_id`` up to the head of its log.

    In one transaction: lock the match's MatchResult row (created first if missing, without
    a race), read the head of the log, and return at once if the checkpoint is there. If
    only events that cannot change a result came in since the checkpoint (moves, new deals
    dealt), just move the checkpoint. Otherwise fold the match's scored events from the start
    (``projections.fold``) and write the rows that differ, the new checkpoint, and, the first
    time the match is over, its completion, which schedules ``on_match_completed`` after the
    commit. ``rebuild`` ignores the checkpoint and always folds from the log.
    """
    if not rebuild:
        # The common case, a move or a new deal dealt: one statement moves the checkpoint
        # (UPDATE ... RETURNING: PostgreSQL, SQLite from 3.35; else the locked path below).
        advanced = (
            _advance(match_id) if connection.features.can_return_columns_from_insert else None
        )
        if advanced is not None:
            return ProjectionUpdate(match_id, ADVANCED, advanced, 0, False)
        # Already at the head (a copy delivered twice, or a task whose events an earlier one
        # folded): one read, no transaction, no lock.
        at_head = (
            MatchResult.objects.filter(match_id=match_id, seq__gte=F("match__last_seq"))
            .values_list("seq", flat=True)
            .first()
        )
        if at_head is not None:
            return ProjectionUpdate(match_id, CURRENT, at_head, 0, False)
    with transaction.atomic():
        result = _locked_result(match_id)
        if result is None:  # no such match, or one with no events: nothing to project
            found = CURRENT if Match.objects.filter(pk=match_id).exists() else MISSING
            return ProjectionUpdate(match_id, found, 0, 0, False)
        # Read after taking the lock: whatever committed before us is visible, and the
        # head only grows, so a run that waited for another sees at least what it saw.
        head, tournament_id = Match.objects.values_list("last_seq", "tournament_id").get(
            pk=match_id
        )
        if not rebuild and result.seq >= head:
            return ProjectionUpdate(match_id, CURRENT, result.seq, 0, False)
        now = timezone.now()
        events = MatchEvent.objects.filter(match_id=match_id, seq__lte=head, kind__in=SCORED_KINDS)
        if not rebuild and not events.filter(seq__gt=result.seq).exists():
            # The rows already are the fold of everything up to the checkpoint, and nothing
            # since can change them.
            result.seq, result.updated_at = head, now
            result.save(update_fields=["seq", "updated_at"])
            return ProjectionUpdate(match_id, ADVANCED, head, 0, False)
        projection = fold(
            LogEvent(*row)
            for row in events.order_by("seq").values_list("seq", "kind", "payload", "recorded_at")
        )
        changed = _write_deals(match_id, projection.deals, tournament_id, head)
        was_over, before = result.completed_at is not None, _outcome(result)
        # with completed_at: the match ended, or a correction reopened it (or re-decided it)
        match_changed = _assign(result, _columns(projection.match))
        if match_changed or result.seq != head:
            result.seq, result.updated_at = head, now
            result.save()
        # The apps above hear of a result: when the match ends, and whenever a correction
        # changes what a finished match's result says (a new winner, the bazzis, a reopening).
        tells = (not was_over and result.completed_at is not None) or (
            was_over and _outcome(result) != before
        )
        if tells:
            _tell_result(result, first=not was_over)
            match = Match.objects.select_related("team0", "team1").get(pk=match_id)
            told.result_changed(match=match, result=result, was_over=was_over)
        if changed or match_changed:  # the live parts that show the result follow
            live.publish(live.Topic.RESULT, match_id, tournament=tournament_id)
        outcome = ProjectionUpdate(match_id, RECOMPUTED, head, changed + int(match_changed), tells)
    log.debug("match %s: projection %s", match_id, outcome)
    return outcome


@functools.cache
def _advance_sql() -> str:
    """The statement of ``_advance`` (PostgreSQL and SQLite alike)."""
    result, match = MatchResult._meta.db_table, Match._meta.db_table
    event = MatchEvent._meta.db_table
    head = f"(SELECT m.last_seq FROM {match} m WHERE m.id = %s)"
    kinds = ", ".join(["%s"] * len(SCORED_KINDS))
    return (
        f"UPDATE {result} SET seq = {head}, updated_at = %s "
        f"WHERE match_id = %s AND seq < {head} AND NOT EXISTS ("
        f"SELECT 1 FROM {event} e WHERE e.match_id = %s AND e.seq > {result}.seq "
        f"AND e.kind IN ({kinds})) "
        "RETURNING seq"
    )


def _advance(match_id: int) -> int | None:
    """Move the checkpoint to the head of the log if no event since it can change a result;
    return the new checkpoint, or None if that is not so (or the match has no result row).

    One statement, one round trip, instead of the locked transaction of five queries below:
    its UPDATE takes the result row's lock as that transaction's SELECT FOR UPDATE does, and
    it reads the head and the events after the checkpoint in one picture of the database
    (the head and its events commit together). On PostgreSQL a concurrent writer of the row
    makes it wait and check again against the row as that writer left it, so it never moves
    the checkpoint back, and never over an event it has not seen (every writer of the row
    sets its checkpoint to a head it read under the row's lock, so it only grows).
    """
    now = connection.ops.adapt_datetimefield_value(timezone.now())  # as the ORM writes it
    params: list[Any] = [match_id, now, match_id, match_id, match_id, *SCORED_KINDS]
    with connection.cursor() as cursor:
        cursor.execute(_advance_sql(), params)
        row = cursor.fetchone()
    return None if row is None else int(row[0])


def _locked_result(match_id: int) -> MatchResult | None:
    """Return the match's result row, locked until the transaction ends.

    None when there is no such match, or the match has no events yet (no row is made for it).
    """
    rows = MatchResult.objects.select_for_update(no_key=True)
    result = rows.filter(match_id=match_id).first()
    if result is not None:
        return result
    head = Match.objects.filter(pk=match_id).values_list("last_seq", flat=True).first()
    if not head:
        return None
    # Two first runs may race here: ON CONFLICT DO NOTHING lets both go on to the lock.
    MatchResult.objects.bulk_create([MatchResult(match_id=match_id)], ignore_conflicts=True)
    return rows.get(match_id=match_id)


def _columns(row: DealRow | MatchRow) -> dict[str, Any]:
    """Return a fold row's values by the columns of its model (DealResult, MatchResult).

    A field of the two teams is two columns (``points``: ``points0``, ``points1``), a team's
    sweeps a list, as the JSON column reads back.
    """
    values: dict[str, Any] = {}
    for field in fields(row):
        value = getattr(row, field.name)
        if isinstance(value, tuple):
            for team, side in enumerate(value):
                values[f"{field.name}{team}"] = list(side) if isinstance(side, tuple) else side
        else:
            values[field.name] = value
    return values


def _assign(instance: models.Model, values: dict[str, Any]) -> bool:
    """Set ``values`` on ``instance``; return whether any differed."""
    changed = False
    for name, value in values.items():
        if getattr(instance, name) != value:
            setattr(instance, name, value)
            changed = True
    return changed


def _write_deals(match_id: int, rows: tuple[DealRow, ...], tournament_id: int, head: int) -> int:
    """Make the match's DealResult rows equal ``rows``, writing only what differs, and write
    the happenings of what changed (in the caller's transaction: scoring.happenings)."""
    stored = {d.deal: d for d in DealResult.objects.filter(match_id=match_id)}
    create, update = [], []
    corrected: list[tuple[DealResult, dict[str, Any]]] = []
    for row in rows:
        values = _columns(row)
        current = stored.pop(row.deal, None)
        if current is None:
            create.append(DealResult(match_id=match_id, **values))
        else:
            before = told.deal_body(current)
            if _assign(current, values):
                update.append(current)
                if told.deal_body(current) != before:  # what the log shows of it changed
                    corrected.append((current, before))
    if stored:  # deals the log no longer scores (a voided deal, once corrections exist)
        DealResult.objects.filter(pk__in=[d.pk for d in stored.values()]).delete()
    if create:
        DealResult.objects.bulk_create(create)
    if update:
        DealResult.objects.bulk_update(update, DEAL_FIELDS)
    if create or corrected or stored:
        told.deals_changed(
            tournament_id=tournament_id, head=head, created=create, corrected=corrected,
            voided=list(stored.values()),
        )  # fmt: skip
    return len(create) + len(update) + len(stored)


@dataclass(frozen=True)
class ProjectionCheck:
    """How a match's stored projection compares with its log."""

    match_id: int
    checkpoint: int  # the last event the stored rows say they fold in
    head: int  # the last event of the log
    differing: int  # rows that are not the fold of the log up to the checkpoint

    @property
    def behind(self) -> bool:
        """The rows are right as far as they go, and the log has gone further (work queued)."""
        return self.checkpoint < self.head


def check_match_projection(*, match_id: int) -> ProjectionCheck:
    """Compare a match's stored projection with the fold of its log up to the checkpoint.

    Writes nothing. A projection that is only behind its log (a task still queued) differs in
    no row from the fold as of its checkpoint; one that differs there is wrong.
    """
    with consistent_read():
        head = Match.objects.values_list("last_seq", flat=True).get(pk=match_id)
        result = MatchResult.objects.filter(match_id=match_id).first()
        checkpoint = 0 if result is None else result.seq
        events = MatchEvent.objects.filter(
            match_id=match_id, seq__lte=checkpoint, kind__in=SCORED_KINDS
        ).order_by("seq")
        projection = fold(
            LogEvent(*row) for row in events.values_list("seq", "kind", "payload", "recorded_at")
        )
        stored = {d.deal: d for d in DealResult.objects.filter(match_id=match_id)}
    differing = 0
    for row in projection.deals:
        current = stored.pop(row.deal, None)
        values = _columns(row)
        if current is None or any(getattr(current, k) != v for k, v in values.items()):
            differing += 1
    differing += len(stored)
    if result is not None:
        values = _columns(projection.match)
        if any(getattr(result, k) != v for k, v in values.items()):
            differing += 1
    return ProjectionCheck(match_id, checkpoint, head, differing)


def _outcome(result: MatchResult) -> tuple[Any, ...]:
    """What the apps above read of a match's result."""
    return (
        result.completed_at is not None, result.winner, result.draw, result.forfeited_by,
        result.bazzis0, result.bazzis1, result.difference,
    )  # fmt: skip


def _tell_result(result: MatchResult, *, first: bool) -> None:
    """Schedule ``on_match_completed`` after the commit: the match's result is new or changed
    (logged then too: a line written before the commit could tell of one rolled back)."""
    match_id = result.pk
    said = (
        "match %s %s: over %s, winner %s, draw %s, bazzis %s",
        match_id,
        "completed" if first else "result changed",
        result.completed_at is not None,
        result.winner,
        result.draw,
        (result.bazzis0, result.bazzis1),
    )

    def send_completion() -> None:
        from .tasks import on_match_completed

        log.info(*said)
        on_match_completed.delay(match_id)

    # robust: a broker that is down at this moment must not fail the committed projection.
    # (A named function: Django 5.2 logs a failed robust callback by its __qualname__, which
    # a functools.partial does not have.)
    transaction.on_commit(send_completion, robust=True)
