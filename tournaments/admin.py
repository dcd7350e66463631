"""The admin: staff edit tournaments, players, teams and matches; match history is read-only.

Events and snapshots can be read here but never added, changed or deleted (the database
refuses it anyway). An event's payload is shown only through ``selectors.render_event``,
which hides what the viewer may not see (a deal's deck until the deal is over).
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.safestring import SafeString

from scoring.admin import match_scoresheet

from .models import Match, MatchEvent, MatchSnapshot, Player, Team, Tournament
from .readonly_admin import ReadOnlyAdmin
from .selectors import render_event


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "organizer", "created_at")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    raw_id_fields = ("organizer",)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "user")
    search_fields = ("name", "user__username")
    raw_id_fields = ("user",)


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ("name", "tournament", "first_player", "second_player")
    list_filter = ("tournament",)
    list_select_related = ("tournament", "first_player", "second_player")
    search_fields = ("name", "first_player__name", "second_player__name")
    raw_id_fields = ("first_player", "second_player")


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("__str__", "tournament", "mode", "status", "last_seq", "created_at")
    list_filter = ("status", "mode", "tournament")
    list_select_related = ("tournament", "team0", "team1")
    filter_horizontal = ("scorekeepers",)
    readonly_fields = ("rules", "status", "last_seq", "last_hash", "created_at", "scoresheet")

    def get_readonly_fields(self, request: HttpRequest, obj: Match | None = None) -> Any:
        """Return what staff may not edit: the history's head always; the setup once started."""
        fields = list(self.readonly_fields)
        if obj is not None:
            fields.append("tournament")
            if obj.status != Match.Status.SCHEDULED:
                fields += ["team0", "team1", "mode", "match_format", "first_dealer"]
        return fields

    @admin.display(description="result and deals")
    def scoresheet(self, match: Match) -> SafeString:
        """The scoring projection of the match's log: its result and deals, deal by deal."""
        return match_scoresheet(match)


@admin.register(MatchEvent)
class MatchEventAdmin(ReadOnlyAdmin):
    list_display = ("match", "seq", "kind", "actor", "recorded_at", "caused_by")
    list_filter = ("kind", "match__tournament")
    list_select_related = ("match__team0", "match__team1", "actor")
    ordering = ("match", "seq")
    # The raw payload is never shown: a deal_started payload holds the deck.
    fields = (
        "match",
        "seq",
        "kind",
        "shown_payload",
        "actor",
        "recorded_at",
        "idempotency_key",
        "request_digest",
        "caused_by",
        "hash",
    )

    def get_object(
        self, request: HttpRequest, object_id: str, from_field: str | None = None
    ) -> MatchEvent | None:
        event = super().get_object(request, object_id, from_field)
        if event is not None:
            # A display method sees only the row; remember who is looking at it.
            event._admin_viewer = request.user  # type: ignore[attr-defined]
        return event

    @admin.display(description="payload")
    def shown_payload(self, event: MatchEvent) -> SafeString:
        """Return the event as ``render_event`` shows it to the viewer, as indented JSON."""
        shown = render_event(event, getattr(event, "_admin_viewer", None))
        return format_html(
            "<pre>{}</pre>", json.dumps(shown, indent=2, ensure_ascii=False, default=str)
        )


@admin.register(MatchSnapshot)
class MatchSnapshotAdmin(ReadOnlyAdmin):
    list_display = ("match", "seq", "updated_at")
    list_select_related = ("match__team0", "match__team1")
    ordering = ("match", "seq")
    # Not the state: it holds every seat's unplayed cards. It is a cache anyway, rebuilt
    # from the events, which render_event shows safely.
    fields = ("match", "seq", "updated_at")
