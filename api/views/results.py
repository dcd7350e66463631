"""A tournament's results log, a page at a time from a seq (api/results.py); the push process
streams it (api/stream.py)."""

from __future__ import annotations

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.models import Tournament

from .. import results
from ..access import get_visible
from ..pagination import int_param
from ..webhook_bodies import RESULT_ENTRIES
from ._common import ERRORS
from .events import SEQ_PAGE_PARAMETERS, seq_page


class TournamentResults(APIView):
    @extend_schema(
        parameters=SEQ_PAGE_PARAMETERS,
        responses={
            200: seq_page(
                "ResultPage",
                lambda many: PolymorphicProxySerializer(
                    component_name="ResultEntry",
                    serializers=RESULT_ENTRIES,
                    resource_type_field_name="kind",
                    many=many,
                ),
            ),
            **ERRORS,
        },
    )
    def get(self, request: Request, pk: int) -> Response:
        """The tournament's results log after ``?after=`` (its seq), at most ``?limit=``: what
        its webhooks tell, numbered in the order it was committed (docs/api.md, "The stream")."""
        tournament = get_visible(request, Tournament.objects.all(), pk, "")
        after = int_param(request, "after", 0, low=0, high=2**31)
        limit = int_param(request, "limit", 100, low=1, high=500)
        rows = results.entries(tournament.pk, after, limit)
        # read after the rows: an entry committed in between is then within the head
        last = max(results.head(tournament.pk), rows[-1]["seq"] if rows else 0)
        following = None
        if len(rows) == limit and rows[-1]["seq"] < last:
            following = request.build_absolute_uri(
                f"{request.path}?after={rows[-1]['seq']}&limit={limit}"
            )
        return Response({"results": rows, "next": following, "last_seq": last})
