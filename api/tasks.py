"""Delivering webhooks: one task per delivery, on the webhook queue (``WEBHOOK_QUEUE``, served
by workers of its own), retried with exponential backoff, each attempt logged
(``WebhookAttempt``). A delivery that succeeded, or gave up, is never sent again.

An attempt is claimed, made, then recorded, in two short transactions with the HTTP request
between them (no lock is held while a receiver takes its time):

- the claim counts the attempt before anything is sent (``attempts`` + 1, an attempt row
  that says "cut off" until the outcome replaces it, ``sending_until`` = the end of the
  attempt, ``next_attempt_at`` = after that and the backoff). So an attempt whose worker is
  killed, or that the task's time limit cuts off, still counts: after
  ``WEBHOOK_MAX_ATTEMPTS`` the next claim gives the delivery up, and the catch-up never
  sends it again;
- the claim takes a turn among the tournament's deliveries: at most
  ``WEBHOOK_MAX_IN_FLIGHT`` of one tournament are under way at once; beyond that a delivery
  waits, pending, and is tried again a moment later without an attempt counted;
- a paused subscription's deliveries wait, pending, until it is resumed.

Concurrency: the claim locks the delivery's row, and the tournament's subscriptions' rows in
id order (so two claims of one tournament count the deliveries under way one after the
other); two copies of the task (a retry and the catch-up's) cannot both claim one attempt.
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta
from enum import Enum
from typing import Any

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from scoring.task_options import RELIABLE

from . import outbound
from .models import Webhook, WebhookAttempt, WebhookDelivery
from .webhooks import body_bytes, consume, lagging, sign

log = logging.getLogger(__name__)

#: what an attempt row says until its outcome is recorded (if never: the worker stopped)
CUT_OFF = "cut off: the attempt did not end (its worker stopped or its time ran out)"
#: how long a delivery waits for its turn when its tournament has the most under way
TURN_WAIT_SECONDS = 1.0
#: the task's own time limits, past the attempt's deadline (the deadline should end it first)
SOFT_TIME_LIMIT = settings.WEBHOOK_TIMEOUT_SECONDS + 10
HARD_TIME_LIMIT = SOFT_TIME_LIMIT + 10


class Claim(Enum):
    """What a claim found: an attempt to make, or why there is none now."""

    SEND = "send"
    DONE = "done"  # delivered, given up, gone: nothing to do ever
    GAVE_UP = "gave up"  # its last attempt was cut off: given up now
    NOT_DUE = "not due"  # another copy's attempt is under way, or the next is not due yet
    PAUSED = "paused"  # waits until the subscription is resumed
    WAIT_TURN = "wait turn"  # the tournament has the most deliveries under way


def _claim(delivery_id: int) -> tuple[Claim, WebhookDelivery | None, int]:
    """Claim the next attempt of a delivery, as the module says; return what was found, the
    delivery and the attempt's number."""
    with transaction.atomic():
        delivery = (
            # the delivery's row alone (PostgreSQL would lock the joined webhook's row too,
            # and two claims of one tournament's hooks would wait on each other's)
            WebhookDelivery.objects.select_for_update(no_key=True, of=("self",))
            .select_related("webhook")
            .filter(pk=delivery_id)
            .first()
        )
        if delivery is None or delivery.status != WebhookDelivery.Status.PENDING:
            return Claim.DONE, None, 0
        now = timezone.now()
        if delivery.sending_until is not None and delivery.sending_until > now:
            return Claim.NOT_DUE, delivery, 0
        if delivery.next_attempt_at is not None and delivery.next_attempt_at > now:
            return Claim.NOT_DUE, delivery, 0  # a copy sent early (the catch-up)
        if delivery.attempts >= settings.WEBHOOK_MAX_ATTEMPTS:  # the last one was cut off
            _give_up(delivery)
            return Claim.GAVE_UP, delivery, 0
        hook = delivery.webhook
        if not hook.active:
            return Claim.PAUSED, delivery, 0
        hooks = Webhook.objects.select_for_update(no_key=True).filter(
            tournament_id=hook.tournament_id
        )
        ids = list(hooks.order_by("pk").values_list("pk", flat=True))
        under_way = (
            WebhookDelivery.objects.filter(webhook_id__in=ids, sending_until__gt=now)
            .exclude(pk=delivery.pk)
            .count()
        )
        if under_way >= settings.WEBHOOK_MAX_IN_FLIGHT:
            delivery.next_attempt_at = now + timedelta(seconds=TURN_WAIT_SECONDS)
            delivery.save(update_fields=["next_attempt_at"])
            return Claim.WAIT_TURN, delivery, 0
        number = delivery.attempts + 1
        ends = now + timedelta(seconds=HARD_TIME_LIMIT)
        delivery.attempts = number
        delivery.sending_until = ends
        delivery.next_attempt_at = ends + timedelta(seconds=backoff(number))
        delivery.save(update_fields=["attempts", "sending_until", "next_attempt_at"])
        WebhookAttempt.objects.create(delivery=delivery, number=number, error=CUT_OFF)
        return Claim.SEND, delivery, number


