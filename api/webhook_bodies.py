"""What each webhook delivery posts, for the schema: its ``webhooks`` section (OpenAPI 3.1).

The bodies are built in ``api.webhooks``; these serializers only describe them, in the API's one
vocabulary (a fixture's or a match's ``sides``, side 0 first; a side named by its index), with
the old keys kept and marked deprecated (docs/api-changelog.md).
"""

from __future__ import annotations

import copy
from typing import Any

from drf_spectacular.utils import OpenApiWebhook, extend_schema, extend_schema_serializer
from rest_framework import serializers

from competition.happenings import TEAM_CHANGES

from .models import Webhook
from .serializers import FIXTURE_RESULT, WINNER_SIDE, TeamRef, sides_field
from .serializers.standings import StandingRowSerializer


class DeliveryBody(serializers.Serializer):  # type: ignore[type-arg]
    """What every delivery's body holds, whatever its kind (the signature covers it all)."""

    id = serializers.IntegerField(help_text="The delivery's id (also in Seep-Delivery).")
    created_at = serializers.DateTimeField()
    kind = serializers.ChoiceField(choices=Webhook.Kind.values)
    tournament = serializers.IntegerField()
    seq = serializers.IntegerField(
        help_text="The happening's place in the tournament's results log: one delivery per "
        "subscription and seq (a retry repeats its id and seq: drop what you have seen)."
    )


class Head(serializers.Serializer):  # type: ignore[type-arg]
    seq = serializers.IntegerField()
    hash = serializers.CharField()


@extend_schema_serializer(deprecate_fields=["teams", "winner"])
class MatchCompletedBody(DeliveryBody):
    match = serializers.IntegerField()
    sides = sides_field("match")
    winner_side = serializers.IntegerField(allow_null=True, help_text=WINNER_SIDE)
    teams = serializers.ListField(
        child=serializers.IntegerField(), help_text="Deprecated: sides[0].id and sides[1].id."
    )
    winner = serializers.IntegerField(
        allow_null=True, help_text="Deprecated: the team id of sides[winner_side]."
    )
    draw = serializers.BooleanField()
    bazzis = serializers.ListField(child=serializers.IntegerField(), help_text="By side.")
    difference = serializers.IntegerField()
    deals = serializers.IntegerField()
    head = Head(help_text="The match's log when it completed.")


class DealFields(serializers.Serializer):  # type: ignore[type-arg]
    """A deal's result as it stood (what a correction replaced)."""

    match = serializers.IntegerField()
    deal = serializers.IntegerField()
    dealer = serializers.IntegerField()
    points = serializers.ListField(child=serializers.IntegerField(), help_text="By side.")
    sweeps = serializers.ListField(child=serializers.JSONField(), help_text="By side.")
    total = serializers.ListField(child=serializers.IntegerField(), help_text="By side.")
    running_difference = serializers.IntegerField()
    bazzi = serializers.IntegerField(allow_null=True)
    bazzis = serializers.ListField(child=serializers.IntegerField(), help_text="By side.")


class DealRecordedBody(DeliveryBody, DealFields):  # the delivery's fields, then the deal's
    pass


class DealCorrectedBody(DealRecordedBody):
    replaced = DealFields(help_text="The deal's result before the correction.")


class DealVoidedBody(DeliveryBody):
    match = serializers.IntegerField()
    deal = serializers.IntegerField()
    replaced = DealFields(help_text="The deal's result before it was voided.")


class MatchReopenedBody(DeliveryBody):
    match = serializers.IntegerField()
    sides = sides_field("match")
    bazzis = serializers.ListField(child=serializers.IntegerField(), help_text="By side.")
    difference = serializers.IntegerField()
    deals = serializers.IntegerField()
    head = Head(help_text="The match's log when it was reopened.")


@extend_schema_serializer(deprecate_fields=["a", "b"])
class PublishedFixture(serializers.Serializer):  # type: ignore[type-arg]
    table = serializers.IntegerField(allow_null=True)
    key = serializers.CharField(allow_null=True)
    sides = sides_field("fixture")
    winner_side = serializers.IntegerField(allow_null=True, help_text=WINNER_SIDE)
    a = serializers.IntegerField(allow_null=True, help_text="Deprecated: sides[0].id.")
    b = serializers.IntegerField(allow_null=True, help_text="Deprecated: sides[1].id.")
    match = serializers.IntegerField(allow_null=True)
    result = serializers.CharField(allow_null=True, help_text=FIXTURE_RESULT)


class _FixturePlace(serializers.Serializer):  # type: ignore[type-arg]
    stage = serializers.IntegerField()
    round = serializers.IntegerField(help_text="The round's number in its stage.")
    fixture = serializers.IntegerField()


@extend_schema_serializer(deprecate_fields=["a", "b"])
class FixtureBody(DeliveryBody, _FixturePlace, PublishedFixture):
    """A fixture of a published round, as it is now (``match.made``, ``fixture.filled``)."""


class RoundPublishedBody(DeliveryBody):
    stage = serializers.IntegerField()
    round = serializers.IntegerField(help_text="The round's number in its stage.")
    name = serializers.CharField()
    fixtures = PublishedFixture(many=True)


class RoundUnpublishedBody(DeliveryBody):
    stage = serializers.IntegerField()
    round = serializers.IntegerField(help_text="The round's number in its stage.")
    name = serializers.CharField()
    called_off = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The matches called off (a bracket is taken back whole: every round's).",
    )


