"""A match's log: an event as the caller may see it, its history for its directors, what an
append answers, and the commands it takes (one payload schema per kind)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments import matchlog
from tournaments.chain import timestamp

from ._common import Strict

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
    '"team-link:<side>:<link id>" (followed by ":code-on:<link id>" when the team confirmed '
    "with its card's code on the other team's phone, or \":code-on:table-<match id>\" when it "
    "spoke with its card's code on the phone of the match's table card), "
    '"unpublish"; "" for the server.'
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
    ratings = serializers.ListField(
        child=serializers.JSONField(),
        help_text="The club's members whose rating would change: {key, name, before, after}, "
        "each a {member, mu, sigma, conservative, matches} or null.",
    )
    ladder = serializers.ListField(
        child=serializers.JSONField(),
        help_text="The ladder lines that would change, of the seasons holding the evening: "
        "{key, name, before, after}, each a {season, season_name, member, rank, points} or "
        "null.",
    )


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
