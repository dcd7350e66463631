"""Matches: the filtered list, one match, its position as the caller may see it, its deals."""

from __future__ import annotations

import time
from typing import Any

from django import forms
from django.conf import settings
from django.db.models import IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast
from django.http import HttpResponse
from django_filters import rest_framework as filters
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.models import DealResult, MatchResult
from tournaments import selectors as store
from tournaments.access import seats_in
from tournaments.models import ID_LIMIT, Match, MatchEvent

from ..access import (
    bound_seat,
    directs,
    get_or_404,
    get_visible,
    get_visible_row,
    signed_in,
    visible,
)
from ..pagination import Pages, int_param
from ..serializers import matches as s
from ..serializers.state import MatchStateSerializer
from ._common import ERRORS, conditional, viewer_key


class IdFilter(filters.NumberFilter):
    """A whole-number filter: 0.5 is no id, nor is a number no id column can hold (400)."""

    field_class = forms.IntegerField  # type: ignore[assignment]  # the stubs say DecimalField only

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", ID_LIMIT - 1)
        super().__init__(*args, **kwargs)


class MatchFilter(filters.FilterSet):
    stage = IdFilter(field_name="fixture__stage")
    round = IdFilter(
        field_name="fixture__round__number",
        label="The round's number in its stage (1, 2...; not its id)",
    )
    team = IdFilter(method="by_team")
    status = filters.ChoiceFilter(choices=Match._meta.get_field("status").choices)
    tournament = IdFilter(field_name="tournament")

    class Meta:
        model = Match
        fields = ["stage", "round", "team", "status", "tournament"]

    def is_valid(self) -> bool:
        """Also refuse a filter sent empty (``?status=``): leave it out to match every match."""
        valid = super().is_valid()
        for name in self.filters:
            if (self.data or {}).get(name) == "":
                self.form.add_error(name, "empty: leave it out to match every match")
                valid = False
        return valid

    def by_team(self, queryset: QuerySet[Match], name: str, value: Any) -> QuerySet[Match]:
        return queryset.filter(Q(team0=value) | Q(team1=value))


def _matches(request: Request) -> QuerySet[Match]:
    """The matches the caller may see, each with the dealer its log drew (``drawn_dealer``:
    ``match_started``'s, the log's first event; None before the start)."""
    started = MatchEvent.objects.filter(match=OuterRef("pk"), seq=1, kind="match_started")
    drawn = Cast(KeyTextTransform("first_dealer", "payload"), IntegerField())
    matches: QuerySet[Match] = visible(
        request, Match.objects.select_related("team0", "team1", "result", "fixture__round")
    )
    return matches.annotate(
        drawn_dealer=Subquery(started.annotate(dealer=drawn).values("dealer")[:1])
    )


@extend_schema_view(get=extend_schema(responses={200: s.MatchSerializer(many=True), **ERRORS}))
class Matches(generics.ListAPIView):  # type: ignore[type-arg]
    serializer_class = s.MatchSerializer
    filter_backends = [filters.DjangoFilterBackend]
    filterset_class = MatchFilter
    pagination_class = Pages

    def get_queryset(self) -> QuerySet[Match]:
        return _matches(self.request).order_by("pk")


class MatchDetail(APIView):
    """A match and its result. The status and the head (``last_seq``) are the log's own, the
    result is scoring's projection of it, which follows a moment later: ``result.seq`` says
    up to which event it has folded the log. ``?wait_for_seq=N`` answers once it has folded
    event N (or the head, if N is beyond it), waiting at most ``API_WAIT_FOR_SEQ_SECONDS``
    (then the answer is what there is: compare ``result.seq``)."""

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "wait_for_seq",
                int,
                description="Answer once the result has folded the log up to this seq (or to "
                "the head, if this is beyond it), waiting at most a few seconds "
                "(API_WAIT_FOR_SEQ_SECONDS); compare result.seq with it",
            )
        ],
        responses={200: s.MatchSerializer, **ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        wanted = int_param(request, "wait_for_seq", 0, low=0, high=2**31)
        match = get_or_404(_matches(request), pk)
        if wanted and _result_seq(match) < min(wanted, match.last_seq):
            match = _waited(request, match, wanted)
        return Response(s.MatchSerializer(match).data)


#: how often a wait for the result reads it again
WAIT_POLL_SECONDS = 0.05


def _result_seq(match: Match) -> int:
    result = getattr(match, "result", None)
    return 0 if result is None else int(result.seq)


def _waited(request: Request, match: Match, wanted: int) -> Match:
    """Return the match read again once its result has folded event ``wanted`` (or its
    head), or when the wait's bound passes. Polls one small query, outside any transaction
    (each read sees what has committed since)."""
    deadline = time.monotonic() + settings.API_WAIT_FOR_SEQ_SECONDS
    while time.monotonic() < deadline:
        time.sleep(WAIT_POLL_SECONDS)
        head = Match.objects.filter(pk=match.pk).values_list("last_seq", flat=True).first()
        seq = MatchResult.objects.filter(match_id=match.pk).values_list("seq", flat=True).first()
        if head is None or (seq or 0) >= min(wanted, head):
            break
    again: Match = get_or_404(_matches(request), match.pk)
    return again


class MatchState(APIView):
    @extend_schema(
        responses={200: MatchStateSerializer, 304: None, **ERRORS},
        summary="The position as the caller may see it, and their legal moves",
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        """A team's token bound to one of its players sees that player's seat (its hand, its
        legal moves) and holds it, as a phone would (409 ``seat_held`` when a phone holds it)."""
        match = get_visible_row(request, Match, pk, fields=("last_seq", "last_hash"))
        bound = bound_seat(request, match)
        viewer = viewer_key(request, match.tournament_id)
        tag = f"state:{match.pk}:{match.last_seq}:{match.last_hash}:{viewer}:{bound}"
        return conditional(request, tag, lambda: Response(self.position(request, match, bound)))

    def position(self, request: Request, match: Match, bound: int | None) -> dict[str, Any]:
        state = store.match_state(match)
        seats = seats_in(state.users, request.user) if signed_in(request) else []
        if bound is not None:  # a team's token bound to a player: that seat, and only it
            seats = [bound]
        director = directs(request, match.tournament_id)
        return store.match_position(match, seats=seats, director=director, state=state)


class MatchDeals(APIView):
    @extend_schema(
        responses={
            200: inline_serializer(
                "Deals",
                {
                    "match": serializers.IntegerField(),
                    "deals": s.DealSerializer(many=True),
                },
            ),
            **ERRORS,
        }
    )
    def get(self, request: Request, pk: int) -> Response:
        match = get_visible(request, Match.objects.all(), pk)
        deals = DealResult.objects.filter(match=match).order_by("deal")
        return Response({"match": match.pk, "deals": s.DealSerializer(deals, many=True).data})
