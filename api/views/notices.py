"""What a tournament's directors must settle: the open notices, the disputed deals."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from competition import selectors as competition_selectors
from competition import services as competition
from competition.models import Notice
from tournaments import selectors as store
from tournaments.models import Tournament

from ..access import get_visible, require_director
from ..serializers import notices as s
from ._common import ERRORS


class TournamentNotices(APIView):
    @extend_schema(
        responses={200: s.NoticeSerializer(many=True), **ERRORS},
        summary="What the competition could not settle by itself (directors)",
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_visible(request, Tournament.objects.all(), pk, "")
        require_director(request, tournament)
        notices = competition_selectors.open_notices(tournament_id=tournament.pk)
        return Response(s.NoticeSerializer(notices, many=True).data)


class TournamentDisputes(APIView):
    @extend_schema(
        responses={200: s.DisputeSerializer(many=True), **ERRORS},
        summary="Deals awaiting a director: rejected entries, both sides' differing entries",
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_visible(request, Tournament.objects.all(), pk, "")
        require_director(request, tournament)
        disputes = store.disputed_deals(tournament_id=tournament.pk)
        return Response(s.DisputeSerializer(disputes, many=True).data)


class NoticeResolve(APIView):
    @extend_schema(request=None, responses={200: s.NoticeSerializer, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        notice = get_visible(request, Notice.objects.all(), pk, "stage__tournament")
        require_director(request, notice.stage.tournament)
        notice = competition.notice_resolve(actor=request.user, notice=notice)
        return Response(s.NoticeSerializer(notice).data)
