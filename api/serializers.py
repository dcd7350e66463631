"""What the API reads and writes. Inputs are strict (an unknown field is an error, server-owned
fields are read-only); outputs never carry a hidden card (events go through the store's
renderer, positions through ``seep_core.view``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from competition import formats
from competition.models import Fixture, Round, Stage, StandingRow
from scoring.models import DealResult, MatchResult
from tournaments import matchlog
from tournaments.models import INTEGER_MAX, INTEGER_MIN, Match, Team, Tournament

from .access import visible_tournaments
from .models import ApiToken, Webhook, WebhookAttempt, WebhookDelivery


class Strict(serializers.Serializer):  # type: ignore[type-arg]
    """A serializer that refuses fields it does not know, instead of ignoring them."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            writable = {name for name, field in self.fields.items() if not field.read_only}
            unknown = sorted(str(k) for k in data if k not in writable)
            if unknown:
                raise serializers.ValidationError(
                    {name: ["not a field you may send"] for name in unknown}
                )
        return super().to_internal_value(data)


class StrictModel(Strict, serializers.ModelSerializer):  # type: ignore[type-arg]
    pass


class UserRef(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField(read_only=True)
    username = serializers.CharField(read_only=True)


class TeamRef(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField(read_only=True)


# --- tournaments and teams ---------------------------------------------------------------


class TournamentSerializer(StrictModel):
    organizer = UserRef(read_only=True)
    directors = serializers.PrimaryKeyRelatedField(
        many=True,
        queryset=get_user_model().objects.all(),
        required=False,
        help_text="User ids directing with the organizer (only the organizer changes them).",
    )
    rules = serializers.JSONField(required=False, help_text="Rule variants (docs/rules.md V).")
    match_format = serializers.JSONField(required=False, help_text="Default match format (M1).")

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "slug",
            "organizer",
            "directors",
            "rules",
            "match_format",
            "published",
            "created_at",
        ]
        read_only_fields = ["id", "organizer", "created_at"]
        # a taken slug is refused by the model's check (the view's full_clean), in the one
        # wording of tournaments.models.slug_taken, whoever's tournament holds it
        extra_kwargs: dict[str, dict[str, Any]] = {"slug": {"validators": []}}


class PlayerSerializer(Strict):
    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField(max_length=200)
    user = serializers.PrimaryKeyRelatedField(
        queryset=get_user_model().objects.all(),
        required=False,
        allow_null=True,
        help_text="The account this player signs in with (to play digital moves).",
    )


class TeamSerializer(Strict):
    id = serializers.IntegerField(read_only=True)
    tournament = serializers.IntegerField(source="tournament_id", read_only=True)
    name = serializers.CharField(max_length=200)
    players = PlayerSerializer(many=True, help_text="Exactly two: the first sits at seat 0 or 1.")
    # integer columns (the ModelSerializers take their bounds from the model, these do not)
    rating = serializers.IntegerField(
        required=False, allow_null=True, min_value=INTEGER_MIN, max_value=INTEGER_MAX
    )
    seed = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=INTEGER_MAX
    )
    checked_in = serializers.BooleanField(required=False, default=False, write_only=True)
    checked_in_at = serializers.DateTimeField(read_only=True, allow_null=True)
    withdrawn_at = serializers.DateTimeField(read_only=True, allow_null=True)

    def validate_players(self, value: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if len(value) != 2:
            raise serializers.ValidationError("a team is two players")
        return value

    def to_representation(self, team: Team) -> dict[str, Any]:
        registration = getattr(team, "registration", None)
        return {
            "id": team.pk,
            "tournament": team.tournament_id,
            "name": team.name,
            "players": [
                {"id": p.pk, "name": p.name, "user": p.user_id}
                for p in (team.first_player, team.second_player)
            ],
            "rating": getattr(registration, "rating", None),
            "seed": getattr(registration, "seed", None),
            "checked_in_at": getattr(registration, "checked_in_at", None),
            "withdrawn_at": getattr(registration, "withdrawn_at", None),
        }


# --- stages, rounds, standings -----------------------------------------------------------


class StageSerializer(StrictModel):
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=list(formats.TIEBREAKS)), required=False
    )
    match_format = serializers.JSONField(required=False)
    scorekeepers = serializers.PrimaryKeyRelatedField(
        many=True, queryset=get_user_model().objects.all(), required=False
    )

    class Meta:
        model = Stage
        fields = [
            "id",
            "tournament",
            "order",
            "name",
            "format",
            "rounds",
            "groups",
            "entry",
            "entry_count",
            "late_entry",
            "seeding",
            "seeding_seed",
            "swiss_method",
            "match_format",
            "mode",
            "confirmation",
            "points_win",
            "points_draw",
            "points_loss",
            "points_bye",
            "points_forfeit",
            "tiebreaks",
            "tiebreak_seed",
            "third_place",
            "grand_final_reset",
            "withdrawal",
            "start_matches",
            "scorekeepers",
            "status",
            "started_at",
            "completed_at",
        ]
        read_only_fields = ["id", "tournament", "order", "status", "started_at", "completed_at"]


class FixtureSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    team_a = TeamRef(read_only=True, allow_null=True)
    team_b = TeamRef(read_only=True, allow_null=True)

    class Meta:
        model = Fixture
        fields = [
            "id",
            "table",
            "key",
            "group",
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

    @extend_schema_field({"type": "object", "additionalProperties": True})
    def get_tiebreaks(self, row: StandingRow) -> dict[str, Any]:
        return {name: value for name, value in row.tiebreaks}


# --- matches -----------------------------------------------------------------------------


class MatchResultSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
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
            "winner",
            "draw",
            "completed_at",
        ]
        read_only_fields = fields


class MatchSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    team0 = TeamRef(read_only=True)
    team1 = TeamRef(read_only=True)
    result = serializers.SerializerMethodField()
    stage = serializers.SerializerMethodField()
    round = serializers.SerializerMethodField()
    table = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = [
            "id",
            "tournament",
            "stage",
            "round",
            "table",
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


class EventSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """An event as ``tournaments.selectors.render_event`` shows it to the caller."""

    seq = serializers.IntegerField()
    kind = serializers.CharField()
    payload = serializers.JSONField()
    actor = serializers.IntegerField(allow_null=True)
    recorded_at = serializers.DateTimeField()
    caused_by = serializers.IntegerField(allow_null=True)
    hash = serializers.CharField()
    hidden = serializers.ListField(child=serializers.CharField(), required=False)


class AppendedSerializer(serializers.Serializer):  # type: ignore[type-arg]
    events = EventSerializer(many=True)
    last_seq = serializers.IntegerField()
    consequences = serializers.JSONField(
        required=False, help_text="A correction's: what it changed (as its dry run shows)."
    )


class CorrectionPreviewSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """What a correction would change (``?dry_run=true``): nothing is written."""

    match = serializers.IntegerField()
    kind = serializers.CharField()
    result_before = serializers.JSONField()
    result_after = serializers.JSONField()
    standings = serializers.ListField(child=serializers.JSONField())
    bracket = serializers.ListField(child=serializers.JSONField())
    notices = serializers.ListField(child=serializers.CharField())
    fed_later = serializers.BooleanField()
    needs_confirmation = serializers.BooleanField()


class HistorySerializer(serializers.Serializer):  # type: ignore[type-arg]
    """One event of a match's whole history, for its directors: who, when, through what."""

    seq = serializers.IntegerField()
    kind = serializers.CharField()
    payload = serializers.JSONField()
    actor = serializers.IntegerField(source="actor_id", allow_null=True)
    actor_name = serializers.SerializerMethodField()
    via = serializers.CharField(help_text='"token:<id>", "session", "admin", or "" (server)')
    recorded_at = serializers.DateTimeField()
    caused_by = serializers.IntegerField(allow_null=True)
    idempotency_key = serializers.CharField(allow_null=True)
    hash = serializers.CharField()

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_actor_name(self, event: Any) -> str | None:
        return None if event.actor is None else str(event.actor.get_username())


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


# --- commands: one payload schema per kind (a discriminated union on "kind") -------------


class MoveSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """A move, as docs/engine.md describes it (the engine checks it)."""

    seat = serializers.IntegerField(min_value=0, max_value=3)
    action = serializers.ChoiceField(choices=["bid", "redeal", "throw", "capture", "build"])
    card = serializers.CharField(required=False)
    value = serializers.IntegerField(required=False)
    take = serializers.ListField(child=serializers.CharField(), required=False)


class MatchStartedPayload(Strict):
    first_dealer = serializers.IntegerField(min_value=0, max_value=3, required=False)


class MovePlayedPayload(Strict):
    move = MoveSerializer()


class DealEndedPayload(Strict):
    points = serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2)
    sweeps = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()), min_length=2, max_length=2
    )


