"""A webhook's shapes: the subscription (its secret shown once), its deliveries and their
attempts."""

from __future__ import annotations

from rest_framework import serializers

from ..models import Webhook, WebhookAttempt, WebhookDelivery
from ._common import StrictModel, VisibleTournament


class WebhookSerializer(StrictModel):
    kinds = serializers.ListField(
        child=serializers.ChoiceField(choices=Webhook.Kind.values), min_length=1
    )
    tournament = VisibleTournament(help_text="A tournament the caller directs.")

    class Meta:
        model = Webhook
        fields = ["id", "tournament", "url", "kinds", "active", "created_at"]
        read_only_fields = ["id", "created_at"]


class NewWebhookSerializer(WebhookSerializer):
    """A subscription as made: with its secret, which no other answer shows again."""

    secret = serializers.CharField(read_only=True, help_text="Signs the deliveries; shown once.")

    class Meta(WebhookSerializer.Meta):
        fields = [*WebhookSerializer.Meta.fields, "secret"]
        read_only_fields = [*WebhookSerializer.Meta.read_only_fields, "secret"]


class WebhookAttemptSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    class Meta:
        model = WebhookAttempt
        fields = ["number", "at", "status_code", "error", "duration_ms"]
        read_only_fields = fields


class WebhookDeliverySerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    attempt_log = WebhookAttemptSerializer(many=True, read_only=True)

    class Meta:
        model = WebhookDelivery
        fields = [
            "id",
            "kind",
            "body",
            "status",
            "attempts",
            "next_attempt_at",
            "created_at",
            "delivered_at",
            "attempt_log",
        ]
        read_only_fields = fields
