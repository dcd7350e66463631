"""A tournament's tables as CSV files, linked beside them on its page: a stage's standings,
the results (a row a match) and the deals (a row a deal, never a card): ``competition.exports``
writes them; who may see the page may download them, anyone else gets 404."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from competition import exports
from competition.models import Stage
from tournaments.reads import consistent_read

from .common import visible_tournament


def csv_response(table: exports.Table) -> HttpResponse:
    """Return the table as a CSV file to download (UTF-8 with its byte-order mark)."""
    response = HttpResponse(table.text(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{table.name}.csv"'
    response["Cache-Control"] = "private, no-cache"
    return response


@require_GET
def standings_csv(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The stage's standings as its page shows them (the latest), as CSV."""
    t = visible_tournament(request, slug)
    stage = Stage.objects.filter(tournament=t, pk=pk).select_related("tournament").first()
    if stage is None:
        raise Http404("no such stage")
    with consistent_read():
        return csv_response(exports.standings(stage=stage))


@require_GET
def matches_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's results, a row a match, as CSV."""
    t = visible_tournament(request, slug)
    with consistent_read():
        return csv_response(exports.matches(tournament=t))


@require_GET
def deals_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's recorded deals, a row a deal (points, sweeps, bazzis; no card), as CSV."""
    t = visible_tournament(request, slug)
    with consistent_read():
        return csv_response(exports.deals(tournament=t))
