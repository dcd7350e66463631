"""Webhooks: what happened in a tournament, posted to its subscribers, signed, retried.

A happening (a match completed, a deal recorded, a round published, standings changed) comes
from the layers below as a signal; each active subscription of its tournament to that kind
gets a delivery, sent by a Celery task after the commit (on the webhook queue, served by
workers of its own), retried with exponential backoff, every attempt logged (``api.tasks``
says how attempts are claimed, bounded and given up; ``api.outbound`` how one is sent: one
resolution, only globally routable addresses, one deadline, no redirects). A paused
subscription gets no delivery. Bodies are built from the projections (results, pairings, standings),
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

from . import outbound, results
from .models import Webhook, WebhookDelivery
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


def happened(tournament_id: int, kind: str, body: dict[str, Any], key: str) -> int:
    """A happening: appended to the tournament's results log (api/results.py; ``key`` what
    makes it itself, see there), and a delivery made for each subscription to its kind;
    returns the number of deliveries. A log that cannot be written loses no delivery."""
    try:
        results.record(tournament_id, kind, body, key)
    except Exception:
        log.exception("webhooks: the results log of tournament %s refused %s", tournament_id, kind)
    return enqueue(tournament_id, kind, body)


def subscribed(tournament_id: int, kind: str) -> bool:
    """Whether an active subscription of the tournament takes ``kind`` (one small query)."""
    hooks = Webhook.objects.filter(tournament_id=tournament_id, active=True)
    return any(kind in kinds for kinds in hooks.values_list("kinds", flat=True))


def enqueue(tournament_id: int, kind: str, body: dict[str, Any]) -> int:
    """Create a delivery for each active subscription to ``kind``, its body stored as it is
    signed (its ``id`` and ``created_at`` included); send them after commit."""
    made = []
    for hook in Webhook.objects.filter(tournament_id=tournament_id, active=True):
        if kind in hook.kinds:
            payload = {"kind": kind, "tournament": tournament_id, **body}
            delivery = WebhookDelivery.objects.create(webhook=hook, kind=kind, body=payload)
            delivery.body = signed_body(delivery)
            delivery.save(update_fields=["body"])
            made.append(delivery.pk)
    if made:
        from .tasks import dispatch

        def send() -> None:
            for delivery_id in made:
                dispatch(delivery_id)

        transaction.on_commit(send, robust=True)
    return len(made)


def signed_body(delivery: WebhookDelivery) -> dict[str, Any]:
    """Return the body a delivery signs: what happened, with the delivery's id and time."""
    return {"id": delivery.pk, "created_at": delivery.created_at.isoformat(), **delivery.body}


def body_bytes(delivery: WebhookDelivery) -> bytes:
    """Return the exact bytes a delivery posts (and signs): its stored body as canonical JSON
    (sorted keys, no spaces), so the stored delivery re-checks a signature any time later."""
    body = delivery.body if "id" in delivery.body else signed_body(delivery)  # made before
    return json.dumps(body, sort_keys=True, separators=(",", ":")).encode()


# --- what happened, from the signals below ------------------------------------------------


def _on_match_completed(sender: Any, match_id: int, **kwargs: Any) -> None:
    from competition import selectors as competition_selectors
    from scoring.models import MatchResult
    from tournaments.models import Match

    match = Match.objects.filter(pk=match_id).select_related("team0", "team1", "fixture").first()
    result = MatchResult.objects.filter(match_id=match_id).first()
    if match is None or result is None or not result.over:
        return
    winner = None if result.winner is None else (match.team0_id, match.team1_id)[result.winner]
    fixture = getattr(match, "fixture", None)
    sources = ("", "") if fixture is None else (fixture.source_a, fixture.source_b)
    happened(
        match.tournament_id,
        Webhook.Kind.MATCH_COMPLETED,
        {
            "match": match.pk,
            "sides": [
                competition_selectors.side(0, match.team0, sources[0]),
                competition_selectors.side(1, match.team1, sources[1]),
            ],
            "winner_side": result.winner,
            # deprecated (docs/api-changelog.md): the team ids of sides and winner_side
            "teams": [match.team0_id, match.team1_id],
            "winner": winner,
            "draw": result.draw,
            "bazzis": [result.bazzis0, result.bazzis1],
            "difference": result.difference,
            "deals": result.deals,
            "head": {"seq": match.last_seq, "hash": match.last_hash},
        },
        f"match:{match.pk}:{match.last_seq}",  # completed at this head (again after a correction)
    )


