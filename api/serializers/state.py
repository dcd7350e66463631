"""The shape of ``GET /matches/{id}/state/`` (tournaments.selectors.match_position), for the
schema: the position as the caller may see it, and their legal moves."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from ._common import WINNER_SIDE


class StateEntrySerializer(serializers.Serializer[Any]):
    """A deal's result entered and not yet counted, with the result's own fields."""

    entry = serializers.IntegerField(help_text="The entry's number in the deal.")
    side = serializers.IntegerField(help_text="The side that entered it (0 or 1).")
    by = serializers.CharField(help_text="Who entered it (the log's actor).")


class StateProgressSerializer(serializers.Serializer[Any]):
    """Where a match stands: deals, bazzis, whether it is over and who won."""

    dealer = serializers.IntegerField(help_text="The seat (0-3) that deals next.")
    deals = serializers.IntegerField(help_text="Deals played.")
    difference = serializers.IntegerField(help_text="Side 0's points less side 1's, this bazzi.")
    bazzis = serializers.ListField(
        child=serializers.IntegerField(), help_text="Bazzis won by side 0 and side 1."
    )
    over = serializers.BooleanField()
    winner_side = serializers.IntegerField(allow_null=True, help_text=WINNER_SIDE)
    winner = serializers.IntegerField(allow_null=True, help_text="Deprecated: winner_side.")


class MatchStateSerializer(serializers.Serializer[Any]):
    """The position as the caller may see it, and their legal moves."""

    match = serializers.IntegerField()
    status = serializers.CharField(help_text="The match's status, as its log says.")
    mode = serializers.CharField(help_text="digital, score or table.")
    last_seq = serializers.IntegerField(help_text="The seq of the log's last event.")
    deal = serializers.IntegerField(allow_null=True, help_text="The deal in play's number.")
    seat = serializers.IntegerField(
        allow_null=True, help_text="The caller's seat (0-3) the position is shown to, or null."
    )
    position = serializers.DictField(
        allow_null=True,
        help_text="The deal as the caller may see it (a card they may not see is null; a "
        "director sees every card), or null between deals.",
    )
    legal_moves = serializers.ListField(
        child=serializers.DictField(),
        allow_null=True,
        help_text="The moves the caller may play now (their seat is to play), else null.",
    )
    confirmation = serializers.CharField(
        help_text="Who confirms a deal's entered result (score mode), or none."
    )
    entries = StateEntrySerializer(
        many=True,
        help_text="The next deal's entered results awaiting an answer, each with its fields "
        "as entered (provisional: they count once confirmed).",
    )
    disputed = serializers.BooleanField(help_text="Whether the entries disagree (a director's).")
    progress = StateProgressSerializer(
        allow_null=True, help_text="Where the match stands, or null."
    )
