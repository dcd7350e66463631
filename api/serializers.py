"""What the API reads and writes. Inputs are strict (an unknown field is an error, server-owned
fields are read-only); outputs never carry a hidden card (events go through the store's
renderer, positions through ``seep_core.view``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from competition import formats
from competition import selectors as competition_selectors
from competition import services as competition_services
from competition.models import Fixture, Round, Stage, StandingRow
from scoring.models import DealResult, MatchResult
from tournaments import matchlog
from tournaments.access import directed_clubs
from tournaments.chain import timestamp
from tournaments.models import (
    ID_LIMIT,
    INTEGER_MAX,
    INTEGER_MIN,
    Club,
    Match,
    Team,
    Tournament,
)

from .access import visible_tournaments
from .accounts import AccountField, AccountsField
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


class Side(serializers.Serializer):  # type: ignore[type-arg]
    """One of a fixture's or a match's two sides, in the one vocabulary of the API (docs/api.md):
    ``sides`` is always two of these, side 0 first; a side is named by its index elsewhere
    (``winner_side``, an entry's ``side``, the first of every pair of numbers)."""

    side = serializers.IntegerField(
        read_only=True, min_value=0, max_value=1,
        help_text="0: the team at seats 0 and 2 (the match's team 0, the fixture's first); 1: "
        "the team at seats 1 and 3.",
    )  # fmt: skip
    id = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="The team's id: null while it is not known "
        "(a bracket slot waiting for a result) or for the missing side of a bye.",
    )  # fmt: skip
    name = serializers.CharField(read_only=True, allow_null=True, help_text="The team's name.")
    # a field named like Field.source: the serializer's metaclass takes it out of the class
    source = serializers.CharField(  # type: ignore[assignment]
        read_only=True, allow_null=True,
        help_text='Where the team comes from in a bracket ("Seed 3", "winner of QF1"), or null.',
    )  # fmt: skip


class SidesField(serializers.ListField):
    """The read-only ``sides`` of a fixture or a match: two ``Side``s, made by ``sides`` from
    the whole object (None: a dict that has them already, as a webhook's body)."""

    def __init__(self, what: str, sides: Callable[[Any], list[dict[str, Any]]] | None = None):
        kwargs: dict[str, Any] = {} if sides is None else {"source": "*"}
        super().__init__(
            child=Side(),
            min_length=2,
            max_length=2,
            read_only=True,
            help_text=f'The {what}\'s two sides, side 0 first (docs/api.md, "One vocabulary").',
            **kwargs,
        )
        self.sides = sides

    def to_representation(self, data: Any) -> Any:
        return data if self.sides is None else self.sides(data)


def sides_field(what: str) -> SidesField:
    """Return the ``sides`` field of a shape served as a dict (a bracket's, a webhook's)."""
    return SidesField(what)


def match_sides(match: Match) -> list[dict[str, Any]]:
    """Return a match's two sides, team 0 first, with its fixture's sources."""
    fixture = _fixture_of(match)
    sources = ("", "") if fixture is None else (fixture.source_a, fixture.source_b)
    return [
        competition_selectors.side(0, match.team0, sources[0]),
        competition_selectors.side(1, match.team1, sources[1]),
    ]


WINNER_SIDE = "The side that won or went through (0 or 1), or null: not decided, or drawn."
FIXTURE_RESULT = (
    '"a": side 0 won, "b": side 1 won ("forfeit_a": side 0 forfeited, "bye": side 0 had a bye), '
    '"draw", "void", or empty (pending); winner_side names the side that went through.'
)


# --- tournaments and teams ---------------------------------------------------------------