def _on_deals_recorded(sender: Any, match_id: int, deals: list[int], **kwargs: Any) -> None:
    from scoring.models import DealResult
    from tournaments.models import Match

    tournament_id = (
        Match.objects.filter(pk=match_id).values_list("tournament_id", flat=True).first()
    )
    if tournament_id is None:
        return
    for row in DealResult.objects.filter(match_id=match_id, deal__in=deals).order_by("deal"):
        happened(
            tournament_id,
            Webhook.Kind.DEAL_RECORDED,
            {
                "match": match_id,
                "deal": row.deal,
                "dealer": row.dealer,
                "points": [row.points0, row.points1],
                "sweeps": [row.sweeps0, row.sweeps1],
                "total": [row.total0, row.total1],
                "running_difference": row.running_difference,
                "bazzi": row.bazzi,
                "bazzis": [row.bazzis0, row.bazzis1],
            },
            f"deal:{row.pk}",  # this row (a deal voided and scored again is a new one)
        )


def _on_round_published(sender: Any, round_id: int, **kwargs: Any) -> None:
    from competition import selectors as competition_selectors
    from competition.models import Round

    round_ = Round.objects.filter(pk=round_id).select_related("stage").first()
    if round_ is None:
        return
    fixtures = [
        {
            "table": f.table,
            "key": f.key or None,
            "sides": competition_selectors.fixture_sides(f),
            "winner_side": competition_selectors.fixture_winner_side(f),
            # deprecated (docs/api-changelog.md): sides[0].id and sides[1].id
            "a": f.team_a_id,
            "b": f.team_b_id,
            "match": f.match_id,
            "result": f.result or None,
        }
        for f in round_.fixtures.select_related("team_a", "team_b").order_by("table", "key", "id")
    ]
    happened(
        round_.stage.tournament_id,
        Webhook.Kind.ROUND_PUBLISHED,
        {
            "stage": round_.stage_id,
            "round": round_.number,
            "name": round_.name,
            "fixtures": fixtures,
        },
        f"published:{round_.pk}:{round_.published_at.isoformat() if round_.published_at else ''}",
    )


def _on_round_unpublished(sender: Any, round_id: int, called_off: list[int], **kwargs: Any) -> None:
    from competition.models import Round

    round_ = Round.objects.filter(pk=round_id).select_related("stage").first()
    if round_ is None:
        return
    happened(
        round_.stage.tournament_id,
        Webhook.Kind.ROUND_UNPUBLISHED,
        {
            "stage": round_.stage_id,
            "round": round_.number,
            "name": round_.name,
            "called_off": sorted(called_off),
        },
        f"unpublished:{round_.pk}:{','.join(map(str, sorted(called_off)))}"[:120],
    )


def _on_standings_changed(sender: Any, stage_id: int, rounds: list[int], **kwargs: Any) -> None:
    from competition import selectors as competition_selectors
    from competition.models import Stage

    from .serializers.standings import StandingRowSerializer

    stage = Stage.objects.filter(pk=stage_id).first()
    if stage is None or not rounds:
        return
    as_of = max(rounds)
    # the log says which rounds changed (the table is one GET away, at every round)
    change = {"stage": stage_id, "rounds": rounds, "as_of_round": as_of}
    try:  # no key: it only says to look again, which is never wrong twice
        results.record(stage.tournament_id, Webhook.Kind.STANDINGS_CHANGED, change)
    except Exception:
        log.exception("webhooks: the results log of tournament %s refused standings", stage_id)
    if not subscribed(stage.tournament_id, Webhook.Kind.STANDINGS_CHANGED):
        return  # nobody listens: the table is not read (every recompute would pay for it)
    # the table as of the last round that changed, as GET /stages/{id}/standings/?round= gives it
    rows = competition_selectors.standings_for_stage(stage=stage, as_of_round=as_of)
    table = json.loads(json.dumps(StandingRowSerializer(rows, many=True).data))
    enqueue(stage.tournament_id, Webhook.Kind.STANDINGS_CHANGED, {**change, "rows": table})


def connect() -> None:
    """Subscribe to the signals of the layers below (called once, when the app is ready)."""
    from competition.signals import round_published, round_unpublished, standings_changed
    from scoring.signals import deals_recorded, match_completed

    match_completed.connect(_on_match_completed, dispatch_uid="api.webhooks.match_completed")
    deals_recorded.connect(_on_deals_recorded, dispatch_uid="api.webhooks.deals_recorded")
    round_published.connect(_on_round_published, dispatch_uid="api.webhooks.round_published")
    round_unpublished.connect(_on_round_unpublished, dispatch_uid="api.webhooks.round_unpublished")
    standings_changed.connect(_on_standings_changed, dispatch_uid="api.webhooks.standings")
