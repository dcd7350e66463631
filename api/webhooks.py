"""Webhooks: what happened in a tournament, posted to its subscribers, signed, retried.

The deliveries are made from the tournament's happenings (tournaments.happenings: written in
the transaction of each change) by :func:`consume`, which moves the tournament's
``WebhookCursor`` in the transaction of the deliveries it makes: a delivery for each active
subscription to the happening's kind, sent by a Celery task after that commit (on the webhook
queue, served by workers of its own), retried with exponential backoff, every attempt logged
(``api.tasks`` says how attempts are claimed, bounded and given up; ``api.outbound`` how one is
sent: one resolution, only globally routable addresses, one deadline, no redirects). A paused
subscription gets no delivery. Bodies are the happenings' (results, pairings, standings),
which hold no hidden card.

Each delivery is signed: ``Seep-Signature: t=<unix time>,v1=<hex>`` where the hex is
HMAC-SHA256, keyed by the subscription's secret, over ``"<t>.<body>"``. A receiver recomputes
it and refuses a stale ``t`` (a replay).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import time
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef

from tournaments import happenings
from tournaments.models import Happening, HappeningsHead

from . import outbound
from .models import Webhook, WebhookCursor, WebhookDelivery
from .problems import Problem

log = logging.getLogger(__name__)


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """Return the ``Seep-Signature`` header value for a body sent at ``timestamp``."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={mac.hexdigest()}"


def verify(secret: str, header: str, body: bytes, *, tolerance: int = 300) -> bool:
    """Return whether ``header`` signs ``body`` with ``secret`` within ``tolerance`` seconds."""
    try:
        parts = dict(item.split("=", 1) for item in header.split(","))
        timestamp = int(parts["t"])
    except (ValueError, KeyError):
        return False
    if abs(time.time() - timestamp) > tolerance:
        return False
    expected = sign(secret, timestamp, body).split("v1=", 1)[1]
    return hmac.compare_digest(expected, parts.get("v1", ""))


def check_url(url: str) -> None:
    """Refuse a URL that is not http(s), or whose host has an address that is not globally
    routable (unless WEBHOOKS_ALLOW_PRIVATE_NETWORKS): ``api.outbound`` says which.

    Checked when a subscription is made, and again on the one resolution each attempt
    connects with (``api.outbound.post``).
    """
    try:
        outbound.target(
            url,
            allow_private=settings.WEBHOOKS_ALLOW_PRIVATE_NETWORKS,
            timeout=settings.WEBHOOK_TIMEOUT_SECONDS,
        )
    except outbound.Refused as exc:
        raise Problem(
            f"this webhook URL is refused: {exc}", code="bad_webhook_url", status_code=422
        ) from exc
    except outbound.Failed as exc:
        raise Problem(
            f"the webhook's host does not resolve: {exc}", code="bad_webhook_url", status_code=422
        ) from exc


def signed_body(delivery: WebhookDelivery) -> dict[str, Any]:
    """Return the body a delivery signs: what happened, with the delivery's id and time."""
    return {"id": delivery.pk, "created_at": delivery.created_at.isoformat(), **delivery.body}


def body_bytes(delivery: WebhookDelivery) -> bytes:
    """Return the exact bytes a delivery posts (and signs): its stored body as canonical JSON
    (sorted keys, no spaces), so the stored delivery re-checks a signature any time later."""
    body = delivery.body if "id" in delivery.body else signed_body(delivery)  # made before
    return json.dumps(body, sort_keys=True, separators=(",", ":")).encode()


# --- deliveries made from the happenings -------------------------------------------------

#: happenings read by one transaction of the consumer
BATCH = 200


