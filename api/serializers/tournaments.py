"""A tournament's shape (its club, its directors, its rules and match format)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.models import Tournament

from ..accounts import AccountsField
from ._common import StrictModel, UserRef


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
            "date",
            "created_at",
        ]
        read_only_fields = ["id", "organizer", "created_at"]
        # a taken slug is refused by the model's check and constraints (the view's
        # full_clean), in the one wording of tournaments.models.slug_taken: only a published
        # tournament's slug, or one of the same club's, is taken; another club's private one is
        # not. So no validator of DRF's own for those constraints (it words them otherwise).
        validators: list[Any] = []
        extra_kwargs: dict[str, dict[str, Any]] = {
            "date": {
                "help_text": "The day it is played (null: undated). A club's evening with a date "
                "is rated and counted on its ladders on that date, its matches in the order they "
                "ended; an undated one, on the club's date (its time zone) each match ended "
                "(docs/seasons.md)."
            },
            "slug": {
                "validators": [],
                "help_text": "Its address, /t/<slug>/ (left out: made from the name). The "
                "site's once it is published, its club's before: refused (400) if a published "
                "tournament or another of its club holds it, and publishing is refused while "
                "a published one holds it; another club's private tournament never counts.",
            },
        }