class TournamentSerializer(StrictModel):
    organizer = UserRef(read_only=True)
    club = serializers.IntegerField(
        source="club_id",
        required=False,
        allow_null=True,
        help_text="The club it belongs to: one you direct (a club's token: its club). Left "
        "out: your oldest club (one is made for you if you direct none). Fixed once made.",
    )
    directors = AccountsField(
        required=False,
        help_text="The accounts directing with the organizer, each by id or as a member "
        '({"member": id}), of the club\'s people (only the organizer changes them).',
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
            "club",
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
    """A player of a team: a member of the tournament's club (``member``), or a name (and an
    account) for the club's member with that account, or else a new member."""

    id = serializers.IntegerField(read_only=True)
    member = serializers.IntegerField(
        required=False,
        write_only=True,
        min_value=1,
        max_value=ID_LIMIT - 1,
        help_text="A member of the tournament's club, by id (GET /clubs/{id}/members/).",
    )
    name = serializers.CharField(
        max_length=200, required=False, help_text="Without a member: who plays (a new member)."
    )
    user = AccountField(
        required=False,
        allow_null=True,
        help_text="Without a member: the account this player signs in with (to play digital "
        "moves), one of the club's people: the club's member with it plays.",
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if ("member" in data) == ("name" in data):
            raise serializers.ValidationError("send a member (its id) or a name (one of them)")
        if "member" in data and "user" in data:
            raise serializers.ValidationError({"user": ["a member brings their own account"]})
        return data


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


class PlaysInSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """A stage a team plays in, and the first round it plays there."""

    stage = serializers.IntegerField(read_only=True, help_text="The stage's id.")
    name = serializers.CharField(read_only=True, help_text="The stage's name.")
    from_round = serializers.IntegerField(
        read_only=True, allow_null=True,
        help_text="The first round the team plays in it (a late entry's: the round it joins, "
        "with 0 points); null: the stage has not started, and the team enters when it does.",
    )  # fmt: skip


class TeamCheckedInSerializer(TeamSerializer):
    """A team just checked in, and where it plays from now."""

    plays_in = PlaysInSerializer(
        many=True, read_only=True,
        help_text="Where the team plays from now: each running stage it is in, then the next "
        "stage to come that takes the registered teams. A check-in after a stage started that "
        "no stage can take is refused instead (409 late_entry_refused).",
    )  # fmt: skip


# --- stages, rounds, standings -----------------------------------------------------------


class StageSerializer(StrictModel):
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=list(formats.TIEBREAKS)), required=False
    )
    match_format = serializers.JSONField(
        required=False,
        help_text="How long each match lasts (M1). Left out: the tournament's; an elimination "
        "stage's never draws (left out, draws is false; true is refused, bad_format).",
    )
    scorekeepers = AccountsField(
        required=False,
        help_text="Who keeps score at every match of the stage: accounts, each by id or as a "
        'member ({"member": id}), of the club\'s people.',
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
            "review_draw",
            "scorekeepers",
            "status",
            "started_at",
            "completed_at",
        ]
        read_only_fields = ["id", "tournament", "order", "status", "started_at", "completed_at"]


class StageStartSerializer(Strict):
    """What a start may say: the registered teams not checked in that it starts without."""

    not_checked_in = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=ID_LIMIT - 1),
        required=False, max_length=1024,
        help_text="The ids of the registered teams not checked in that you start without (as "
        "the desk's confirmation names them; at most 1,024). Given, the start is refused "
        "(409 not_checked_in, naming them) while another registered team that has not "
        "withdrawn is not checked in. Left out: the stage starts without whoever is not "
        "checked in, and the answer's not_checked_in says who.",
    )  # fmt: skip


class StageStartedSerializer(StageSerializer):
    """A stage just started, and the registered teams it left out, not checked in."""

    not_checked_in = TeamRef(
        many=True, read_only=True,
        help_text="The registered teams (not withdrawn) not checked in, left out of the stage: "
        "empty for a stage that takes the top teams of the stage before. Checked in later, "
        "each joins a Swiss stage with late_entry at its next round (0 points), or a stage to "
        "come that takes the registered teams; otherwise its check-in is refused (409 "
        "late_entry_refused).",
    )  # fmt: skip

    class Meta(StageSerializer.Meta):
        fields = [*StageSerializer.Meta.fields, "not_checked_in"]


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


