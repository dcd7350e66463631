"""The admin shows the scoring read models, read-only: they are rebuilt from the logs, never edited.

``MatchResultInline`` and ``DealResultInline`` put a match's standing and its deals, deal by
deal, on the match's own admin page (``tournaments.admin.MatchAdmin``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from tournaments.models import Match

from .models import DealResult, MatchResult


def _team(match: Match, team: int | None) -> str:
    if team is None:
        return "-"
    return str(match.team0 if team == 0 else match.team1)


def _pair(a: Any, b: Any) -> str:
    return f"{a} - {b}"


def _sweeps(values: list[int]) -> str:
    return " + ".join(str(v) for v in values) or "-"


class _ReadOnly:
    """Shows rows; never adds, changes or deletes them (mixed into admins and inlines)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class _DealColumns:
    """Deal columns in the game's words, with the teams' names."""

    @admin.display(description="card points")
    def points(self, deal: DealResult) -> str:
        return _pair(deal.points0, deal.points1)

    @admin.display(description="sweeps")
    def sweeps(self, deal: DealResult) -> str:
        return _pair(_sweeps(deal.sweeps0), _sweeps(deal.sweeps1))

    @admin.display(description="totals")
    def totals(self, deal: DealResult) -> str:
        return _pair(deal.total0, deal.total1)

    @admin.display(description="bazzi won by")
    def bazzi_won_by(self, deal: DealResult) -> str:
        if deal.bazzi is None:
            return "-"
        return f"{_team(deal.match, deal.bazzi)} ({deal.get_reason_display()})"

    @admin.display(description="bazzis after")
    def bazzis(self, deal: DealResult) -> str:
        return _pair(deal.bazzis0, deal.bazzis1)


DEAL_COLUMNS = (
    "deal", "dealer", "points", "sweeps", "totals", "difference", "running_difference", "reset",
    "bazzi_won_by", "bazzis", "seq",
)  # fmt: skip


class DealResultInline(_ReadOnly, _DealColumns, admin.TabularInline):
    """A match's deals, deal by deal: scores (team 0 - team 1), running difference, bazzis."""

    model = DealResult
    extra = 0
    can_delete = False
    fields = DEAL_COLUMNS
    readonly_fields = DEAL_COLUMNS
    ordering = ("deal",)
    verbose_name = "deal (team 0 - team 1)"
    verbose_name_plural = "deals (team 0 - team 1; difference: team 0 minus team 1)"

    def get_queryset(self, request: HttpRequest) -> QuerySet[DealResult]:
        return super().get_queryset(request).select_related("match__team0", "match__team1")


MATCH_COLUMNS = (
    "bazzis", "difference", "deals", "next_dealer", "over", "winning_team", "draw",
    "completed_at", "seq", "updated_at",
)  # fmt: skip


class _MatchColumns:
    @admin.display(description="bazzis")
    def bazzis(self, result: MatchResult) -> str:
        return _pair(result.bazzis0, result.bazzis1)

    @admin.display(description="winner")
    def winning_team(self, result: MatchResult) -> str:
        return _team(result.match, result.winner)


class MatchResultInline(_ReadOnly, _MatchColumns, admin.StackedInline):
    """The match's standing as far as its log has been projected (``seq``)."""

    model = MatchResult
    extra = 0
    can_delete = False
    fields = MATCH_COLUMNS
    readonly_fields = MATCH_COLUMNS
    verbose_name = verbose_name_plural = "result (team 0 - team 1)"


@admin.register(MatchResult)
class MatchResultAdmin(_ReadOnly, _MatchColumns, admin.ModelAdmin):
    list_display = (
        "match", "bazzis", "difference", "deals", "over", "winning_team", "draw",
        "completed_at", "seq", "log_head", "deal_list",
    )  # fmt: skip
    list_filter = ("over", "draw", "match__tournament")
    list_select_related = ("match__team0", "match__team1")
    ordering = ("match",)
    fields = ("match", *MATCH_COLUMNS)
    readonly_fields = fields

    @admin.display(description="deals")
    def deal_list(self, result: MatchResult) -> SafeString:
        """A link to the match's deals, deal by deal."""
        url = reverse("admin:scoring_dealresult_changelist")
        return format_html('<a href="{}?match__id__exact={}">deal by deal</a>', url, result.pk)

    @admin.display(description="log at")
    def log_head(self, result: MatchResult) -> int:
        """The head of the match's log: ``seq`` behind it means a worker has work to do."""
        return result.match.last_seq


@admin.register(DealResult)
class DealResultAdmin(_ReadOnly, _DealColumns, admin.ModelAdmin):
    list_display = ("match", *DEAL_COLUMNS)
    list_filter = ("reset", "reason", "match__tournament")
    list_select_related = ("match__team0", "match__team1")
    search_fields = ("match__team0__name", "match__team1__name")
    ordering = ("match", "deal")
    fields = ("match", *DEAL_COLUMNS)
    readonly_fields = fields