def _give_up(delivery: WebhookDelivery) -> None:
    delivery.status = WebhookDelivery.Status.FAILED
    delivery.sending_until = delivery.next_attempt_at = None
    delivery.save(update_fields=["status", "sending_until", "next_attempt_at"])
    log.warning("webhook delivery %s gave up after %s attempts", delivery.pk, delivery.attempts)


def _send(delivery: WebhookDelivery) -> tuple[int | None, str]:
    """Post a delivery once, within the deadline; return the status (None: no answer) and
    what went wrong, in words."""
    hook = delivery.webhook
    body = body_bytes(delivery)
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "seep-webhooks/1",
        "Seep-Event": delivery.kind,
        "Seep-Delivery": str(delivery.pk),
        "Seep-Signature": sign(hook.secret, int(time.time()), body),
    }
    try:
        answer = outbound.post(
            hook.url,
            body,
            headers,
            deadline_seconds=settings.WEBHOOK_TIMEOUT_SECONDS,
            allow_private=settings.WEBHOOKS_ALLOW_PRIVATE_NETWORKS,
        )
    except outbound.Refused as exc:
        return None, f"refused: {exc}"
    except outbound.Failed as exc:
        return None, str(exc)
    except SoftTimeLimitExceeded:
        return None, "cut off by the task's time limit"
    if 300 <= answer.status < 400:
        return answer.status, f"HTTP {answer.status}: a redirect, never followed"
    if not 200 <= answer.status < 300:
        return answer.status, f"HTTP {answer.status}"
    return answer.status, ""


def _record(delivery_id: int, number: int, code: int | None, error: str, began: float) -> bool:
    """Record the outcome of attempt ``number``; return whether the delivery is done."""
    with transaction.atomic():
        delivery = (
            WebhookDelivery.objects.select_for_update(no_key=True).filter(pk=delivery_id).first()
        )
        if delivery is None:
            return True  # its subscription was deleted meanwhile
        WebhookAttempt.objects.filter(delivery=delivery, number=number).update(
            status_code=code,
            error=error[:300],
            duration_ms=int((time.perf_counter() - began) * 1000),
        )
        if delivery.status != WebhookDelivery.Status.PENDING:
            return True
        delivery.sending_until = None
        if code is not None and 200 <= code < 300 and not error:
            delivery.status, delivery.delivered_at = (
                WebhookDelivery.Status.SUCCEEDED,
                timezone.now(),
            )
            delivery.next_attempt_at = None
        elif number >= settings.WEBHOOK_MAX_ATTEMPTS:
            _give_up(delivery)
            return True
        else:
            delivery.next_attempt_at = timezone.now() + timedelta(seconds=backoff(number))
        delivery.save(update_fields=["status", "delivered_at", "next_attempt_at", "sending_until"])
        return delivery.status == WebhookDelivery.Status.SUCCEEDED


