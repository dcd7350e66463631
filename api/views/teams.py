"""A tournament's teams: registering one, checking it in, withdrawing it."""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from competition import services as competition
from competition.models import Registration
from tournaments.models import Team, Tournament

from .. import serializers as s
from ..access import get_visible, require_director
from ._common import ERRORS, PAGE_PARAMS, paged, paginate


def _teams(queryset: QuerySet[Team]) -> QuerySet[Team]:
    return queryset.select_related("first_player", "second_player", "registration").order_by(
        "name", "id"
    )


class TournamentTeams(APIView):
    @extend_schema(
        responses={200: paged("Team", s.TeamSerializer), **ERRORS},
        parameters=PAGE_PARAMS,
        operation_id="tournament_teams_list",
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_visible(request, Tournament.objects.all(), pk, "")
        teams = _teams(Team.objects.filter(tournament=tournament))
        return paginate(self, request, teams, lambda t: s.TeamSerializer(t).data)

    @extend_schema(request=s.TeamSerializer, responses={201: s.TeamSerializer, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        tournament = get_visible(request, Tournament.objects.all(), pk, "")
        require_director(request, tournament)
        data = s.TeamSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        team = competition.team_enter(
            actor=request.user,
            tournament=tournament,
            name=values["name"],
            people=[(p["name"], p.get("user")) for p in values["players"]],
            rating=values.get("rating"),
            seed=values.get("seed"),
            checked_in=values.get("checked_in", False),
        )
        team = _teams(Team.objects.filter(pk=team.pk)).get()
        return Response(s.TeamSerializer(team).data, status=status.HTTP_201_CREATED)


class TeamCommand(APIView):
    command: Callable[..., Registration] = staticmethod(competition.team_check_in)

    @extend_schema(request=None, responses={200: s.TeamSerializer, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        team = get_visible(request, Team.objects.select_related("tournament"), pk)
        require_director(request, team.tournament)
        type(self).command(actor=request.user, team=team)
        return Response(s.TeamSerializer(_teams(Team.objects.filter(pk=team.pk)).get()).data)


class TeamCheckIn(TeamCommand):
    command = staticmethod(competition.team_check_in)


class TeamWithdraw(TeamCommand):
    command = staticmethod(competition.team_withdraw)
