"""A stage's shapes: the stage, starting it, the ties at its cut, and a knockout's bracket."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from competition import formats
from competition import services as competition_services
from competition.models import Stage
from tournaments.models import ID_LIMIT

from ..accounts import AccountsField
from ._common import FIXTURE_RESULT, WINNER_SIDE, Strict, StrictModel, TeamRef, sides_field
from .rounds import LOSER_TO, WINNER_TO


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
    winner_to = serializers.CharField(allow_null=True, help_text=WINNER_TO)
    loser_to = serializers.CharField(allow_null=True, help_text=LOSER_TO)


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
