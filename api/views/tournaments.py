"""Tournaments: the list, creating one, reading and editing one."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from competition import services as competition
from tournaments.models import Tournament

from .. import serializers as s
from ..access import get_visible, require_director, signed_in, token_of, visible_tournaments
from ..problems import Problem
from ._common import ERRORS, PAGE_PARAMS, paged, paginate


class Tournaments(APIView):
    @extend_schema(
        responses={200: paged("Tournament", s.TournamentSerializer), **ERRORS},
        parameters=PAGE_PARAMS,
        operation_id="tournaments_list",
    )
    def get(self, request: Request) -> Response:
        tournaments = (
            visible_tournaments(request)
            .select_related("organizer")
            .prefetch_related("directors")
            .order_by("-created_at", "id")
        )
        return paginate(self, request, tournaments, lambda t: s.TournamentSerializer(t).data)

    @extend_schema(
        request=s.TournamentSerializer, responses={201: s.TournamentSerializer, **ERRORS}
    )
    def post(self, request: Request) -> Response:
        if not signed_in(request):
            raise Problem(
                "sign in to create a tournament", code="not_authenticated", status_code=401
            )
        if token_of(request) is not None:
            raise Problem(
                "a token belongs to one tournament: sign in to create another",
                code="token_scope",
                status_code=403,
            )
        data = s.TournamentSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        directors = values.pop("directors", [])
        assert request.user.is_authenticated  # signed_in() above
        _clean(Tournament(organizer=request.user, **values))  # a 400 naming each field
        tournament = competition.tournament_create(
            actor=request.user, club=None, directors=directors, **values
        )
        return Response(s.TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)


def _clean(obj: Any) -> None:
    try:
        obj.full_clean()
    except DjangoValidationError as exc:
        errors = (
            exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        )
        raise serializers.ValidationError(errors) from exc


class TournamentDetail(APIView):
    @extend_schema(responses={200: s.TournamentSerializer, **ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        return Response(
            s.TournamentSerializer(get_visible(request, Tournament.objects.all(), pk, "")).data
        )

    @extend_schema(
        request=s.TournamentSerializer(partial=True),
        responses={200: s.TournamentSerializer, **ERRORS},
    )
    def patch(self, request: Request, pk: int) -> Response:
        tournament = get_visible(request, Tournament.objects.all(), pk, "")
        require_director(request, tournament)
        data = s.TournamentSerializer(tournament, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        directors = values.pop("directors", None)
        checked = Tournament.objects.get(pk=tournament.pk)
        for name, value in values.items():
            setattr(checked, name, value)
        _clean(checked)  # a 400 naming each field, before the service checks it again
        tournament = competition.tournament_update(
            actor=request.user, tournament=tournament, directors=directors, **values
        )
        return Response(s.TournamentSerializer(tournament).data)