class DealEnteredPayload(DealEndedPayload):
    """One side's entry of the next deal's result; it counts once the other side agrees."""


class DealConfirmedPayload(Strict):
    entry = serializers.IntegerField(min_value=1, help_text="The entry's number (its seq).")


class DealRejectedPayload(Strict):
    entry = serializers.IntegerField(min_value=1, help_text="The entry's number (its seq).")
    reason = serializers.CharField(max_length=500)
    points = serializers.ListField(
        child=serializers.IntegerField(), min_length=2, max_length=2, required=False,
        help_text="Your own version of the card points, for the director.",
    )  # fmt: skip
    sweeps = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()), min_length=2,
        max_length=2, required=False,
    )  # fmt: skip


class DealCorrectedPayload(DealEndedPayload):
    deal = serializers.IntegerField(min_value=1, help_text="A deal already counted.")
    reason = serializers.CharField(max_length=500)


class DealVoidedPayload(Strict):
    deal = serializers.IntegerField(min_value=1, help_text="A deal already counted.")
    reason = serializers.CharField(max_length=500)


class ScoreAdjustedPayload(Strict):
    team = serializers.IntegerField(min_value=0, max_value=1)
    points = serializers.IntegerField(help_text="Added to the team's side: a bonus, or a penalty.")
    reason = serializers.CharField(max_length=500)


class MatchForfeitedPayload(Strict):
    team = serializers.IntegerField(min_value=0, max_value=1, help_text="The team that forfeits.")
    reason = serializers.CharField(max_length=500)


PAYLOADS: dict[str, type[serializers.Serializer]] = {  # type: ignore[type-arg]
    "match_started": MatchStartedPayload,
    "move_played": MovePlayedPayload,
    "deal_ended": DealEndedPayload,
    "deal_entered": DealEnteredPayload,
    "deal_confirmed": DealConfirmedPayload,
    "deal_rejected": DealRejectedPayload,
    "deal_corrected": DealCorrectedPayload,
    "deal_voided": DealVoidedPayload,
    "score_adjusted": ScoreAdjustedPayload,
    "match_forfeited": MatchForfeitedPayload,
}


def command_serializer(kind: str, payload: type[serializers.Serializer]) -> type:  # type: ignore[type-arg]
    """Return the request body schema of one command kind."""
    fields: dict[str, Any] = {
        "expected_seq": serializers.IntegerField(min_value=0),
        "kind": serializers.ChoiceField(choices=[kind]),
        "payload": payload(),
        "__doc__": f"Append a {kind} command.",
    }
    if kind in matchlog.CORRECTIONS:
        fields["confirm"] = serializers.BooleanField(
            required=False,
            help_text="Apply it although it changes a result a later round was built on "
            "(after looking at its consequences: ?dry_run=true).",
        )
    return type(f"{kind.title().replace('_', '')}Command", (serializers.Serializer,), fields)


COMMANDS = {kind: command_serializer(kind, payload) for kind, payload in PAYLOADS.items()}


# --- tokens and webhooks -----------------------------------------------------------------


class VisibleTournament(serializers.PrimaryKeyRelatedField):  # type: ignore[type-arg]
    """A tournament the caller may see, by id: any other id, a private tournament's as one that
    names none, is the same error (knowing an id grants nothing, not even that it exists)."""

    default_error_messages = {
        "does_not_exist": "no such tournament",
        "incorrect_type": "a tournament id (a whole number)",
    }

    def get_queryset(self) -> Any:
        return visible_tournaments(self.context["request"])


class TokenSerializer(StrictModel):
    tournament = VisibleTournament(help_text="The one tournament the token may act in.")
    expires_in_days = serializers.IntegerField(
        min_value=1, max_value=366, default=30, write_only=True
    )
    token = serializers.CharField(read_only=True, help_text="Shown once, when it is made.")

    class Meta:
        model = ApiToken
        fields = [
            "id",
            "name",
            "tournament",
            "write",
            "expires_in_days",
            "created",
            "expiry",
            "token_key",
            "token",
        ]
        read_only_fields = ["id", "created", "expiry", "token_key", "token"]


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
