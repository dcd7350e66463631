"""A tournament's tables as CSV (``competition.exports``): a stage's standings, the results a
row a match, the deals a row a deal (never a card), each at an explicit ``.csv`` path beside
the JSON resource it comes from, and seen by whoever may see that resource (else 404, as for
an id that does not exist). A refusal is ``application/problem+json``, as everywhere."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.views import APIView

from competition import exports
from competition.models import Stage
from tournaments.models import Tournament
from tournaments.reads import consistent_read

from ..access import get_visible
from ..pagination import int_param
from ._common import ERRORS


class CsvAccepted(JSONRenderer):
    """What makes ``Accept: text/csv`` acceptable to DRF's content negotiation: the files are
    written by ``competition.exports``, not rendered by DRF; a refusal is, as JSON (under
    ``application/problem+json``) whatever the Accept."""

    media_type = "text/csv"
    format = "csv"


CSV = OpenApiResponse(
    response=OpenApiTypes.STR,
    description="text/csv; charset=utf-8, UTF-8 with a byte-order mark, CRLF line ends; a text "
    "cell a spreadsheet would run as a formula starts with '",
)


def csv_response(table: exports.Table) -> HttpResponse:
    response = HttpResponse(table.text(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{table.name}.csv"'
    response["Cache-Control"] = "private, no-cache"
    response["Vary"] = "Authorization, Cookie"
    return response


class CsvView(APIView):
    renderer_classes = [JSONRenderer, CsvAccepted]


#: DRF's ``?format=`` picks a renderer, which a file written here does not go through
NO_FORMAT = OpenApiParameter("format", exclude=True)


class StageStandingsCsv(CsvView):
    """A stage's standings as CSV: a row a team."""

    @extend_schema(
        parameters=[
            NO_FORMAT,
            OpenApiParameter(
                "round",
                int,
                description="As of the round with this number in the stage (0: before the first "
                "round). Default: the latest",
            ),
        ],
        responses={(200, "text/csv"): CSV, **ERRORS},
        operation_id="stages_standings_csv",
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        asked = int_param(request, "round", -1, low=0, high=10_000)
        stage = get_visible(request, Stage.objects.all(), pk)
        with consistent_read():
            return csv_response(
                exports.standings(stage=stage, as_of_round=None if asked == -1 else asked)
            )


class TournamentCsv(CsvView):
    # a table of one tournament (``table``, of ``competition.exports``), seen by whoever may
    # see the tournament; no docstring of its own: each table's view describes itself
    table: ClassVar[Callable[..., exports.Table]]

    def get(self, request: Request, pk: int) -> HttpResponse:
        tournament = get_visible(request, Tournament.objects.all(), pk, "")
        with consistent_read():
            return csv_response(type(self).table(tournament=tournament))


def _tournament_csv(operation_id: str) -> Any:
    return extend_schema_view(
        get=extend_schema(
            parameters=[NO_FORMAT],
            responses={(200, "text/csv"): CSV, **ERRORS},
            operation_id=operation_id,
        )
    )


@_tournament_csv("tournaments_matches_csv")
class TournamentMatchesCsv(TournamentCsv):
    """A tournament's results as CSV: a row a match."""

    table = exports.matches


@_tournament_csv("tournaments_deals_csv")
class TournamentDealsCsv(TournamentCsv):
    """A tournament's recorded deals as CSV: a row a deal (points, sweeps, bazzis; no card)."""

    table = exports.deals
