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
from django.db.models import Q
from django.utils import timezone
from knox.models import get_digest_token
from knox.settings import CONSTANTS

from tournaments import links, quotas
from tournaments.access import is_club_director
from tournaments.models import Club, Team, Tournament

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
    tournament: Tournament | None = None,
    club: Club | None = None,
    expires_in_days: int,
    write: bool = False,
    made_by: ApiToken | None = None,
) -> tuple[ApiToken, str]:
    """Make a token for ``user`` scoped to ``tournament`` or to ``club`` (one of them); return
    it and its text (shown once).

    A club's token is for a director of the club. A token made by a token (``made_by``) is
    never broader than it: only a club's token that may write makes one, and only for its
    club or a tournament of its club (403 ``token_scope``); it writes only if asked, expires
    no later, and is revoked with it.

    Refused (409, ``too_many_tokens``) when the user holds ``API_TOKENS_PER_ACCOUNT``
    unexpired tokens already: each token has its own rate limit, so minting tokens must not
    multiply an account's. The user's row is locked while counting, so two at once cannot
    pass the cap. Refused too (409, ``quota_exceeded``: ``tournaments.quotas``) when the club
    (the token's, or its tournament's) holds its quota of tokens (``club_tokens``), counted
    under the club's row's lock.
    """
    if (tournament is None) == (club is None):
        raise Problem("a token is scoped to a tournament or to a club", code="invalid")
    if club is not None and not is_club_director(user, club):
        raise Problem("only a director of the club may make its tokens", code="forbidden",
                      status_code=403)  # fmt: skip
    lasts = timedelta(days=expires_in_days)
    if made_by is not None:
        if made_by.club_id is None or not made_by.write:
            raise Problem(
                "only a club's token that may write makes tokens",
                code="token_scope" if made_by.club_id is None else "token_read_only",
                status_code=403,
            )
        club_id = club.pk if club is not None else tournament.club_id if tournament else None
        if user.pk != made_by.user_id or club_id != made_by.club_id:
            raise Problem(
                "a club's token makes tokens for its club and the club's tournaments only",
                code="token_scope",
                status_code=403,
            )
    with transaction.atomic():
        get_user_model().objects.select_for_update(no_key=True).filter(pk=user.pk).first()
        held = (
            ApiToken.objects.filter(user=user, team_link__isnull=True)
            .exclude(expiry__lt=timezone.now())
            .count()
        )  # a team's tokens are the teams', one each (team_token_create)
        most = settings.API_TOKENS_PER_ACCOUNT
        if held >= most:
            raise Problem(
                f"an account holds at most {most} tokens, and yours holds {held}: revoke one "
                "you no longer use (DELETE /api/v1/tokens/{id}/), then make this one",
                code="too_many_tokens",
                status_code=409,
            )
        club_id = club.pk if club is not None else tournament.club_id if tournament else None
        if club_id is not None:  # the club's quota, counted under the club's lock
            quotas.lock(club_id)
            quotas.require_room(club_id=club_id, kind="tokens", used=club_tokens(club_id))
        token, text = ApiToken.objects.create(
            user=user,
            expiry=lasts,
            name=name,
            tournament=tournament,
            club=club,
            write=write,
            made_by=made_by,
        )
        if made_by is not None and made_by.expiry is not None and token.expiry > made_by.expiry:
            token.expiry = made_by.expiry  # the same instant, not a moment after
            ApiToken.objects.filter(pk=token.pk).update(expiry=token.expiry)
    return token, text


def club_tokens(club_id: int) -> int:
    """Return how many unexpired tokens a club holds for itself and its tournaments (a team's
    tokens are not counted: an evening needs one a team, and its teams are counted)."""
    return (
        ApiToken.objects.filter(
            Q(club_id=club_id) | Q(tournament__club_id=club_id), team_link__isnull=True
        )
        .exclude(expiry__lt=timezone.now())
        .count()
    )


def club_webhooks(club_id: int) -> int:
    """Return how many webhook subscriptions the club's tournaments hold together."""
    return Webhook.objects.filter(tournament__club_id=club_id).count()


