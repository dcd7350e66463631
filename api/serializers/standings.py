"""A row of a stage's standings."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from competition.models import StandingRow

from ._common import TeamRef


class StandingRowSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    team = TeamRef(read_only=True)
    tiebreaks = serializers.SerializerMethodField()

    class Meta:
        model = StandingRow
        fields = [
            "rank",
            "team",
            "group",
            "points",
            "played",
            "won",
            "drawn",
            "lost",
            "byes",
            "tiebreaks",
        ]
        read_only_fields = fields
        extra_kwargs = {
            "played": {"help_text": "Games against an opponent, forfeits included; byes not."},
            "byes": {"help_text": "Rounds the team sat out (counted apart from played)."},
            "rank": {"help_text": "The place; before the first round (0), the seed order."},
        }

    @extend_schema_field({"type": "object", "additionalProperties": True})
    def get_tiebreaks(self, row: StandingRow) -> dict[str, Any]:
        return {name: value for name, value in row.tiebreaks}
