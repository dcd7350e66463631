"""A tournament's stages: creating, editing and starting one, the ties at its cut, and a
knockout's bracket."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from competition import selectors as competition_selectors
from competition import services as competition
from competition.models import Fixture, Stage
from tournaments.models import Tournament

from ..access import directs, get_directed, get_visible
from ..accounts import people
from ..problems import Problem
from ..serializers import stages as s
from ._common import ERRORS, conditional, listed, paginate


def _stage_values(data: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    values = dict(data)
    return values, values.pop("scorekeepers", None)


class TournamentStages(APIView):
    @listed(s.StageSerializer, "tournament_stages_list")
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_visible(request, Tournament.objects.all(), pk, "")
        stages = Stage.objects.filter(tournament=tournament).prefetch_related("scorekeepers")
        return paginate(
            self, request, stages.order_by("order"), lambda st: s.StageSerializer(st).data
        )

    @extend_schema(request=s.StageSerializer, responses={201: s.StageSerializer, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        tournament = get_directed(request, Tournament.objects.all(), pk, "")
        data = s.StageSerializer(data=request.data, context=people(request, tournament=tournament))
        data.is_valid(raise_exception=True)
        values, scorekeepers = _stage_values(data.validated_data)
        stage = competition.stage_create(
            actor=request.user, tournament=tournament, scorekeepers=scorekeepers, **values
        )
        return Response(s.StageSerializer(stage).data, status=status.HTTP_201_CREATED)


class StageDetail(APIView):
    @extend_schema(responses={200: s.StageSerializer, **ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        return Response(s.StageSerializer(get_visible(request, Stage.objects.all(), pk)).data)

    @extend_schema(
        request=s.StageSerializer(partial=True), responses={200: s.StageSerializer, **ERRORS}
    )
    def patch(self, request: Request, pk: int) -> Response:
        stage = get_directed(request, Stage.objects.all(), pk)
        context = people(request, tournament=stage.tournament, also=stage.scorekeepers.all())
        data = s.StageSerializer(stage, data=request.data, partial=True, context=context)
        data.is_valid(raise_exception=True)
        values, scorekeepers = _stage_values(data.validated_data)
        stage = competition.stage_update(
            actor=request.user, stage=stage, scorekeepers=scorekeepers, **values
        )
        return Response(s.StageSerializer(stage).data)


class StageStart(APIView):
    @extend_schema(
        request=s.StageStartSerializer, responses={200: s.StageStartedSerializer, **ERRORS}
    )
    def post(self, request: Request, pk: int) -> Response:
        """Start the stage. The answer says which registered teams were left out, not checked
        in (``not_checked_in``); name them in the request to have the start refused instead
        while any other is not checked in."""
        stage = get_directed(request, Stage.objects.all(), pk)
        data = s.StageStartSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        stage = competition.stage_start(
            actor=request.user,
            stage=stage,
            not_checked_in=data.validated_data.get("not_checked_in"),
        )
        left_out = competition.teams_not_checked_in(stage)
        return Response(
            {
                **s.StageSerializer(stage).data,
                "not_checked_in": [{"id": t.pk, "name": t.name} for t in left_out],
            }
        )


class StageCut(APIView):
    @extend_schema(
        responses={200: s.CutTieSerializer(many=True), **ERRORS},
        summary="The ties across the stage's cut line, decided or waiting (directors)",
    )
    def get(self, request: Request, pk: int) -> Response:
        stage = get_directed(request, Stage.objects.all(), pk)
        found = competition.cut_for_stage(stage)
        return Response(s.CutTieSerializer(found.ties if found else [], many=True).data)

    @extend_schema(
        request=s.CutDecideSerializer,
        responses={201: s.CutDecisionSerializer, **ERRORS},
        summary="Decide a tie at the stage's cut: a lot drawn here, or an order (once)",
    )
    def post(self, request: Request, pk: int) -> Response:
        stage = get_directed(request, Stage.objects.all(), pk)
        data = s.CutDecideSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tie, method = data.validated_data["tie"], data.validated_data["method"]
        if method == "lot":
            if "order" in data.validated_data:
                raise Problem(
                    "a lot draws the order: send no order",
                    code="invalid",
                    status_code=400,
                    errors={"order": ["not with method lot"]},
                )
            decision = competition.cut_draw_lot(actor=request.user, stage=stage, tie=tie)
        else:
            order = data.validated_data.get("order")
            if order is None:
                raise Problem(
                    "an order names the tied teams, the highest first",
                    code="invalid",
                    status_code=400,
                    errors={"order": ["required with method order"]},
                )
            decision = competition.cut_set_order(
                actor=request.user, stage=stage, tie=tie, order=order
            )
        return Response(s.CutDecisionSerializer(decision).data, status=status.HTTP_201_CREATED)


class StageBracket(APIView):
    @extend_schema(responses={200: s.BracketSerializer, 304: None, **ERRORS})
    def get(self, request: Request, pk: int) -> HttpResponse:
        stage = get_visible(request, Stage.objects.all(), pk)
        if not stage.elimination:
            raise Problem("this stage is not a bracket", code="not_a_bracket", status_code=404)
        drafts = directs(request, stage.tournament_id)
        version = list(
            Fixture.objects.filter(stage=stage)
            .order_by("pk")
            .values_list(
                "pk",
                "result",
                "team_a_id",
                "team_b_id",
                "match_id",
                "match__status",
                "round__status",
            )
        )
        tag = f"bracket:{stage.pk}:{stage.status}:{drafts}:{version}"
        return conditional(
            request,
            tag,
            lambda: Response(
                competition_selectors.bracket_for_stage(stage=stage, include_drafts=drafts)
            ),
        )
