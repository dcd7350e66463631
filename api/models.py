"""What the API keeps of its own: integration tokens, webhook subscriptions and deliveries."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from knox.models import AbstractAuthToken
from knox.settings import CONSTANTS

from tournaments.models import Club, Tournament


class ApiToken(AbstractAuthToken):
    """A token for an integration: stored hashed (knox), scoped to one tournament or to one
    club (its tournaments and its members), to read only or to read and write, and expiring.
    It acts as its user, within its scope; one made by another token (``made_by``) is never
    broader than it, and goes with it."""

    id = models.BigAutoField(primary_key=True)
    digest = models.CharField(max_length=CONSTANTS.DIGEST_LENGTH, unique=True)
    name = models.CharField(max_length=200)
    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.CASCADE, related_name="tokens"
    )
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.CASCADE, related_name="tokens"
    )
    write = models.BooleanField(default=False, help_text="May it change anything?")
    team_link = models.ForeignKey(
        "tournaments.TeamLink",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="tokens",
        help_text="A team's token: it acts for the team through this link (docs/links.md), "
        "and only that; a new link of the team, or a new token, ends it.",
    )
    player = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        choices=[(0, "first"), (1, "second")],
        help_text="A team's token bound to one of its players (0: first, 1: second): it sees "
        "and plays only that player's seat in the team's digital matches, and holds the seat "
        "as a phone would (tournaments.seats).",
    )
    made_by = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="made",
        help_text="The token that made this one, if a token did: revoked, it takes this along.",
    )

    class Meta:
        ordering = ["-created", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(tournament__isnull=True) ^ models.Q(club__isnull=True),
                name="api_token_one_scope",
                violation_error_message="a token is scoped to a tournament or to a club",
            ),
            models.CheckConstraint(
                condition=models.Q(player__isnull=True) | models.Q(team_link__isnull=False),
                name="api_token_player_of_a_team",
                violation_error_message="only a team's token is bound to a player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.token_key}...)"


class Webhook(models.Model):
    """A subscription: deliveries of some kinds of happenings in a tournament, to a URL."""

    class Kind(models.TextChoices):
        MATCH_COMPLETED = "match.completed", "a match completed"
        MATCH_REOPENED = "match.reopened", "a completed match was reopened by a correction"
        MATCH_MADE = "match.made", "a fixture's match was made"
        FIXTURE_FILLED = "fixture.filled", "a fixture's sides were filled or changed"
        DEAL_RECORDED = "deal.recorded", "a deal's result was recorded"
        DEAL_CORRECTED = "deal.corrected", "a recorded deal's result was corrected"
        DEAL_VOIDED = "deal.voided", "a recorded deal was voided by a correction"
        ROUND_PUBLISHED = "round.published", "a round was published"
        ROUND_UNPUBLISHED = "round.unpublished", "a round was taken back (unpublished)"
        STANDINGS_CHANGED = "standings.changed", "a stage's standings changed"
        TOURNAMENT_CHANGED = "tournament.changed", "the tournament's name, address or date changed"
        TEAM_CHANGED = "team.changed", "a team was registered, renamed, checked in or withdrawn"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=500)
    kinds = models.JSONField(default=list, help_text="Which kinds of happening to deliver.")
    secret = models.CharField(max_length=64, help_text="Signs each delivery (HMAC-SHA256).")
    active = models.BooleanField(default=True, help_text="Off: paused, nothing is sent.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhooks"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["tournament", "id"]

    def __str__(self) -> str:
        return f"webhook {self.pk} of {self.tournament} to {self.url}"


class WebhookDelivery(models.Model):
    """One happening to deliver to one subscription, tried until it succeeds or gives up."""

    class Status(models.TextChoices):
        PENDING = "pending", "pending"
        SUCCEEDED = "succeeded", "delivered"
        FAILED = "failed", "given up"

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    happening = models.ForeignKey(
        "tournaments.Happening",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="deliveries",
        help_text="What it tells (a subscription gets one delivery of a happening).",
    )
    kind = models.CharField(max_length=32)
    body = models.JSONField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(
        null=True, blank=True, help_text="When the next try is due (after a failed one)."
    )
    sending_until = models.DateTimeField(
        null=True,
        blank=True,
        help_text="While an attempt is under way: when it will have ended, whatever happens.",
    )
    created_at = models.DateTimeField(default=timezone.now)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "webhook deliveries"
        constraints = [
            models.UniqueConstraint(
                fields=["webhook", "happening"], name="delivery_of_a_happening_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} to webhook {self.webhook_id}: {self.status}"


class WebhookAttempt(models.Model):
    """One try at a delivery: when, what came back, how long it took."""

    delivery = models.ForeignKey(
        WebhookDelivery, on_delete=models.CASCADE, related_name="attempt_log"
    )
    number = models.PositiveSmallIntegerField()
    at = models.DateTimeField(default=timezone.now)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True)
    duration_ms = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["delivery", "number"]

    def __str__(self) -> str:
        return f"attempt {self.number} of delivery {self.delivery_id}"


class WebhookCursor(models.Model):
    """How far the webhooks have read a tournament's happenings: the last seq whose deliveries
    were made. Moved in the transaction that makes them (api.webhooks.consume), so a consumer
    killed at any point makes them again from here, and one run twice makes none twice."""

    tournament = models.OneToOneField(
        Tournament, primary_key=True, on_delete=models.CASCADE, related_name="webhook_cursor"
    )
    last_seq = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"webhooks of tournament {self.tournament_id} at {self.last_seq}"
