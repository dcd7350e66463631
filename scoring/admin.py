"""The admin shows the scoring read models, read-only: they are rebuilt from the logs, never edited.

``match_scoresheet`` puts a match's result and its deals, deal by deal, on the match's own
admin page: this app replaces the store's ``MatchAdmin`` with one that shows it (the store
knows nothing of scoring).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from tournaments.admin import MatchAdmin
from tournaments.admin_base import ReadOnlyAdmin, tournament_filter
from tournaments.models import Match

from .models import DealResult, MatchResult


def _team(match: Match, team: int | None) -> str:
    if team is None:
        return "-"
    return str(match.team0 if team == 0 else match.team1)


def _pair(a: Any, b: Any) -> str:
    return f"{a} - {b}"


def _sweeps(values: list[int]) -> str:
    return " + ".join(str(v) for v in values) or "0"


def _pair_column(name: str, description: str) -> Any:
    """Return an admin column showing the two teams' ``name`` (``name0 - name1``)."""

    @admin.display(description=description)
    def column(self: Any, row: DealResult | MatchResult) -> str:
        return _pair(getattr(row, f"{name}0"), getattr(row, f"{name}1"))

    return column


class _DealColumns:
    """Deal columns in the game's words, with the teams' names."""

    points = _pair_column("points", "card points")
    totals = _pair_column("total", "totals")
    bazzis = _pair_column("bazzis", "bazzis after")

    @admin.display(description="sweeps")
    def sweeps(self, deal: DealResult) -> str:
        return _pair(_sweeps(deal.sweeps0), _sweeps(deal.sweeps1))

    @admin.display(description="bazzi won by")
    def bazzi_won_by(self, deal: DealResult) -> str:
        if deal.bazzi is None:
            return "-"
        return f"{_team(deal.match, deal.bazzi)} ({deal.get_reason_display()})"


DEAL_COLUMNS = (
    "deal", "dealer", "points", "sweeps", "totals", "difference", "running_difference", "reset",
    "bazzi_won_by", "bazzis", "seq",
)  # fmt: skip
MATCH_COLUMNS = (
    "bazzis", "difference", "deals", "next_dealer", "over", "winning_team", "draw",
    "completed_at", "seq", "updated_at",
)  # fmt: skip


class _MatchColumns:
    bazzis = _pair_column("bazzis", "bazzis")

    @admin.display(description="winner")
    def winning_team(self, result: MatchResult) -> str:
        return _team(result.match, result.winner)


SCORESHEET_HEAD = (
    "deal", "dealer", "card points", "sweeps", "totals", "difference", "running difference",
    "bazzi", "bazzis after",
)  # fmt: skip


def match_scoresheet(match: Match) -> SafeString:
    """Return the match's result and its deals, deal by deal, as an HTML table (read-only).

    Scores read "team 0 - team 1"; differences are team 0 minus team 1. Shown on the match's
    admin page (``ScoredMatchAdmin``) as a read-only field, so the match's own form posts
    nothing for it.
    """
    result = MatchResult.objects.filter(match=match).first() if match.pk else None
    if result is None:
        return format_html("<p>{}</p>", "Not projected yet (no events, or a worker has work).")
    columns = _DealColumns()
    deals = DealResult.objects.filter(match=match).select_related("match__team0", "match__team1")
    if result.over:
        outcome = "a draw" if result.winner is None else f"won by {_team(match, result.winner)}"
    else:
        outcome = f"in progress, next dealer: seat {result.next_dealer}"
    behind = f" (the log is at event {match.last_seq})" if result.seq < match.last_seq else ""
    summary = format_html(
        "<p><strong>{} v {}</strong>: {}; bazzis {}, running difference {}, {} deal(s) "
        "scored; projected to event {}{}.</p>",
        match.team0,
        match.team1,
        outcome,
        _pair(result.bazzis0, result.bazzis1),
        result.difference,
        result.deals,
        result.seq,
        behind,
    )
    head = format_html_join("", "<th>{}</th>", ((name,) for name in SCORESHEET_HEAD))
    rows = format_html_join(
        "\n",
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
        "<td>{}</td><td>{}</td></tr>",
        (
            (
                d.deal,
                d.dealer,
                columns.points(d),
                columns.sweeps(d),
                columns.totals(d),
                d.difference,
                d.running_difference,
                columns.bazzi_won_by(d),
                columns.bazzis(d),
            )
            for d in deals
        ),
    )
    return format_html(
        '{}<table class="scoresheet"><thead><tr>{}</tr></thead><tbody>{}</tbody></table>',
        summary,
        head,
        rows,
    )


@admin.register(MatchResult)
class MatchResultAdmin(_MatchColumns, ReadOnlyAdmin):
    list_display = (
        "match", "bazzis", "difference", "deals", "over", "winning_team", "draw",
        "completed_at", "seq", "log_head", "deal_list",
    )  # fmt: skip
    list_filter = ("over", "draw", tournament_filter("match__tournament"))
    list_select_related = ("match__team0", "match__team1")
    ordering = ("match",)
    fields = ("match", *MATCH_COLUMNS)

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
class DealResultAdmin(_DealColumns, ReadOnlyAdmin):
    list_display = ("match", *DEAL_COLUMNS)
    list_filter = (
        "reset", "reason", tournament_filter("match__tournament"), tournament_filter("match")
    )  # fmt: skip
    list_select_related = ("match__team0", "match__team1")
    search_fields = ("match__team0__name", "match__team1__name")
    ordering = ("match", "deal")
    fields = ("match", *DEAL_COLUMNS)


class ScoredMatchAdmin(MatchAdmin):
    """The store's match page, with the match's result and deals as scoring computes them."""

    readonly_fields = (*MatchAdmin.readonly_fields, "scoresheet")

    @admin.display(description="result and deals")
    def scoresheet(self, match: Match) -> SafeString:
        """The scoring projection of the match's log: its result and deals, deal by deal."""
        return match_scoresheet(match)


admin.site.unregister(Match)
admin.site.register(Match, ScoredMatchAdmin)
