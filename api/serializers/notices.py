"""What a tournament's directors must settle: a notice, a disputed deal."""

from __future__ import annotations

from rest_framework import serializers


class DisputeSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """A deal awaiting a director's decision, with every version of it in the log."""

    match = serializers.IntegerField(source="match.pk")
    deal = serializers.IntegerField()
    entries = serializers.ListField(child=serializers.JSONField())
    rejections = serializers.ListField(child=serializers.JSONField())


class NoticeSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    stage = serializers.IntegerField(source="stage_id")
    fixture = serializers.IntegerField(source="fixture_id", allow_null=True)
    code = serializers.CharField()
    message = serializers.CharField()
    created_at = serializers.DateTimeField()
    resolved_at = serializers.DateTimeField(allow_null=True)
