"""An API token's shape (its scope, a tournament or a club; its secret, shown once), and a
renewal's body."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.access import directed_clubs
from tournaments.models import ID_LIMIT

from ..models import ApiToken
from ._common import Strict, StrictModel, VisibleTournament


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


class TokenRenewSerializer(Strict):
    """A renewal's body: how long the renewed token lasts from now."""

    expires_in_days = serializers.IntegerField(
        min_value=1,
        max_value=366,
        default=30,
        help_text="Days it lasts from now (a token made by a token: no longer than that token).",
    )
