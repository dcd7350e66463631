"""A stage's rounds: pairing the next one as a draft, editing the draft, publishing it."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from competition import services as competition
from competition.models import Round, Stage

from ..access import (
    directed_tournaments,
    get_directed,
    get_or_404,
    get_visible,
    require_director,
    signed_in,
    token_of,
    visible,
)
from ..serializers import rounds as s
from ._common import ERRORS, listed, paginate, refuse_unknown


def _rounds(request: Request) -> QuerySet[Round]:
    """The rounds the caller may see: drafts only in tournaments they direct."""
    rounds = visible(request, Round.objects.select_related("stage"), "stage__tournament")
    if not signed_in(request):
        return rounds.exclude(status=Round.Status.DRAFT)
    if request.user.is_superuser and token_of(request) is None:
        return rounds
    directed = directed_tournaments(request)
    return rounds.filter(~Q(status=Round.Status.DRAFT) | Q(stage__tournament__in=directed))


def _round_data(round_: Round) -> Any:
    fresh = Round.objects.prefetch_related("fixtures__team_a", "fixtures__team_b").get(pk=round_.pk)
    return s.RoundSerializer(fresh).data


def _directed_round(request: Request, pk: int) -> Round:
    """The round with this id if the caller sees it (else 404) and directs its tournament."""
    round_: Round = get_or_404(_rounds(request).select_related("stage__tournament"), pk)
    require_director(request, round_.stage.tournament)
    return round_


class StageRounds(APIView):
    @listed(s.RoundSerializer, "stage_rounds_list")
    def get(self, request: Request, pk: int) -> Response:
        stage = get_visible(request, Stage.objects.all(), pk)
        rounds = (
            _rounds(request)
            .filter(stage=stage)
            .prefetch_related("fixtures__team_a", "fixtures__team_b")
            .order_by("number")
        )
        return paginate(self, request, rounds, lambda r: s.RoundSerializer(r).data)

    @extend_schema(
        request=None,
        responses={201: s.RoundSerializer, **ERRORS},
        summary="Pair the stage's next round, as a draft",
    )
    def post(self, request: Request, pk: int) -> Response:
        refuse_unknown(request)
        stage = get_directed(request, Stage.objects.all(), pk)
        round_ = competition.round_pair(actor=request.user, stage=stage)
        return Response(_round_data(round_), status=status.HTTP_201_CREATED)


class RoundDetail(APIView):
    @extend_schema(responses={200: s.RoundSerializer, **ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        return Response(_round_data(get_or_404(_rounds(request), pk)))

    @extend_schema(
        request=s.RoundEditSerializer,
        responses={
            200: inline_serializer(
                "RoundEdited",
                {
                    "round": s.RoundSerializer(),
                    "problems": serializers.ListField(child=serializers.CharField()),
                },
            ),
            **ERRORS,
        },
        summary="Edit a draft round: swap two teams or two tables",
    )
    def patch(self, request: Request, pk: int) -> Response:
        round_ = _directed_round(request, pk)
        edit = s.RoundEditSerializer(data=request.data)
        edit.is_valid(raise_exception=True)
        values = edit.validated_data
        problems = competition.round_edit(
            actor=request.user,
            round=round_,
            swap_teams=tuple(values["swap_teams"]) if "swap_teams" in values else None,
            swap_tables=tuple(values["swap_tables"]) if "swap_tables" in values else None,
            force=values["force"],
        )
        return Response({"round": _round_data(round_), "problems": problems})


class RoundPublish(APIView):
    @extend_schema(request=None, responses={200: s.RoundSerializer, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        refuse_unknown(request)
        round_ = _directed_round(request, pk)
        competition.round_publish(actor=request.user, round=round_)
        return Response(_round_data(round_))


class RoundUnpublish(APIView):
    @extend_schema(request=None, responses={200: s.RoundSerializer, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        """Take a published round back to a draft while nothing is recorded in it (a
        bracket: the whole bracket): its matches are called off (status ``called_off``)."""
        refuse_unknown(request)
        round_ = _directed_round(request, pk)
        draft = competition.round_unpublish(actor=request.user, round=round_)
        return Response(_round_data(draft))