# A bracket's answer is the selector's tree as it is (``competition.selectors.bracket_for_stage``):
# these describe it for the schema.


#: the bracket's old slot of one side (``a`` or ``b``), deprecated; made with ``type`` since
#: one of its keys is ``from``
BracketSlotSerializer: type[serializers.Serializer] = type(  # type: ignore[type-arg]
    "BracketSlotSerializer",
    (serializers.Serializer,),
    {
        "team": serializers.IntegerField(allow_null=True),
        "name": serializers.CharField(required=False),
        "from": serializers.CharField(required=False),
    },
)


@extend_schema_serializer(deprecate_fields=["a", "b", "winner"])
class BracketFixtureSerializer(serializers.Serializer):  # type: ignore[type-arg]
    key = serializers.CharField()
    table = serializers.IntegerField(allow_null=True)
    sides = sides_field("fixture")
    winner_side = serializers.IntegerField(allow_null=True, help_text=WINNER_SIDE)
    a = BracketSlotSerializer(allow_null=True, help_text="Deprecated: sides[0].")
    b = BracketSlotSerializer(allow_null=True, help_text="Deprecated: sides[1].")
    result = serializers.CharField(allow_null=True, help_text=FIXTURE_RESULT)
    winner = serializers.IntegerField(
        allow_null=True, help_text="Deprecated: the team id of sides[winner_side]."
    )
    status = serializers.ChoiceField(
        choices=["waiting", "ready", "playing", "decided", "void", "bye"]
    )
    match = serializers.IntegerField(allow_null=True)
    winner_to = serializers.CharField(allow_null=True)
    loser_to = serializers.CharField(allow_null=True)


class BracketRoundSerializer(serializers.Serializer):  # type: ignore[type-arg]
    number = serializers.IntegerField()
    name = serializers.CharField()
    part = serializers.CharField()
    status = serializers.CharField()
    fixtures = BracketFixtureSerializer(many=True)


@extend_schema_serializer(deprecate_fields=["team"])
class ChampionSerializer(TeamRef):
    team = serializers.IntegerField(read_only=True, help_text="Deprecated: id.")


class BracketSerializer(serializers.Serializer):  # type: ignore[type-arg]
    stage = serializers.IntegerField()
    format = serializers.CharField()
    status = serializers.CharField()
    rounds = BracketRoundSerializer(many=True)
    champion = ChampionSerializer(allow_null=True)


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
        extra_kwargs = {
            "played": {"help_text": "Games against an opponent, forfeits included; byes not."},
            "byes": {"help_text": "Rounds the team sat out (counted apart from played)."},
            "rank": {"help_text": "The place; before the first round (0), the seed order."},
        }

    @extend_schema_field({"type": "object", "additionalProperties": True})
    def get_tiebreaks(self, row: StandingRow) -> dict[str, Any]:
        return {name: value for name, value in row.tiebreaks}


# --- matches -----------------------------------------------------------------------------


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


RECORDED_AT = (
    "When it was recorded, as the hash chain writes it: ISO 8601 in UTC with microseconds "
    "and +00:00 (2026-05-01T19:04:05.123456+00:00)."
)
REQUEST_DIGEST = (
    "A keyed command's sha256 of its request (kind, payload, expected_seq), hashed with it; "
    '"" for an unkeyed or derived event.'
)
VIA = (
    'How the command came in, hashed with it when set: "token:<id>", "session", "admin", '
    '"team-link:<side>:<link id>", "unpublish"; "" for the server.'
)
HASH = "sha256 of the previous event's hash and this event's fields (docs/events.md)."


ENTRY_NUMBER = (
    "The entry's number within its deal (1, 2...: the deal's first entry, its second), as "
    "GET /matches/{id}/state/ lists it under entries; not a seq."
)


class EventSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """An event as ``tournaments.selectors.render_event`` shows it to the caller."""

    seq = serializers.IntegerField()
    kind = serializers.CharField()
    payload = serializers.JSONField()
    actor = serializers.IntegerField(allow_null=True)
    recorded_at = serializers.CharField(help_text=RECORDED_AT)
    idempotency_key = serializers.CharField(
        allow_null=True, help_text="The command's Idempotency-Key (null: none, or derived)."
    )
    caused_by = serializers.IntegerField(allow_null=True)
    request_digest = serializers.CharField(help_text=REQUEST_DIGEST)
    via = serializers.CharField(help_text=VIA)
    hash = serializers.CharField(help_text=HASH)
    hidden = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="Payload fields hidden from you (shown as null): this event's hash cannot "
        "be recomputed until they show (a deck, once its deal is over).",
    )


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
    via = serializers.CharField(help_text=VIA)
    recorded_at = serializers.SerializerMethodField(help_text=RECORDED_AT)
    caused_by = serializers.IntegerField(allow_null=True)
    idempotency_key = serializers.CharField(allow_null=True)
    request_digest = serializers.CharField(help_text=REQUEST_DIGEST)
    hash = serializers.CharField(help_text=HASH)

    @extend_schema_field(serializers.CharField())
    def get_recorded_at(self, event: Any) -> str:
        return timestamp(event.recorded_at)

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


class CutDecisionSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """How a director decided a tie at a cut (docs/competition.md, "Ties at the cut")."""

    method = serializers.ChoiceField(choices=["lot", "order"])
    order = serializers.ListField(
        child=serializers.IntegerField(), help_text="The tied teams' ids as decided, highest first."
    )
    lot_seed = serializers.IntegerField(
        allow_null=True, help_text="A drawn lot: the random seed it was drawn from (it replays)."
    )
    decided_by = serializers.CharField(source="decided_by_name")
    decided_at = serializers.DateTimeField()
    words = serializers.SerializerMethodField()

    def get_words(self, decision: Any) -> str:
        """How the standings say it: "lot drawn by ann at 21:04"."""
        return competition_services.decision_words(decision)


class CutTieSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """Teams level on every tie-break across a stage's cut line."""

    tie = serializers.CharField(source="key", help_text="The tie's name, to decide it by.")
    group = serializers.IntegerField(allow_null=True)
    place = serializers.IntegerField(source="rank")
    teams = serializers.ListField(child=serializers.IntegerField())
    through = serializers.IntegerField(help_text="How many of the tied teams go through.")
    decision = CutDecisionSerializer(allow_null=True)


class CutDecideSerializer(Strict):
    tie = serializers.CharField(max_length=4000, help_text="The tie's name (``tie`` of a tie).")
    method = serializers.ChoiceField(choices=["lot", "order"])
    order = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        max_length=4096,
        help_text="With method order: the tied teams' ids, the highest first, each once.",
    )


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


class MoveWithdrawnPayload(Strict):
    """A table's last play taken back, before the next is recorded (docs/events.md)."""

    move = MoveSerializer(help_text="The last play, as it was recorded.")


class DealEndedPayload(Strict):
    points = serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2)
    sweeps = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()), min_length=2, max_length=2
    )


class DealEnteredPayload(DealEndedPayload):
    """One side's entry of the next deal's result; it counts once the other side agrees."""


class DealConfirmedPayload(Strict):
    entry = serializers.IntegerField(min_value=1, help_text=ENTRY_NUMBER)


class DealRejectedPayload(Strict):
    entry = serializers.IntegerField(min_value=1, help_text=ENTRY_NUMBER)
    reason = serializers.CharField(max_length=500)
    points = serializers.ListField(
        child=serializers.IntegerField(), min_length=2, max_length=2, required=False,
        help_text="Your own version of the card points, for the director.",
    )  # fmt: skip
    sweeps = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()), min_length=2,
        max_length=2, required=False,
    )  # fmt: skip


class EntryWithdrawnPayload(Strict):
    """Your team's entry taken back, unanswered or disputed: the deal is entered again."""

    entry = serializers.IntegerField(min_value=1, help_text=ENTRY_NUMBER)
    deal = serializers.IntegerField(
        min_value=1, required=False,
        help_text="The deal you mean (the next one); a deal counted already is refused.",
    )  # fmt: skip


