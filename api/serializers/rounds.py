"""A round's shapes: the round with its fixtures, and an edit of a draft."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from competition import selectors as competition_selectors
from competition.models import Fixture, Round

from ._common import FIXTURE_RESULT, WINNER_SIDE, SidesField, Strict, TeamRef

#: where a bracket fixture's winner and loser go (docs/competition.md), as the API says it
_SLOT = (
    '"<key>:<slot>": the key of the fixture of a later round they go to, and their place '
    'there: "a" for its sides[0], "b" for its sides[1] (the a/b of the deprecated team_a and '
    'team_b). E.g. "R2-1:a". Null: '
)
WINNER_TO = "Where the winner goes: " + _SLOT + "the final, or not a bracket."
LOSER_TO = "Where the loser goes (a double elimination's lower bracket): " + _SLOT + "out."


@extend_schema_serializer(deprecate_fields=["team_a", "team_b", "source_a", "source_b"])
class FixtureSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    sides = SidesField("fixture", competition_selectors.fixture_sides)
    winner_side = serializers.SerializerMethodField()
    key = serializers.CharField(
        read_only=True, allow_null=True,
        help_text='A bracket fixture\'s key ("R2-1": round 2, fixture 1), null elsewhere.',
    )  # fmt: skip
    winner_to = serializers.CharField(read_only=True, allow_null=True, help_text=WINNER_TO)
    loser_to = serializers.CharField(read_only=True, allow_null=True, help_text=LOSER_TO)
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

    def to_representation(self, instance: Any) -> Any:
        data = super().to_representation(instance)
        for name in ("key", "winner_to", "loser_to"):  # none: null, as round.published says
            data[name] = data[name] or None
        return data

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
