"""What a tournament's directors must settle: the open notices, the disputed deals."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from competition import selectors as competition_selectors
from competition import services as competition
from competition.models import Notice
from tournaments import selectors as store
from tournaments.models import Tournament

from ..access import get_directed
from ..serializers import notices as s
from ._common import ERRORS, refuse_unknown


class ToSettle(APIView):
    # What a tournament's directors must settle, of one kind (no docstring: the schema would
    # take it for each list's description): ``unsettled`` lists it, ``shape`` shows each
    # (set by ``_settled_by``).
    unsettled: Callable[..., Iterable[Any]]
    shape: type[serializers.Serializer]  # type: ignore[type-arg]

    def get(self, request: Request, pk: int) -> Response:
        tournament = get_directed(request, Tournament.objects.all(), pk, "")
        found = type(self).unsettled(tournament_id=tournament.pk)
        return Response(self.shape(found, many=True).data)


def _settled_by(
    shape: type[serializers.Serializer],  # type: ignore[type-arg]
    summary: str,
) -> Callable[[type[ToSettle]], type[ToSettle]]:
    """Return a decorator of a ``ToSettle`` view: it shows each by ``shape``, and its schema
    says so."""

    def decorate(view: type[ToSettle]) -> type[ToSettle]:
        view.shape = shape
        schema = extend_schema(responses={200: shape(many=True), **ERRORS}, summary=summary)
        return extend_schema_view(get=schema)(view)

    return decorate


@_settled_by(s.NoticeSerializer, "What the competition could not settle by itself (directors)")
class TournamentNotices(ToSettle):
    unsettled = staticmethod(competition_selectors.open_notices)


@_settled_by(
    s.DisputeSerializer,
    "Deals awaiting a director: rejected entries, both sides' differing entries",
)
class TournamentDisputes(ToSettle):
    unsettled = staticmethod(store.disputed_deals)


class NoticeResolve(APIView):
    @extend_schema(request=None, responses={200: s.NoticeSerializer, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        refuse_unknown(request)
        notice = get_directed(request, Notice.objects.all(), pk, "stage__tournament")
        notice = competition.notice_resolve(actor=request.user, notice=notice)
        return Response(s.NoticeSerializer(notice).data)
