"""The API app's own writes: tokens made and revoked; webhook subscriptions made, paused,
resumed and deleted.

Views check who may ask (a signed-in session for tokens, a director for a webhook) and call
these; each is one transaction.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from tournaments.models import Tournament

from .models import ApiToken, Webhook, WebhookDelivery
from .problems import Problem


def tokens_prune_expired(*, user: Any) -> int:
    """Delete ``user``'s expired tokens (each is refused when presented anyway); return how many."""
    deleted, _ = ApiToken.objects.filter(user=user, expiry__lt=timezone.now()).delete()
    return deleted


def token_create(
    *,
    user: Any,
    name: str,
    tournament: Tournament,
    expires_in_days: int,
    write: bool = False,
) -> tuple[ApiToken, str]:
    """Make a token for ``user`` scoped to ``tournament``; return it and its text (shown once).

    Refused (409, ``too_many_tokens``) when the user holds ``API_TOKENS_PER_ACCOUNT``
    unexpired tokens already: each token has its own rate limit, so minting tokens must not
    multiply an account's. The user's row is locked while counting, so two at once cannot
    pass the cap.
    """
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        held = ApiToken.objects.filter(user=user).exclude(expiry__lt=timezone.now()).count()
        most = settings.API_TOKENS_PER_ACCOUNT
        if held >= most:
            raise Problem(
                f"an account holds at most {most} tokens, and yours holds {held}: revoke one "
                "you no longer use (DELETE /api/v1/tokens/{id}/), then make this one",
                code="too_many_tokens",
                status_code=409,
            )
        token, text = ApiToken.objects.create(
            user=user,
            expiry=timedelta(days=expires_in_days),
            name=name,
            tournament=tournament,
            write=write,
        )
    return token, text


def token_revoke(*, token: ApiToken) -> None:
    """Revoke a token: it is refused from now on."""
    token.delete()


def webhook_create(
    *, actor: Any, tournament: Tournament, url: str, kinds: list[str], active: bool = True
) -> Webhook:
    """Subscribe ``url`` to ``tournament``'s events, with a new signing secret.

    Refused (409, ``too_many_webhooks``) when the tournament holds ``WEBHOOK_MAX_PER_TOURNAMENT``
    already. The tournament's row is locked while counting, so two at once cannot pass the cap.
    """
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        held = Webhook.objects.filter(tournament=tournament).count()
        if held >= settings.WEBHOOK_MAX_PER_TOURNAMENT:
            raise Problem(
                f"a tournament holds at most {settings.WEBHOOK_MAX_PER_TOURNAMENT} webhooks, "
                f"and this one holds {held}: delete one first",
                code="too_many_webhooks",
                status_code=409,
            )
        return Webhook.objects.create(
            tournament=tournament,
            url=url,
            kinds=kinds,
            active=active,
            secret=secrets.token_hex(32),
            created_by=actor,
        )


def webhook_pause(*, webhook: Webhook) -> Webhook:
    """Pause a subscription: nothing is sent while it is paused; the happenings meanwhile
    make no delivery, and the deliveries pending wait for it to resume."""
    Webhook.objects.filter(pk=webhook.pk).update(active=False)
    webhook.active = False
    return webhook


def webhook_resume(*, webhook: Webhook) -> Webhook:
    """Resume a paused subscription; its pending deliveries are sent again after the commit
    (each due at once: a pause is not the receiver's failure)."""
    from .tasks import deliver

    with transaction.atomic():
        Webhook.objects.filter(pk=webhook.pk).update(active=True)
        webhook.active = True
        pending = WebhookDelivery.objects.filter(
            webhook=webhook, status=WebhookDelivery.Status.PENDING
        )
        pending.filter(sending_until__isnull=True).update(next_attempt_at=None)
        ids = list(pending.order_by("pk").values_list("pk", flat=True))

        def send() -> None:
            for delivery_id in ids:
                deliver.delay(delivery_id)

        transaction.on_commit(send, robust=True)
    return webhook


def webhook_delete(*, webhook: Webhook) -> None:
    """Delete a subscription with its deliveries and their attempts; an attempt under way
    ends by its deadline and records nothing."""
    webhook.delete()