def attempt(delivery_id: int) -> bool | None:
    """Try a delivery once; return True (done: delivered or given up), False (to be tried
    again at its ``next_attempt_at``) or None (nothing was due: done before, not due yet,
    paused)."""
    claim, delivery, number = _claim(delivery_id)
    if claim is Claim.WAIT_TURN:
        return False
    if claim is Claim.GAVE_UP:
        return True
    if claim is not Claim.SEND or delivery is None:
        return None
    began = time.perf_counter()
    code, error = _send(delivery)
    return _record(delivery_id, number, code, error, began)


@shared_task(
    bind=True,
    **RELIABLE,
    max_retries=None,
    soft_time_limit=SOFT_TIME_LIMIT,
    time_limit=HARD_TIME_LIMIT,
)
def deliver(self: Any, delivery_id: int) -> None:
    """Post a webhook delivery; when it is to be tried again, send itself again then."""
    done = attempt(delivery_id)
    if done is False:
        if self.request.is_eager:
            return  # in-process tasks cannot wait: the sender thread (or a catch-up) does
        due = (
            WebhookDelivery.objects.filter(pk=delivery_id)
            .values_list("next_attempt_at", flat=True)
            .first()
        )
        wait = 0.0 if due is None else (due - timezone.now()).total_seconds()
        raise self.retry(countdown=max(wait, 0.0))


def dispatch(delivery_id: int) -> None:
    """Send a delivery's first attempt on its way (after the commit that made it): to the
    webhook queue, or, without a broker, to this process's sender thread, which tries it
    after the response and again when it is due (``api.background``); with
    ``WEBHOOKS_IN_BACKGROUND`` off, in-process at once (as the test suite reads them)."""
    if deliver.app.conf.task_always_eager and settings.WEBHOOKS_IN_BACKGROUND:
        from . import background

        background.sender.submit(delivery_id)
        return
    deliver.delay(delivery_id)


def backoff(tries: int) -> float:
    """Return the seconds to wait after ``tries`` failed attempts: doubling, capped at an hour."""
    return float(min(settings.WEBHOOK_BACKOFF_SECONDS * 2 ** (tries - 1), 3600))


def due_deliveries() -> Any:
    """Return the pending deliveries the catch-up sends: of an active subscription, none
    under way, due for a while (their own task goes first) or never tried."""
    now = timezone.now()
    grace = now - timedelta(seconds=settings.WEBHOOK_CATCH_UP_GRACE_SECONDS)
    return (
        WebhookDelivery.objects.filter(status=WebhookDelivery.Status.PENDING, webhook__active=True)
        .filter(Q(sending_until__isnull=True) | Q(sending_until__lte=now))
        .filter(
            Q(next_attempt_at__isnull=True, created_at__lte=grace) | Q(next_attempt_at__lte=grace)
        )
    )


@shared_task(acks_late=True, ignore_result=True, soft_time_limit=50, time_limit=60)
def catch_up() -> int:
    """Send again the pending deliveries whose task was lost, or that wait in-process.

    Each send can cost at most one attempt, and attempts are counted when claimed: a
    delivery is given up after ``WEBHOOK_MAX_ATTEMPTS``, whatever became of its attempts.
    """
    for tournament_id in lagging():  # happenings whose consumer was lost (a broker down)
        consume(tournament_id)
    ids = list(due_deliveries().order_by("pk").values_list("pk", flat=True)[:500])
    for delivery_id in ids:
        deliver.delay(delivery_id)
    return len(ids)


@shared_task(**RELIABLE, soft_time_limit=50, time_limit=60)
def consume_happenings(tournament_id: int) -> int:
    """Make the deliveries of a tournament's new happenings (``webhooks.consume``): sent after
    each commit that wrote some, safe to run twice or concurrently; the catch-up runs it for
    every tournament whose cursor lags, should a message be lost."""
    return consume(tournament_id)
