"""A match's shapes: the match with its sides and result, and its deals."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from competition import selectors as competition_selectors
from competition.models import Fixture
from scoring.models import DealResult, MatchResult
from tournaments.models import Match

from ._common import WINNER_SIDE, SidesField, TeamRef


def match_sides(match: Match) -> list[dict[str, Any]]:
    """Return a match's two sides, team 0 first, with its fixture's sources."""
    fixture = _fixture_of(match)
    sources = ("", "") if fixture is None else (fixture.source_a, fixture.source_b)
    return [
        competition_selectors.side(0, match.team0, sources[0]),
        competition_selectors.side(1, match.team1, sources[1]),
    ]


@extend_schema_serializer(deprecate_fields=["winner"])
class MatchResultSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    winner_side = serializers.IntegerField(
        source="winner", read_only=True, allow_null=True, help_text=WINNER_SIDE
    )

    class Meta:
        model = MatchResult
        fields = [
            "seq",
            "deals",
            "difference",
            "bazzis0",
            "bazzis1",
            "next_dealer",
            "over",
            "winner_side",
            "winner",
            "draw",
            "completed_at",
        ]
        read_only_fields = fields
        extra_kwargs: dict[str, dict[str, Any]] = {
            "seq": {
                "help_text": "The result is the log folded up to this event; it has caught up "
                "when it equals the match's last_seq (GET ?wait_for_seq=N waits for it)."
            },
            "winner": {"help_text": "Deprecated: winner_side (the same side)."},
        }


@extend_schema_serializer(deprecate_fields=["team0", "team1"])
class MatchSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    sides = SidesField("match", match_sides)
    team0 = TeamRef(read_only=True, help_text="Deprecated: sides[0].")
    team1 = TeamRef(read_only=True, help_text="Deprecated: sides[1].")
    result = serializers.SerializerMethodField()
    stage = serializers.SerializerMethodField()
    round = serializers.SerializerMethodField()
    table = serializers.SerializerMethodField()
    first_dealer = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = [
            "id",
            "tournament",
            "stage",
            "round",
            "table",
            "sides",
            "team0",
            "team1",
            "mode",
            "confirmation",
            "status",
            "rules",
            "match_format",
            "first_dealer",
            "last_seq",
            "last_hash",
            "created_at",
            "result",
        ]
        read_only_fields = fields

    @extend_schema_field(serializers.IntegerField(allow_null=True, min_value=0, max_value=3))
    def get_first_dealer(self, match: Match) -> int | None:
        """The seat that deals first: as set before the start, else as the log drew it (null
        until the match starts)."""
        if match.first_dealer is not None:
            return int(match.first_dealer)
        drawn = getattr(match, "drawn_dealer", None)
        return None if drawn is None else int(drawn)

    @extend_schema_field(MatchResultSerializer(allow_null=True))
    def get_result(self, match: Match) -> Any:
        result = getattr(match, "result", None)
        return None if result is None else MatchResultSerializer(result).data

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_stage(self, match: Match) -> int | None:
        fixture = _fixture_of(match)
        return None if fixture is None else fixture.stage_id

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_round(self, match: Match) -> int | None:
        fixture = _fixture_of(match)
        return None if fixture is None else fixture.round.number

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_table(self, match: Match) -> int | None:
        fixture = _fixture_of(match)
        return None if fixture is None else fixture.table


def _fixture_of(match: Match) -> Fixture | None:
    try:
        return match.fixture
    except Fixture.DoesNotExist:
        return None


class DealSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    class Meta:
        model = DealResult
        fields = [
            "deal",
            "dealer",
            "points0",
            "points1",
            "sweeps0",
            "sweeps1",
            "total0",
            "total1",
            "difference",
            "running_difference",
            "reset",
            "bazzi",
            "reason",
            "bazzis0",
            "bazzis1",
            "seq",
        ]
        read_only_fields = fields
