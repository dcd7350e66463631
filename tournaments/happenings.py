"""A tournament's happenings: what integrators and viewers are told of, written with the change.

Every service that changes what they see (a deal recorded or corrected, a match completed or
reopened, a round published or taken back, a match made, a fixture's sides filled, standings
changed) calls :func:`write` INSIDE its own transaction. The row commits with the change or
not at all: a process killed after the commit has lost nothing, since the results log, the
webhooks and the live messages are all read from these rows afterwards (the outbox).

Seqs are per tournament and commit in order: :func:`write` locks the tournament's
:class:`~tournaments.models.HappeningsHead` row until its transaction ends, so a second
writer waits, then takes the next seq. A reader that has seen seq N has seen every happening
up to N, and one it has not seen has a seq above N: reading "after N" loses nothing and
doubles nothing. A happening written again with the ``key`` of one already there (a
projection run twice) is that one.

Consumers keep their own position (the webhooks: ``api.models.WebhookCursor``, moved in
the transaction of the deliveries it makes). After each commit of happenings, the consumers
registered with :func:`after_commit` are kicked with the tournament's id (a task sent, or
work done in-process without a broker), and the live messages are published: the
tournament's happenings grew, and the topics they touch (a match's result, a stage): a kick
or a message lost with the process costs a catch-up's delay, never a happening.

Each kind's body is built at the writer's layer or below, and is what the API serves of it
(docs/api.md lists them). An app above may add to a kind's body as it is written
(:func:`shape_with`: the competition names a match's sides by their bracket source).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

from django.db import transaction

import live

from .models import Happening, HappeningsHead

log = logging.getLogger(__name__)

DEAL_RECORDED = "deal.recorded"
DEAL_CORRECTED = "deal.corrected"
DEAL_VOIDED = "deal.voided"
MATCH_COMPLETED = "match.completed"
MATCH_REOPENED = "match.reopened"
MATCH_MADE = "match.made"
FIXTURE_FILLED = "fixture.filled"
ROUND_PUBLISHED = "round.published"
ROUND_UNPUBLISHED = "round.unpublished"
STANDINGS_CHANGED = "standings.changed"
TOURNAMENT_CHANGED = "tournament.changed"
TEAM_CHANGED = "team.changed"

#: every kind, in the order docs/api.md lists them
KINDS = (
    DEAL_RECORDED, DEAL_CORRECTED, DEAL_VOIDED, MATCH_COMPLETED, MATCH_REOPENED, MATCH_MADE,
    FIXTURE_FILLED, ROUND_PUBLISHED, ROUND_UNPUBLISHED, STANDINGS_CHANGED, TOURNAMENT_CHANGED,
    TEAM_CHANGED,
)  # fmt: skip

Shaper = Callable[[dict[str, Any]], None]
_shapers: dict[str, list[Shaper]] = {}
_consumers: list[Callable[[int], None]] = []


def shape_with(kind: str, shaper: Shaper) -> None:
    """Have ``shaper(body)`` add to the body of every ``kind`` happening as it is written (in
    its transaction; an app above names what this layer cannot). Registered once, in ``ready``."""
    if shaper not in _shapers.setdefault(kind, []):
        _shapers[kind].append(shaper)


def after_commit(consumer: Callable[[int], None]) -> None:
    """Call ``consumer(tournament_id)`` after each commit that wrote happenings of the
    tournament (once per transaction): it must be quick and must not fail (it sends a task)."""
    if consumer not in _consumers:
        _consumers.append(consumer)


class _Kick:
    """The on-commit callback of one tournament's happenings (one per transaction)."""

    def __init__(self, tournament_id: int) -> None:
        self.tournament_id = tournament_id

    def __call__(self) -> None:
        for consumer in list(_consumers):
            try:
                consumer(self.tournament_id)
            except Exception:  # the happenings are written: a catch-up reads them
                log.exception("happenings: a consumer of tournament %s failed", self.tournament_id)


def write(
    *,
    tournament_id: int,
    kind: str,
    body: dict[str, Any],
    key: str = "",
    topics: Iterable[tuple[live.Topic, int | None]] = (),
) -> Happening:
    """Append a happening to the tournament's, in the caller's transaction (required: it is
    written with the change, or not at all); return it. One with the ``key`` of a happening
    already there is that one. ``topics`` are the live messages (kind, id) its commit
    publishes (each inside this tournament) besides the happenings' own."""
    assert kind in KINDS, kind
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        raise RuntimeError("a happening is written in the transaction of its change")
    HappeningsHead.objects.bulk_create(
        [HappeningsHead(tournament_id=tournament_id)], ignore_conflicts=True
    )
    # locked until the commit: the next writer waits for this one, and takes the next seq
    head = HappeningsHead.objects.select_for_update(no_key=True).get(pk=tournament_id)
    if key:
        found = Happening.objects.filter(tournament_id=tournament_id, key=key[:120]).first()
        if found is not None:
            return found
    for shaper in _shapers.get(kind, ()):
        shaper(body)
    head.last_seq += 1
    head.save(update_fields=["last_seq"])
    happening = Happening.objects.create(
        tournament_id=tournament_id, seq=head.last_seq, kind=kind, body=body, key=key[:120]
    )
    for topic, pk in topics:
        live.publish(topic, pk, tournament=tournament_id)
    live.publish(live.Topic.HAPPENINGS, tournament_id)
    # one kick a transaction: one registered at this savepoint goes (or is undone) with this
    # write (one from another savepoint could be rolled back without it)
    scope = set(connection.savepoint_ids)
    if not any(
        isinstance(entry[1], _Kick)
        and entry[1].tournament_id == tournament_id
        and entry[0] == scope
        for entry in connection.run_on_commit
    ):
        transaction.on_commit(_Kick(tournament_id), robust=True)
    return happening


def head(tournament_id: int) -> int:
    """The seq of the tournament's last happening (0 before the first)."""
    found = HappeningsHead.objects.filter(pk=tournament_id).values_list("last_seq", flat=True)
    return found.first() or 0


def since(tournament_id: int, after: int, limit: int) -> list[Happening]:
    """The tournament's happenings after seq ``after``, at most ``limit``, in seq order."""
    rows = Happening.objects.filter(tournament_id=tournament_id, seq__gt=after).order_by("seq")
    return list(rows[:limit])


def side(index: int, team: Any, source: str = "") -> dict[str, Any]:
    """Return one side of a fixture or a match as the API names it (docs/api.md, "One
    vocabulary"): its index (side 0 sits at seats 0 and 2 and comes first in every pair), its
    team's id and name (null while not known, or for a bye's missing side), and where the team
    comes from (a bracket's "winner of QF1"; null when nothing says)."""
    return {
        "side": index,
        "id": None if team is None else team.pk,
        "name": None if team is None else team.name,
        "source": source or None,
    }
