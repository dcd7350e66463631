"""The admin shows a tournament's stages, rounds, fixtures and standings to its directors.

Stages are set up here while pending; rounds are paired, edited and published through the
services (the API, the director's desk), so fixtures and standings are read-only here.
"""

from __future__ import annotations

from django.contrib import admin

from tournaments.admin_base import ReadOnlyAdmin, TournamentScopedAdmin, tournament_filter

from .models import Fixture, Notice, Registration, Round, Stage, StandingRow


@admin.register(Registration)
class RegistrationAdmin(TournamentScopedAdmin):
    list_display = ("team", "tournament", "seed", "rating", "checked_in_at", "withdrawn_at")
    list_filter = (tournament_filter("tournament"),)
    list_select_related = ("team", "tournament")
    readonly_fields = ("team", "tournament", "registered_at")


@admin.register(Stage)
class StageAdmin(TournamentScopedAdmin):
    list_display = ("name", "tournament", "order", "format", "mode", "status")
    list_filter = ("format", "status", tournament_filter("tournament"))
    list_select_related = ("tournament",)
    filter_horizontal = ("scorekeepers",)
    readonly_fields = ("status", "started_at", "completed_at", "seeding_seed")


class _StageRowAdmin(ReadOnlyAdmin):
    tournament_path = "stage__tournament"


@admin.register(Round)
class RoundAdmin(_StageRowAdmin):
    list_display = ("__str__", "stage", "number", "status", "published_at", "completed_at")
    list_filter = ("status", tournament_filter("stage__tournament"))
    list_select_related = ("stage__tournament",)


@admin.register(Fixture)
class FixtureAdmin(_StageRowAdmin):
    list_display = ("__str__", "stage", "table", "key", "result", "match")
    list_filter = ("result", tournament_filter("stage__tournament"))
    list_select_related = ("stage__tournament", "round", "team_a", "team_b")
    exclude = ("terms",)


@admin.register(StandingRow)
class StandingRowAdmin(_StageRowAdmin):
    list_display = ("stage", "as_of_round", "group", "rank", "team", "points", "played",
                    "won", "drawn", "lost", "byes")  # fmt: skip
    list_filter = (tournament_filter("stage__tournament"), tournament_filter("stage"))
    list_select_related = ("stage__tournament", "team")


@admin.register(Notice)
class NoticeAdmin(_StageRowAdmin):
    """What the competition could not settle by itself; resolved on the director's desk."""

    list_display = ("created_at", "stage", "fixture", "code", "message", "resolved_at")
    list_filter = ("code", tournament_filter("stage__tournament"))
    list_select_related = ("stage__tournament", "fixture__round")
