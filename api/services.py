"""The API app's own writes: tokens made and revoked, webhook subscriptions made.

Views check who may ask (a signed-in session for tokens, a director for a webhook) and call
these; each is one transaction.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.utils import timezone

from tournaments.models import Tournament

from .models import ApiToken, Webhook


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
    """Make a token for ``user`` scoped to ``tournament``; return it and its text (shown once)."""
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
    """Subscribe ``url`` to ``tournament``'s events, with a new signing secret."""
    return Webhook.objects.create(
        tournament=tournament,
        url=url,
        kinds=kinds,
        active=active,
        secret=secrets.token_hex(32),
        created_by=actor,
    )
