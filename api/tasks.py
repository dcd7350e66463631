"""Delivering webhooks: one task per delivery, retried with exponential backoff, each attempt
logged (``WebhookAttempt``). A delivery that succeeded, or gave up, is never sent again."""

from __future__ import annotations

import logging
import time
import urllib.error
import urllib.request
from datetime import timedelta
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from .models import WebhookAttempt, WebhookDelivery
from .problems import Problem
from .webhooks import body_bytes, check_url, sign

log = logging.getLogger(__name__)


class DeliveryFailed(Exception):
    """The receiver did not take the delivery (a network error or a status other than 2xx)."""


def attempt(delivery_id: int) -> bool | None:
    """Try a delivery once; return True (delivered), False (try again) or None (done before).

    The delivery's row is locked for the attempt, so two copies of the task never post it
    twice at once, and a delivered one is not posted again.
    """
    with transaction.atomic():
        delivery = (
            WebhookDelivery.objects.select_for_update()
            .select_related("webhook")
            .filter(pk=delivery_id)
            .first()
        )
        if delivery is None or delivery.status != WebhookDelivery.Status.PENDING:
            return None
        if delivery.next_attempt_at is not None and delivery.next_attempt_at > timezone.now():
            return None  # a copy sent early (the catch-up): the retry is on its way
        hook = delivery.webhook
        body = body_bytes(delivery)
        now = int(time.time())
        number = delivery.attempts + 1
        began = time.perf_counter()
        code, error = None, ""
        try:
            check_url(hook.url)
            request = urllib.request.Request(
                hook.url,
                data=body,
                method="POST",
                headers={
                    "Content-Type": "application/json",
                    "User-Agent": "seep-webhooks/1",
                    "Seep-Event": delivery.kind,
                    "Seep-Delivery": str(delivery.pk),
                    "Seep-Signature": sign(hook.secret, now, body),
                },
            )
            with urllib.request.urlopen(request, timeout=settings.WEBHOOK_TIMEOUT_SECONDS) as reply:
                code = reply.status
        except urllib.error.HTTPError as exc:
            code, error = exc.code, f"HTTP {exc.code}"
        except (OSError, ValueError) as exc:
            error = f"{type(exc).__name__}: {exc}"[:300]
        except Problem as exc:
            error = str(exc.detail)[:300]
        ok = code is not None and 200 <= code < 300
        WebhookAttempt.objects.create(
            delivery=delivery,
            number=number,
            status_code=code,
            error=error,
            duration_ms=int((time.perf_counter() - began) * 1000),
        )
        delivery.attempts = number
        if ok:
            delivery.status, delivery.delivered_at = (
                WebhookDelivery.Status.SUCCEEDED,
                timezone.now(),
            )
        elif number >= settings.WEBHOOK_MAX_ATTEMPTS:
            delivery.status = WebhookDelivery.Status.FAILED
            log.warning("webhook delivery %s gave up after %s attempts", delivery.pk, number)
        else:
            delivery.next_attempt_at = timezone.now() + timedelta(seconds=backoff(number))
        delivery.save(update_fields=["attempts", "status", "delivered_at", "next_attempt_at"])
        return ok or delivery.status == WebhookDelivery.Status.FAILED


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    max_retries=None,
    soft_time_limit=30,
    time_limit=60,
)
def deliver(self: Any, delivery_id: int) -> None:
    """Post a webhook delivery; on failure, send itself again later (exponential backoff)."""
    done = attempt(delivery_id)
    if done is False:
        if self.request.is_eager:
            return  # in-process tasks cannot wait: the catch-up sends it when it is due
        tries = WebhookDelivery.objects.values_list("attempts", flat=True).get(pk=delivery_id)
        raise self.retry(countdown=backoff(tries))


def backoff(tries: int) -> float:
    """Return the seconds to wait after ``tries`` failed attempts: doubling, capped at an hour."""
    return float(min(settings.WEBHOOK_BACKOFF_SECONDS * 2 ** (tries - 1), 3600))


@shared_task(acks_late=True, ignore_result=True, soft_time_limit=50, time_limit=60)
def catch_up() -> int:
    """Send again the pending deliveries whose task was lost, or that wait in-process."""
    grace = timezone.now() - timedelta(seconds=30)  # the regular task goes first
    pending = WebhookDelivery.objects.filter(status=WebhookDelivery.Status.PENDING).filter(
        Q(next_attempt_at__isnull=True, created_at__lte=grace) | Q(next_attempt_at__lte=grace)
    )
    ids = list(pending.order_by("pk").values_list("pk", flat=True)[:500])
    for delivery_id in ids:
        deliver.delay(delivery_id)
    return len(ids)
