"""Tournaments: the list, creating one, reading and editing one."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import transaction
from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from competition import services as competition
from seasons import services as seasons
from tournaments import suspension
from tournaments.access import directed_clubs
from tournaments.clubs import club_for
from tournaments.models import Club, Tournament

from ..access import (
    get_directed,
    get_or_404,
    get_visible,
    refuse_tournament_token,
    require_write_token,
    token_of,
    visible_tournaments,
)
from ..accounts import an_id, people
from ..serializers import tournaments as s
from ._common import ERRORS, listed, paginate


class Tournaments(APIView):
    @listed(s.TournamentSerializer, "tournaments_list")
    def get(self, request: Request) -> Response:
        tournaments = (
            suspension.without_suspended(visible_tournaments(request))
            .select_related("organizer")
            .prefetch_related("directors")
            .order_by("-created_at", "id")
        )
        return paginate(self, request, tournaments, lambda t: s.TournamentSerializer(t).data)

    @extend_schema(
        request=s.TournamentSerializer, responses={201: s.TournamentSerializer, **ERRORS}
    )
    def post(self, request: Request) -> Response:
        refuse_tournament_token(
            request,
            signed_out="sign in to create a tournament",
            scoped="a tournament's token acts in its tournament: a club's token (or a session) "
            "creates tournaments",
        )
        require_write_token(request)
        club = _club_of_new(request)
        data = s.TournamentSerializer(data=request.data, context=people(request, club=club))
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        directors = values.pop("directors", [])
        values.pop("club_id", None)  # read by _club_of_new
        assert request.user.is_authenticated  # refuse_tournament_token: signed in
        with transaction.atomic():  # the caller's own club, made now if they direct none,
            # is made only with the tournament: a refusal undoes it
            club = club or club_for(request.user)
            # a 400 naming each field, checked in the club it joins (a slug a published
            # tournament holds, or one of that club, is taken)
            _clean(Tournament(organizer=request.user, club=club, **values))
            tournament = competition.tournament_create(
                actor=request.user, club=club, directors=directors, **values
            )
        return Response(s.TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)


def _club_of_new(request: Request) -> Club | None:
    """The club a new tournament joins: the one the body names (a club the caller directs),
    else the token's (a club's token: no other), else None (the caller's oldest club, made
    if they direct none: ``tournament_create``)."""
    token = token_of(request)
    named = request.data.get("club") if isinstance(request.data, dict) else None
    if named is None:
        return token.club if token is not None else None
    clubs = directed_clubs(request.user)
    if token is not None:
        clubs = clubs.filter(pk=token.club_id or 0)
    try:
        club: Club = get_or_404(clubs, an_id(named, "a club"))
        return club
    except (Http404, serializers.ValidationError) as exc:
        refused = {"club": ["no such club among those you direct"]}
        raise serializers.ValidationError(refused) from exc


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
        tournament = get_directed(request, Tournament.objects.all(), pk, "")
        context = people(request, tournament=tournament)
        data = s.TournamentSerializer(tournament, data=request.data, partial=True, context=context)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        directors = values.pop("directors", None)
        if "club_id" in values:
            raise serializers.ValidationError(
                {"club": ["a tournament stays in the club it was made in"]}
            )
        checked = Tournament.objects.get(pk=tournament.pk)
        dated = checked.date
        for name, value in values.items():
            setattr(checked, name, value)
        _clean(checked)  # a 400 naming each field, before the service checks it again
        tournament = competition.tournament_update(
            actor=request.user, tournament=tournament, directors=directors, **values
        )
        if tournament.date != dated:  # its club's ratings and ladders move with it, now
            seasons.evening_redated(tournament_id=tournament.pk)
        return Response(s.TournamentSerializer(tournament).data)
