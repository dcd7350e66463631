"""A team's shape: its two players, its rating and seed, where it plays once checked in."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.models import ID_LIMIT, INTEGER_MAX, INTEGER_MIN, Team

from ..accounts import AccountField
from ._common import Strict


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


#: a team's players as a token names them, and their index (0: first, 1: second)
PLAYERS = {"first": 0, "second": 1}


class TeamTokenRequest(Strict):
    """The body of ``POST /teams/{id}/token/``: how long the token lasts, and the player it
    is bound to, if any (nothing else)."""

    expires_in_days = serializers.IntegerField(
        min_value=1, max_value=30, default=1, help_text="How long it lasts, in days: 1 to 30."
    )
    player = serializers.ChoiceField(
        choices=list(PLAYERS),
        required=False,
        help_text="Bind the token to the team's first or second player (a bot for one seat): "
        "it sees that player's hand and legal moves in a digital match's state/ and plays "
        "only their seat, which it holds as a phone would. Left out: the team's token.",
    )
