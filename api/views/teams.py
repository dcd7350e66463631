"""A tournament's teams: registering one, checking it in, withdrawing it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from competition import services as competition
from competition.models import Registration
from tournaments.models import Player, Team, Tournament

from .. import services as api_services
from ..access import get_directed, get_visible, token_of
from ..accounts import people
from ..serializers import teams as s
from ._common import ERRORS, listed, paginate, refuse_unknown


def _teams(queryset: QuerySet[Team]) -> QuerySet[Team]:
    return queryset.select_related("first_player", "second_player", "registration").order_by(
        "name", "id"
    )


class TournamentTeams(APIView):
    @listed(s.TeamSerializer, "tournament_teams_list")
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_visible(request, Tournament.objects.all(), pk, "")
        teams = _teams(Team.objects.filter(tournament=tournament))
        return paginate(self, request, teams, lambda t: s.TeamSerializer(t).data)

    @extend_schema(request=s.TeamSerializer, responses={201: s.TeamSerializer, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        tournament = get_directed(request, Tournament.objects.all(), pk, "")
        context = people(request, tournament=tournament)
        data = s.TeamSerializer(data=request.data, context=context)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        team = competition.team_enter(
            actor=request.user,
            tournament=tournament,
            name=values["name"],
            people=[_person(context["members"], i, p) for i, p in enumerate(values["players"])],
            rating=values.get("rating"),
            seed=values.get("seed"),
            checked_in=values.get("checked_in", False),
        )
        team = _teams(Team.objects.filter(pk=team.pk)).get()
        return Response(s.TeamSerializer(team).data, status=status.HTTP_201_CREATED)


def _person(members: QuerySet[Player], index: int, player: dict[str, Any]) -> Any:
    """The member a team's player names (one of the tournament's club's), or their name and
    account (``team_enter`` finds or makes the member)."""
    if "member" not in player:
        return (player["name"], player.get("user"))
    member = members.filter(pk=player["member"]).first()
    if member is None:
        raise serializers.ValidationError(
            {f"players.{index}.member": ["no such member of the tournament's club"]}
        )
    return member


class TeamCommand(APIView):
    command: Callable[..., Registration] = staticmethod(competition.team_check_in)

    @extend_schema(request=None, responses={200: s.TeamSerializer, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        refuse_unknown(request)
        team = get_directed(request, Team.objects.all(), pk)
        type(self).command(actor=request.user, team=team)
        return Response(s.TeamSerializer(_teams(Team.objects.filter(pk=team.pk)).get()).data)


class TeamCheckIn(TeamCommand):
    command = staticmethod(competition.team_check_in)

    @extend_schema(request=None, responses={200: s.TeamCheckedInSerializer, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        """Check the team in. After a stage started it joins a Swiss stage that takes late
        entries at its next round, or waits for a stage to come that takes the registered
        teams (``plays_in`` says which); anywhere else it is refused (409
        ``late_entry_refused``, saying why), never checked in for nothing."""
        refuse_unknown(request)
        team = get_directed(request, Team.objects.all(), pk)
        competition.team_check_in(actor=request.user, team=team)
        plays_in = [
            {"stage": stage.pk, "name": stage.name, "from_round": first}
            for stage, first in competition.team_plays_in(team)
        ]
        team = _teams(Team.objects.filter(pk=team.pk)).get()
        return Response({**s.TeamSerializer(team).data, "plays_in": plays_in})


class TeamWithdraw(TeamCommand):
    command = staticmethod(competition.team_withdraw)


class TeamReinstate(TeamCommand):
    """Undo the team's withdrawal: each fixture it decided is pending again, with its match;
    409 ``forfeit_counted`` once a round it forfeited is complete (or, in a knockout, its
    opponent has played on)."""

    command = staticmethod(competition.team_reinstate)


class TeamToken(APIView):
    @extend_schema(
        request=s.TeamTokenRequest,
        responses={
            201: inline_serializer(
                "TeamTokenMade",
                {
                    "token": serializers.CharField(help_text="Shown once: keep it secret."),
                    "team": serializers.IntegerField(),
                    "player": serializers.ChoiceField(
                        choices=list(s.PLAYERS),
                        allow_null=True,
                        help_text="The player it is bound to; null: the team's token.",
                    ),
                    "expiry": serializers.DateTimeField(),
                },
            ),
            **ERRORS,
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        """A team's token (a director): through the team's link, it enters and answers the
        team's results, and plays its two seats' moves in the team's digital matches, and
        nothing else (docs/links.md). The body's fields are ``expires_in_days`` (1 to 30,
        default 1) and ``player`` (``"first"`` or ``"second"``: a token for one player's bot,
        which sees and plays only that player's seat); any other is refused (400 ``invalid``).
        A new token of the team (for the same player, if bound), or a new link, ends the one
        before."""
        team = get_directed(request, Team.objects.all(), pk)
        body = s.TeamTokenRequest(data=request.data)
        body.is_valid(raise_exception=True)
        days = body.validated_data["expires_in_days"]
        named = body.validated_data.get("player")
        token, text = api_services.team_token_create(
            actor=request.user,
            team=team,
            expires_in_days=days,
            made_by=token_of(request),
            player=None if named is None else s.PLAYERS[named],
        )
        return Response(
            {"token": text, "team": team.pk, "player": named, "expiry": token.expiry},
            status=status.HTTP_201_CREATED,
        )