def consume(tournament_id: int) -> int:
    """Make the deliveries of the tournament's happenings after its cursor; return how many.

    In one transaction a batch: lock the tournament's ``WebhookCursor``, read the happenings
    after it, make a delivery for each active subscription to each one's kind (one made
    before the happening was written is not told of it), move the cursor to the last, and
    send the deliveries after the commit. A consumer killed at any point has made nothing
    or made a batch and moved the cursor over it: run again, it makes the rest, never one
    twice (the lock makes two runs go one after the other; each (subscription, happening)
    pair is also unique). A delivery's ``id`` is its key: a receiver that sees an id twice
    (a retry after a lost answer) drops it.
    """
    made_total = 0
    while True:
        with transaction.atomic():
            WebhookCursor.objects.bulk_create(
                [WebhookCursor(tournament_id=tournament_id)], ignore_conflicts=True
            )
            cursor = WebhookCursor.objects.select_for_update(no_key=True).get(pk=tournament_id)
            hooks = list(Webhook.objects.filter(tournament_id=tournament_id, active=True))
            if not hooks:  # nobody to tell (one made later is not told of these): move on
                head = happenings.head(tournament_id)
                if head > cursor.last_seq:
                    cursor.last_seq = head
                    cursor.save(update_fields=["last_seq"])
                return made_total
            rows = happenings.since(tournament_id, cursor.last_seq, BATCH)
            if not rows:
                return made_total
            made: list[int] = []
            tables: dict[tuple[int, int], list[Any]] = {}
            for happening in rows:
                takers = [
                    hook
                    for hook in hooks
                    if happening.kind in hook.kinds and hook.created_at <= happening.created_at
                ]
                if takers:
                    body = _delivered_body(happening, tables)
                    made.extend(_deliver(hook, happening, body) for hook in takers)
            cursor.last_seq = rows[-1].seq
            cursor.save(update_fields=["last_seq"])
            if made:
                transaction.on_commit(_Dispatch(made), robust=True)
            made_total += len(made)
        if len(rows) < BATCH:
            return made_total


def _delivered_body(happening: Happening, tables: dict[tuple[int, int], list[Any]]) -> Any:
    """What a delivery of ``happening`` says (before its id and time): its kind, tournament
    and seq in the results log, then its body; a ``standings.changed`` also carries the
    table, as of its last round, as ``GET /stages/{id}/standings/?round=`` gives it now."""
    body = {
        "kind": happening.kind,
        "tournament": happening.tournament_id,
        "seq": happening.seq,
        **happening.body,
    }
    if happening.kind == happenings.STANDINGS_CHANGED:
        where = (int(body["stage"]), int(body["as_of_round"]))
        if where not in tables:
            tables[where] = _table(*where)
        body["rows"] = tables[where]
    return body


def _table(stage_id: int, as_of: int) -> list[Any]:
    from competition import selectors as competition_selectors
    from competition.models import Stage

    from .serializers.standings import StandingRowSerializer

    stage = Stage.objects.filter(pk=stage_id).first()
    if stage is None:
        return []
    rows = competition_selectors.standings_for_stage(stage=stage, as_of_round=as_of)
    return list(json.loads(json.dumps(StandingRowSerializer(rows, many=True).data)))


def _deliver(hook: Webhook, happening: Happening, body: dict[str, Any]) -> int:
    """Make one delivery, its body stored as it is signed (its id and time included)."""
    delivery = WebhookDelivery.objects.create(
        webhook=hook, happening=happening, kind=happening.kind, body=body
    )
    delivery.body = signed_body(delivery)
    delivery.save(update_fields=["body"])
    return delivery.pk


class _Dispatch:
    """The on-commit callback that sends a batch's deliveries on their way."""

    def __init__(self, made: list[int]) -> None:
        self.made = made

    def __call__(self) -> None:
        from .tasks import dispatch

        for delivery_id in self.made:
            dispatch(delivery_id)


def lagging() -> list[int]:
    """The tournaments whose happenings are past their webhook cursor (the catch-up's)."""
    behind = WebhookCursor.objects.filter(
        tournament_id=OuterRef("pk"), last_seq__gte=OuterRef("last_seq")
    )
    return list(
        HappeningsHead.objects.filter(last_seq__gt=0)
        .exclude(Exists(behind))
        .values_list("tournament_id", flat=True)
    )


def _kick(tournament_id: int) -> None:
    """Happenings of the tournament committed: send its consumer (in-process without a
    broker). A broker out of reach: the consumer runs here and now, so the deliveries are
    made (their sends wait for the catch-up, like any delivery whose task was lost)."""
    from .tasks import consume_happenings

    try:
        consume_happenings.delay(tournament_id)
    except Exception:
        log.warning("webhooks: no consumer sent for tournament %s; made here", tournament_id)
        consume(tournament_id)
    if consume_happenings.app.conf.task_always_eager and settings.WEBHOOKS_IN_BACKGROUND:
        # without a broker the process's sender thread is the catch-up: running from the
        # first commit on, it finds the happenings a process killed before its kick left
        from .background import sender

        sender.ensure_running()


def connect() -> None:
    """Consume every commit's happenings (called once, when the app is ready)."""
    happenings.after_commit(_kick)
