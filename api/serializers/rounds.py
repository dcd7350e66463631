"""A round's shapes: the round with its fixtures, and an edit of a draft."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from competition import selectors as competition_selectors
from competition.models import Fixture, Round

from ._common import FIXTURE_RESULT, WINNER_SIDE, SidesField, Strict, TeamRef


@extend_schema_serializer(deprecate_fields=["team_a", "team_b", "source_a", "source_b"])
class FixtureSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    sides = SidesField("fixture", competition_selectors.fixture_sides)
    winner_side = serializers.SerializerMethodField()
    team_a = TeamRef(read_only=True, allow_null=True, help_text="Deprecated: sides[0].")
    team_b = TeamRef(read_only=True, allow_null=True, help_text="Deprecated: sides[1].")

    class Meta:
        model = Fixture
        fields = [
            "id",
            "table",
            "key",
            "group",
            "sides",
            "winner_side",
            "team_a",
            "team_b",
            "source_a",
            "source_b",
            "result",
            "match",
            "winner_to",
            "loser_to",
            "floats",
        ]
        read_only_fields = fields
        extra_kwargs: dict[str, dict[str, Any]] = {
            "source_a": {"help_text": "Deprecated: sides[0].source."},
            "source_b": {"help_text": "Deprecated: sides[1].source."},
            "result": {"help_text": FIXTURE_RESULT},
        }

    @extend_schema_field(serializers.IntegerField(allow_null=True, help_text=WINNER_SIDE))
    def get_winner_side(self, fixture: Fixture) -> int | None:
        return competition_selectors.fixture_winner_side(fixture)


class RoundSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    fixtures = FixtureSerializer(many=True, read_only=True)

    class Meta:
        model = Round
        fields = [
            "id",
            "stage",
            "number",
            "name",
            "part",
            "status",
            "published_at",
            "completed_at",
            "pairing",
            "receipts",
            "fixtures",
        ]
        read_only_fields = fields


class RoundEditSerializer(Strict):
    swap_teams = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=2,
        max_length=2,
        required=False,
        help_text="Two team ids of the draft: they change places.",
    )
    swap_tables = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        min_length=2,
        max_length=2,
        required=False,
        help_text="Two table numbers of the draft: their fixtures change tables.",
    )
    force = serializers.BooleanField(
        default=False, help_text="Make the edit even if it breaks a pairing constraint."
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if ("swap_teams" in data) == ("swap_tables" in data):
            raise serializers.ValidationError("send swap_teams or swap_tables (one of them)")
        return data