class StandingsChangedBody(DeliveryBody):
    stage = serializers.IntegerField()
    rounds = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The rounds whose tables changed (0: the seeding).",
    )
    as_of_round = serializers.IntegerField(
        help_text="The last of them: the table is as of it (a webhook's ``rows``; a results "
        "log entry carries no table: GET /stages/{id}/standings/?round=as_of_round)."
    )
    rows = StandingRowSerializer(
        many=True, help_text="The table, as GET /stages/{id}/standings/?round=as_of_round gives it."
    )


class TournamentChangedBody(DeliveryBody):
    name = serializers.CharField()
    slug = serializers.CharField(help_text="Its address: /t/<slug>/.")
    published = serializers.BooleanField()
    date = serializers.DateField(allow_null=True)
    place = serializers.CharField(allow_null=True)


class TeamChangedBody(DeliveryBody):
    team = TeamRef(help_text="The team as it is now.")
    change = serializers.ChoiceField(choices=list(TEAM_CHANGES), help_text="What became of it.")
    checked_in = serializers.BooleanField()
    withdrawn = serializers.BooleanField()


def _webhook(kind: str, body: type[serializers.Serializer], what: str) -> OpenApiWebhook:  # type: ignore[type-arg]
    responses: dict[int, Any] = {200: None}
    return OpenApiWebhook(
        name=kind,
        decorator=extend_schema(
            summary=what,
            description="Signed: Seep-Signature (docs/api.md, Webhooks). Any 2xx is success.",
            request=body,
            responses=responses,
        ),
    )


MATCH_COMPLETED = _webhook("match.completed", MatchCompletedBody, "A match is over.")
DEAL_RECORDED = _webhook("deal.recorded", DealRecordedBody, "A deal's result counted.")
DEAL_CORRECTED = _webhook(
    "deal.corrected", DealCorrectedBody, "A recorded deal's result was corrected."
)
DEAL_VOIDED = _webhook("deal.voided", DealVoidedBody, "A recorded deal was voided.")
MATCH_REOPENED = _webhook(
    "match.reopened", MatchReopenedBody, "A completed match was reopened by a correction."
)
MATCH_MADE = _webhook("match.made", FixtureBody, "A fixture's match was made.")
FIXTURE_FILLED = _webhook("fixture.filled", FixtureBody, "A fixture's sides were filled.")
ROUND_PUBLISHED = _webhook("round.published", RoundPublishedBody, "A round was published.")
ROUND_UNPUBLISHED = _webhook(
    "round.unpublished", RoundUnpublishedBody, "A published round was taken back."
)
STANDINGS_CHANGED = _webhook(
    "standings.changed", StandingsChangedBody, "A stage's standings changed."
)
TOURNAMENT_CHANGED = _webhook(
    "tournament.changed", TournamentChangedBody, "The tournament's name, address or date changed."
)
TEAM_CHANGED = _webhook(
    "team.changed", TeamChangedBody, "A team was registered, renamed, checked in or withdrawn."
)


# --- the results log's entries: the same bodies, numbered -----------------------------------


def _entry(
    name: str,
    body: type[serializers.Serializer],  # type: ignore[type-arg]
    leave_out: tuple[str, ...] = (),
    deprecated: tuple[str, ...] = (),
) -> Any:
    """A results log entry of a kind: its ``seq``, then the kind's delivery body (without the
    delivery's ``id``, and without ``leave_out``; ``deprecated`` marked so, as in the body)."""
    fields: dict[str, Any] = {
        "seq": serializers.IntegerField(help_text="Its place in the tournament's results log."),
    }
    for field_name, field in body._declared_fields.items():  # unbound: copied as DRF does
        if field_name not in ("id", "seq") and field_name not in leave_out:
            fields[field_name] = copy.deepcopy(field)
    # the discriminator (the webhooks' kinds are an enum of their own)
    fields["kind"] = serializers.CharField(help_text="What happened: the webhook's kind.")
    entry = type(name, (serializers.Serializer,), fields)
    return (
        extend_schema_serializer(deprecate_fields=list(deprecated))(entry) if deprecated else entry
    )


RESULT_ENTRIES = {
    "match.completed": _entry(
        "MatchCompletedEntry", MatchCompletedBody, deprecated=("teams", "winner")
    ),
    "deal.recorded": _entry("DealRecordedEntry", DealRecordedBody),
    "deal.corrected": _entry("DealCorrectedEntry", DealCorrectedBody),
    "deal.voided": _entry("DealVoidedEntry", DealVoidedBody),
    "match.reopened": _entry("MatchReopenedEntry", MatchReopenedBody),
    "match.made": _entry("MatchMadeEntry", FixtureBody, deprecated=("a", "b")),
    "fixture.filled": _entry("FixtureFilledEntry", FixtureBody, deprecated=("a", "b")),
    "round.published": _entry("RoundPublishedEntry", RoundPublishedBody),
    "round.unpublished": _entry("RoundUnpublishedEntry", RoundUnpublishedBody),
    # the table is one GET away (GET /stages/{id}/standings/?round=as_of_round)
    "standings.changed": _entry("StandingsChangedEntry", StandingsChangedBody, ("rows",)),
    "tournament.changed": _entry("TournamentChangedEntry", TournamentChangedBody),
    "team.changed": _entry("TeamChangedEntry", TeamChangedBody),
}