class VersionAcceptedPayload(EntryWithdrawnPayload):
    """Your team's disputed entry given up for the other team's numbers (those it gave when
    it rejected the entry, or its own entry when both sides enter): the deal counts with
    them."""


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
    "move_withdrawn": MoveWithdrawnPayload,
    "deal_ended": DealEndedPayload,
    "deal_entered": DealEnteredPayload,
    "deal_confirmed": DealConfirmedPayload,
    "deal_rejected": DealRejectedPayload,
    "entry_withdrawn": EntryWithdrawnPayload,
    "version_accepted": VersionAcceptedPayload,
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


class DirectedClub(serializers.PrimaryKeyRelatedField):  # type: ignore[type-arg]
    """A club the caller directs, by id: any other id is the answer an id naming none gets."""

    default_error_messages = {
        "does_not_exist": "no such club among those you direct",
        "incorrect_type": "a club id (a whole number)",
    }

    def get_queryset(self) -> Any:
        return directed_clubs(self.context["request"].user)

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, bool) or not isinstance(data, int) or not 1 <= data < ID_LIMIT:
            self.fail("does_not_exist", pk_value=data)
        return super().to_internal_value(data)


class TokenSerializer(StrictModel):
    tournament = VisibleTournament(
        required=False,
        allow_null=True,
        help_text="A tournament token: the one tournament it may act in.",
    )
    club = DirectedClub(
        required=False,
        allow_null=True,
        help_text="A club token: the club it may act in (its tournaments, making them, its "
        "members); a club you direct.",
    )
    expires_in_days = serializers.IntegerField(
        min_value=1,
        max_value=366,
        default=30,
        write_only=True,
        help_text="Days it lasts (a token made by a token: no longer than that token).",
    )
    token = serializers.CharField(read_only=True, help_text="Shown once, when it is made.")

    class Meta:
        model = ApiToken
        fields = [
            "id",
            "name",
            "tournament",
            "club",
            "write",
            "expires_in_days",
            "created",
            "expiry",
            "token_key",
            "made_by",
            "token",
        ]
        read_only_fields = ["id", "created", "expiry", "token_key", "made_by", "token"]

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if (data.get("tournament") is None) == (data.get("club") is None):
            raise serializers.ValidationError("send a tournament or a club (one of them)")
        return data


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


# --- clubs and their members -------------------------------------------------------------


class ClubSerializer(StrictModel):
    directors = UserRef(many=True, read_only=True)
    time_zone = serializers.CharField(
        max_length=64,
        required=False,
        help_text="An IANA time zone name (Asia/Kolkata); its tournaments' pages show times in "
        "it. Default UTC.",
    )

    class Meta:
        model = Club
        fields = ["id", "name", "slug", "time_zone", "directors", "created_at"]
        read_only_fields = ["id", "slug", "directors", "created_at"]


class MemberSerializer(Strict):
    """A member of a club. ``contact`` is shown to the club's directors only (anyone else who
    sees the member gets null)."""

    id = serializers.IntegerField(read_only=True)
    club = serializers.IntegerField(source="club_id", read_only=True)
    name = serializers.CharField(max_length=200)
    contact = serializers.CharField(
        max_length=200,
        required=False,
        allow_null=True,
        allow_blank=True,
        help_text="A phone number or e-mail, to tell two members of one name apart (its "
        "directors only).",
    )
    user = AccountField(
        required=False,
        allow_null=True,
        help_text="The account they sign in with, if any (one of the club's people: its "
        "directors, its members' accounts, yours). A member plays without one.",
    )

    def to_representation(self, member: Any) -> dict[str, Any]:
        return {
            "id": member.pk,
            "club": member.club_id,
            "name": member.name,
            "contact": member.contact if self.context.get("directs") else None,
            "user": member.user_id,
        }