def team_token_create(
    *,
    actor: Any,
    team: Team,
    expires_in_days: int = 1,
    made_by: ApiToken | None = None,
    player: int | None = None,
) -> tuple[ApiToken, str]:
    """Make a team's token (a director of its tournament): it acts for the team through the
    team's live link (made if it has none), as a phone that opened the link would, and only
    so (docs/links.md). A team holds one: a new one ends the one before, and so does a new
    link of the team. Not counted in the maker's cap (an evening needs one a team), so its
    requests are counted with every team token of its maker, as one token's
    (``api.throttling.token_bucket``): minting more multiplies nothing. Made by a token
    (``made_by``), it expires no later and is revoked with it, as every token a token makes.

    Bound to one of the team's players (``player``, 0: first, 1: second), it plays only that
    player's seat, and holds it as a phone would (``api.access.bound_seat``); the team holds
    one token unbound and one for each player, a new one ending the one before it (bound to
    the same player, it goes on holding the seats that one held: ``seats.bound_claim_id``)."""
    link, _ = links.team_link(actor=actor, team=team)  # refuses anyone but a director
    with transaction.atomic():
        ApiToken.objects.filter(team_link__team=team, player=player).delete()
        token, text = ApiToken.objects.create(
            user=actor,
            expiry=timedelta(days=expires_in_days),
            name=f"team {team.name}"[:200],
            tournament_id=team.tournament_id,
            team_link=link,  # it writes only what a team's link may (api.access.team_actor)
            player=player,
            made_by=made_by,
        )
        if made_by is not None and made_by.expiry is not None and token.expiry > made_by.expiry:
            token.expiry = made_by.expiry
            ApiToken.objects.filter(pk=token.pk).update(expiry=token.expiry)
    return token, text


def token_renew(*, token: ApiToken, expires_in_days: int) -> tuple[ApiToken, str]:
    """Give ``token`` a new secret and a new expiry, ``expires_in_days`` from now (no later
    than its maker's, if a token made it); return it and its new text (shown once).

    The same token, not a new one: the tokens it made stay (a new token, the old revoked,
    would take them along), and so do its id, name and scope. The old secret is refused from
    the commit on (the row's digest changes; ``api.auth`` forgets it on every process). A
    team's token is renewed by making the team a new one (400 ``invalid``); a club's token,
    only while its user directs the club (403 ``forbidden``)."""
    if token.team_link_id is not None:
        raise Problem(
            "a team's token is renewed by making the team a new one: "
            "POST /api/v1/teams/{id}/token/",
            code="invalid",
        )
    if token.club_id is not None and not is_club_director(token.user, token.club_id):
        raise Problem("only a director of the club may renew its tokens", code="forbidden",
                      status_code=403)  # fmt: skip
    digest, text = get_digest_token()
    expiry = timezone.now() + timedelta(days=expires_in_days)
    with transaction.atomic():
        maker = (
            ApiToken.objects.filter(pk=token.made_by_id).values_list("expiry", flat=True).first()
        )
        if maker is not None and expiry > maker:
            expiry = maker
        token.digest, token.token_key, token.expiry = (
            digest,
            text[: CONSTANTS.TOKEN_KEY_LENGTH],
            expiry,
        )
        token.save(update_fields=["digest", "token_key", "expiry"])
    return token, text


def token_revoke(*, token: ApiToken) -> None:
    """Revoke a token, and the tokens it made: they are refused from now on."""
    token.delete()


def webhook_create(
    *, actor: Any, tournament: Tournament, url: str, kinds: list[str], active: bool = True
) -> Webhook:
    """Subscribe ``url`` to ``tournament``'s events, with a new signing secret.

    Refused (409, ``too_many_webhooks``) when the tournament holds ``WEBHOOK_MAX_PER_TOURNAMENT``
    already. The tournament's row is locked while counting, so two at once cannot pass the cap;
    then the club's (``quota_exceeded``: its tournaments' webhooks together, ``club_webhooks``),
    counted under the club's row's lock.
    """
    with transaction.atomic():
        Tournament.objects.select_for_update(no_key=True).filter(pk=tournament.pk).first()
        held = Webhook.objects.filter(tournament=tournament).count()
        if held >= settings.WEBHOOK_MAX_PER_TOURNAMENT:
            raise Problem(
                f"a tournament holds at most {settings.WEBHOOK_MAX_PER_TOURNAMENT} webhooks, "
                f"and this one holds {held}: delete one first",
                code="too_many_webhooks",
                status_code=409,
            )
        if tournament.club_id is not None:  # the club's quota, under the club's lock
            quotas.lock(tournament.club_id)
            used = club_webhooks(tournament.club_id)
            quotas.require_room(club_id=tournament.club_id, kind="webhooks", used=used)
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
    from .tasks import dispatch

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
                dispatch(delivery_id)  # the queue, or without a broker the sender thread

        transaction.on_commit(send, robust=True)
    return webhook


def webhook_delete(*, webhook: Webhook) -> None:
    """Delete a subscription with its deliveries and their attempts; an attempt under way
    ends by its deadline and records nothing."""
    webhook.delete()
