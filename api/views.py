"""The API's views: thin. Each one finds its object through what the caller may see, checks what
they may do, calls a service or a selector, and shapes the answer."""

from __future__ import annotations

import functools
import hashlib
import secrets
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django import forms
from django.core.cache import cache
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connections, models, transaction
from django.db.models import Q, QuerySet
from django.db.models.expressions import RawSQL
from django.http import Http404, HttpResponse
from django.utils import timezone
from django_filters import rest_framework as filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import generics, serializers, status
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

import seep_core as sc
from competition import corrections
from competition import selectors as competition_selectors
from competition import services as competition
from competition.models import (
    Fixture,
    Notice,
    Registration,
    Round,
    Stage,
    StandingRow,
    StandingsCheckpoint,
)
from scoring.models import DealResult
from tournaments import matchlog
from tournaments import selectors as store
from tournaments.access import seats_in
from tournaments.errors import MatchNotFound
from tournaments.models import ID_LIMIT, Match, Player, Team, Tournament
from tournaments.services import match_append_event

from . import serializers as s
from .access import (
    admit_to_append,
    directs,
    get_or_404,
    get_visible,
    get_visible_row,
    require_director,
    require_write,
    signed_in,
    token_of,
    via_of,
    visible,
    visible_tournaments,
)
from .models import ApiToken, Webhook
from .pagination import Pages, bool_param, int_param
from .problems import Problem

PROBLEM = OpenApiResponse(
    response=inline_serializer(
        "Problem",
        {
            "type": serializers.CharField(),
            "title": serializers.CharField(),
            "status": serializers.IntegerField(),
            "detail": serializers.CharField(),
            "code": serializers.CharField(),
            "rule": serializers.CharField(required=False),
            "current_seq": serializers.IntegerField(required=False),
            "errors": serializers.DictField(required=False),
        },
    ),
    description="application/problem+json (RFC 9457)",
)
PAGE_PARAMS = [
    OpenApiParameter("page", int, description="Which page (from 1)"),
    OpenApiParameter("page_size", int, description="Items a page (at most 200; default 50)"),
]
ERRORS = {
    (code, "application/problem+json"): PROBLEM
    for code in (400, 401, 403, 404, 405, 406, 409, 413, 415, 422, 429, 503)
}


def paged(name: str, item: Any) -> Any:
    """Return the schema of a page of ``item``s (what ``paginate`` answers)."""
    return inline_serializer(
        f"Paginated{name}List",
        {
            "count": serializers.IntegerField(),
            "next": serializers.URLField(allow_null=True),
            "previous": serializers.URLField(allow_null=True),
            "results": item(many=True),
        },
    )


def paginate(
    view: APIView, request: Request, queryset: Any, serialize: Callable[[Any], Any]
) -> Response:
    pages = Pages()
    page: list[Any] | None = pages.paginate_queryset(queryset, request, view=view)
    assert page is not None
    return pages.get_paginated_response([serialize(item) for item in page])


def conditional(request: Request, tag: str, build: Callable[[], HttpResponse]) -> HttpResponse:
    """Answer 304 when the client holds this version (``If-None-Match``), else build it."""
    etag = f'"{hashlib.sha256(tag.encode()).hexdigest()[:32]}"'
    held = request.headers.get("If-None-Match", "")
    response: HttpResponse
    if etag in [t.strip() for t in held.split(",")] or held.strip() == "*":
        response = Response(status=status.HTTP_304_NOT_MODIFIED)
    else:
        response = build()
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    response["Vary"] = "Authorization, Cookie"
    return response


def viewer_key(request: Request, tournament_id: int) -> str:
    """What a response may depend on about its caller (for ETags): who, and whether a director."""
    user_id = request.user.pk if signed_in(request) else 0
    return f"{user_id}:{int(directs(request, tournament_id)) if user_id else 0}"


# --- the index ---------------------------------------------------------------------------


class Index(APIView):
    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="The resources of the API")
    def get(self, request: Request) -> Response:
        def link(name: str) -> str:
            return reverse(name, request=request)

        return Response(
            {
                "tournaments": link("api:tournaments"),
                "matches": link("api:matches"),
                "tokens": link("api:tokens"),
                "webhooks": link("api:webhooks"),
                "schema": link("schema"),
                "docs": link("docs"),
                "health": link("healthz"),
            }
        )


# --- tournaments -------------------------------------------------------------------------


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
        tournament = Tournament(organizer=request.user, **values)
        _clean(tournament)
        with transaction.atomic():
            try:
                tournament.save()
            except IntegrityError as exc:
                raise Problem("that slug is taken", code="slug_taken", status_code=409) from exc
            tournament.directors.set(directors)
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
        if directors is not None and not (
            request.user.is_superuser or tournament.organizer_id == request.user.pk
        ):
            raise Problem(
                "only the organizer names the directors", code="forbidden", status_code=403
            )
        for name, value in values.items():
            setattr(tournament, name, value)
        _clean(tournament)
        with transaction.atomic():
            try:
                tournament.save()
            except IntegrityError as exc:
                raise Problem("that slug is taken", code="slug_taken", status_code=409) from exc
            if directors is not None:
                tournament.directors.set(directors)
        return Response(s.TournamentSerializer(tournament).data)


# --- teams -------------------------------------------------------------------------------


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
        with transaction.atomic():
            players = [
                Player.objects.create(name=p["name"], user=p.get("user")) for p in values["players"]
            ]
            team = competition.team_register(
                actor=request.user,
                tournament=tournament,
                name=values["name"],
                first_player=players[0],
                second_player=players[1],
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


# --- stages and rounds -------------------------------------------------------------------


def _stage_values(data: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    values = dict(data)
    return values, values.pop("scorekeepers", None)


class TournamentStages(APIView):
    @extend_schema(
        responses={200: paged("Stage", s.StageSerializer), **ERRORS},
        parameters=PAGE_PARAMS,
        operation_id="tournament_stages_list",
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_visible(request, Tournament.objects.all(), pk, "")
        stages = Stage.objects.filter(tournament=tournament).prefetch_related("scorekeepers")
        return paginate(
            self, request, stages.order_by("order"), lambda st: s.StageSerializer(st).data
        )

    @extend_schema(request=s.StageSerializer, responses={201: s.StageSerializer, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        tournament = get_visible(request, Tournament.objects.all(), pk, "")
        require_director(request, tournament)
        data = s.StageSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values, scorekeepers = _stage_values(data.validated_data)
        values.setdefault("match_format", tournament.match_format)
        with transaction.atomic():
            stage = competition.stage_create(actor=request.user, tournament=tournament, **values)
            if scorekeepers is not None:
                stage.scorekeepers.set(scorekeepers)
        return Response(s.StageSerializer(stage).data, status=status.HTTP_201_CREATED)


class StageDetail(APIView):
    @extend_schema(responses={200: s.StageSerializer, **ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        return Response(s.StageSerializer(get_visible(request, Stage.objects.all(), pk)).data)

    @extend_schema(
        request=s.StageSerializer(partial=True), responses={200: s.StageSerializer, **ERRORS}
    )
    def patch(self, request: Request, pk: int) -> Response:
        stage = get_visible(request, Stage.objects.select_related("tournament"), pk)
        require_director(request, stage.tournament)
        data = s.StageSerializer(stage, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        values, scorekeepers = _stage_values(data.validated_data)
        with transaction.atomic():
            stage = competition.stage_update(actor=request.user, stage=stage, **values)
            if scorekeepers is not None:
                stage.scorekeepers.set(scorekeepers)
        return Response(s.StageSerializer(stage).data)


class StageStart(APIView):
    @extend_schema(request=None, responses={200: s.StageSerializer, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        stage = get_visible(request, Stage.objects.select_related("tournament"), pk)
        require_director(request, stage.tournament)
        stage = competition.stage_start(actor=request.user, stage=stage)
        return Response(s.StageSerializer(stage).data)


def _rounds(request: Request) -> QuerySet[Round]:
    """The rounds the caller may see: drafts only in tournaments they direct."""
    rounds = visible(request, Round.objects.select_related("stage"), "stage__tournament")
    if not signed_in(request):
        return rounds.exclude(status=Round.Status.DRAFT)
    if request.user.is_superuser and token_of(request) is None:
        return rounds
    directed = [
        t for t in visible_tournaments(request).values_list("pk", flat=True) if directs(request, t)
    ]
    return rounds.filter(~Q(status=Round.Status.DRAFT) | Q(stage__tournament__in=directed))


def _round_data(round_: Round) -> Any:
    fresh = Round.objects.prefetch_related("fixtures__team_a", "fixtures__team_b").get(pk=round_.pk)
    return s.RoundSerializer(fresh).data


class StageRounds(APIView):
    @extend_schema(
        responses={200: paged("Round", s.RoundSerializer), **ERRORS},
        parameters=PAGE_PARAMS,
        operation_id="stage_rounds_list",
    )
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
        stage = get_visible(request, Stage.objects.select_related("tournament"), pk)
        require_director(request, stage.tournament)
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
        round_ = get_or_404(_rounds(request).select_related("stage__tournament"), pk)
        require_director(request, round_.stage.tournament)
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
        round_ = get_or_404(_rounds(request).select_related("stage__tournament"), pk)
        require_director(request, round_.stage.tournament)
        competition.round_publish(actor=request.user, round=round_)
        return Response(_round_data(round_))


class StageStandings(APIView):
    """A stage's standings: one query finds the stage, the round, its checkpoint and its
    tournament's teams' fingerprint (together the ETag), and the body is the one rendered
    before from the same inputs when there is one: this process's (no round trip at all), or
    another process's, from the cache (one). Else two more queries render it, and it is kept
    for the next reader, here and in the cache.

    What a table is made of keys it: the checkpoint's digest and the time it was last written
    (a rebuild rewrites the rows under the same digest), and a digest of the tournament's
    team ids and names (the names are in the rows, not in the checkpoint's digest), read in
    the same query, so a rename however made is seen by the next read. With no checkpoint
    (nothing played yet) every read renders.
    """

    @extend_schema(
        parameters=[
            OpenApiParameter("round", int, description="As of this round (default: the latest)")
        ],
        responses={
            200: inline_serializer(
                "Standings",
                {
                    "stage": serializers.IntegerField(),
                    "as_of_round": serializers.IntegerField(allow_null=True),
                    "rows": s.StandingRowSerializer(many=True),
                },
            ),
            304: None,
            **ERRORS,
        },
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        asked = int_param(request, "round", 0, low=0, high=10_000) or None
        annotations = _checkpoint(asked, connections[DEFAULT_DB_ALIAS].vendor)
        stage = get_visible_row(request, Stage, pk, annotations=annotations)
        as_of = asked if asked is not None else stage.latest_round
        digest, written = stage.checkpoint_digest, stage.checkpoint_written
        teams = hashlib.blake2b((stage.team_names or "").encode(), digest_size=12).hexdigest()
        key = f"api:standings:v3:{stage.pk}:{as_of}:{digest}:{written and written.timestamp()}"
        key += f":{teams}"

        def build() -> HttpResponse:
            rendered = _rendered.get(key) if digest else None
            if rendered is None and digest:
                rendered = cache.get(key)
            if rendered is None:
                rows = competition_selectors.standings_for_stage(stage=stage, as_of_round=as_of)
                body = {
                    "stage": stage.pk,
                    "as_of_round": as_of,
                    "rows": s.StandingRowSerializer(rows, many=True).data,
                }
                rendered = JSONRenderer().render(body)
                if digest:
                    cache.set(key, rendered, STANDINGS_CACHE_SECONDS)
            if digest:
                if len(_rendered) >= RENDERED_AT_MOST:
                    _rendered.clear()
                _rendered[key] = rendered
            return HttpResponse(rendered, content_type="application/json")

        return conditional(request, key, build)


#: how long a rendered table is kept in the cache (each is keyed by its inputs: this only
#: bounds the memory)
STANDINGS_CACHE_SECONDS = 600
#: the tables this process rendered or read lately, by key: a body is the same for its key
#: forever, so this only bounds the memory (emptied when full)
_rendered: dict[str, bytes] = {}
RENDERED_AT_MOST = 256


@functools.lru_cache(maxsize=256)  # made once per round asked for: only read after
def _checkpoint(as_of: int | None, vendor: str) -> dict[str, RawSQL]:
    """The subqueries of a stage's checkpoint (digest, when written) of its standings as of
    round ``as_of``, or (None) of its latest round with standings (``latest_round``), and of
    its tournament's teams (``team_names``: their ids and names, on PostgreSQL digested).

    Raw subqueries, read with the stage by ``get_visible_row``: the same ones through
    ``Subquery``/``OuterRef`` cost three times the CPU of the rest of the request's query
    to compile, on every read.
    """
    stage, rows = Stage._meta.db_table, StandingRow._meta.db_table
    latest = f"SELECT MAX(r.as_of_round) FROM {rows} r WHERE r.stage_id = {stage}.id"
    annotations: dict[str, RawSQL] = {}
    params: tuple[Any, ...] = ()
    if as_of is None:
        annotations["latest_round"] = RawSQL(latest, (), output_field=models.IntegerField())
        round_sql = f"({latest})"
    else:
        round_sql, params = "%s", (as_of,)

    def checkpoint(column: str, field: models.Field[Any, Any]) -> RawSQL:
        return RawSQL(
            f"SELECT c.{column} FROM {StandingsCheckpoint._meta.db_table} c "
            f"WHERE c.stage_id = {stage}.id AND c.as_of_round = {round_sql}",
            params,
            output_field=field,
        )

    annotations["checkpoint_digest"] = checkpoint("digest", models.CharField())
    annotations["checkpoint_written"] = checkpoint("updated_at", models.DateTimeField())
    teams = f"{Team._meta.db_table} tm WHERE tm.tournament_id = {stage}.tournament_id"
    entry = "tm.id || ':' || tm.name"
    names = (
        f"SELECT md5(string_agg({entry}, '/' ORDER BY tm.id)) FROM {teams}"
        if vendor == "postgresql"  # SQLite's is in the process: no digest to spare a send
        else f"SELECT group_concat(e, '/') FROM (SELECT {entry} AS e FROM {teams} ORDER BY tm.id)"
    )
    annotations["team_names"] = RawSQL(names, (), output_field=models.TextField())
    return annotations


class StageBracket(APIView):
    @extend_schema(responses={200: OpenApiTypes.OBJECT, 304: None, **ERRORS})
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


# --- matches -----------------------------------------------------------------------------


class IdFilter(filters.NumberFilter):
    """A whole-number filter: 0.5 is no id, nor is a number no id column can hold (400)."""

    field_class = forms.IntegerField  # type: ignore[assignment]  # the stubs say DecimalField only

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", ID_LIMIT - 1)
        super().__init__(*args, **kwargs)


class MatchFilter(filters.FilterSet):
    stage = IdFilter(field_name="fixture__stage")
    round = IdFilter(field_name="fixture__round__number")
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
    return visible(
        request, Match.objects.select_related("team0", "team1", "result", "fixture__round")
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
    @extend_schema(responses={200: s.MatchSerializer, **ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        return Response(s.MatchSerializer(get_or_404(_matches(request), pk)).data)


SEQ_PAGE_PARAMETERS = [
    OpenApiParameter("after", int, description="Only events after this seq (default 0)"),
    OpenApiParameter("limit", int, description="At most this many (1-500, default 100)"),
]


def seq_page(name: str, item: Any) -> Any:
    """The schema of a page of a match's log: its items, the next page's URL, the head now."""
    return inline_serializer(
        name,
        {
            "results": item(many=True),
            "next": serializers.URLField(allow_null=True),
            "last_seq": serializers.IntegerField(),
        },
    )


def _events_page(
    request: Request, match: Match, events: QuerySet[Any]
) -> tuple[list[Any], str | None]:
    """Return the page of ``events`` after ``?after=`` (at most ``?limit=``), and the next
    page's URL (None at the head of the log)."""
    after = int_param(request, "after", 0, low=0, high=2**31)
    limit = int_param(request, "limit", 100, low=1, high=500)
    rows = list(events.filter(seq__gt=after)[:limit])
    following = None
    if len(rows) == limit and rows[-1].seq < match.last_seq:
        following = request.build_absolute_uri(f"{request.path}?after={rows[-1].seq}&limit={limit}")
    return rows, following


class MatchEvents(APIView):
    @extend_schema(
        parameters=SEQ_PAGE_PARAMETERS,
        responses={
            200: seq_page("EventPage", s.EventSerializer),
            **ERRORS,
        },
    )
    def get(self, request: Request, pk: int) -> Response:
        # Polled: the match by the fixed query, which also tells whether the caller directs
        match = get_visible_row(request, Match, pk, fields=("last_seq",))
        events, following = _events_page(request, match, store.match_events(match))
        director = directs(request, match.tournament_id)
        shown = store.render_events(match, events, request.user, director=director)
        return Response({"results": shown, "next": following, "last_seq": match.last_seq})

    @extend_schema(
        request=PolymorphicProxySerializer(
            component_name="MatchCommand",
            serializers=list(s.COMMANDS.values()),
            resource_type_field_name="kind",
        ),
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                str,
                OpenApiParameter.HEADER,
                description="Send again with the same key: written once",
            ),
            OpenApiParameter(
                "dry_run",
                bool,
                description="A correction only: return its consequences, writing nothing",
            ),
        ],
        responses={
            201: s.AppendedSerializer,
            200: PolymorphicProxySerializer(
                component_name="AppendedOrPreview",
                serializers=[s.AppendedSerializer, s.CorrectionPreviewSerializer],
                resource_type_field_name=None,
            ),
            **ERRORS,
        },
        summary="Append a command to the match's log",
    )
    def post(self, request: Request, pk: int) -> Response:
        # The body's shape first: it tells nothing of the match, which is read once, locked,
        # by the service (a correction reads it here, to plan with).
        body = request.data
        if not isinstance(body, dict):
            raise Problem("the body is a JSON object", code="bad_body")
        correction = body.get("kind") in matchlog.CORRECTIONS
        fields = {"expected_seq", "kind", "payload"}
        unknown = sorted(set(body) - fields - ({"confirm"} if correction else set()))
        missing = sorted(fields - set(body))
        if unknown or missing:
            errors = {name: ["not a field you may send"] for name in unknown}
            errors.update({name: ["this field is required"] for name in missing})
            raise serializers.ValidationError(errors)
        confirm = body.get("confirm", False)
        if type(confirm) is not bool:
            raise serializers.ValidationError({"confirm": ["true or false"]})
        dry_run = bool_param(request, "dry_run")
        if dry_run and not correction:
            raise Problem(
                f"a dry run is for a correction: {', '.join(matchlog.CORRECTIONS)}",
                code="bad_dry_run",
            )
        key = request.headers.get("Idempotency-Key")
        if correction:
            match = get_visible_row(request, Match, pk)
            require_write(request, match.tournament_id)
            return self.correct(request, match, body, confirm=confirm, dry_run=dry_run, key=key)
        try:
            result = match_append_event(
                match=pk,
                expected_seq=body["expected_seq"],
                kind=body["kind"],
                payload=body["payload"],
                actor=request.user,
                idempotency_key=key,
                via=via_of(request),
                # who may see the match, decided on the row the service locks (access's doc)
                gate=functools.partial(admit_to_append, request),
            )
        except MatchNotFound as exc:  # the same 404 as a match the caller may not see
            raise Http404 from exc
        return Response(
            {"events": result.events, "last_seq": result.last_seq},
            status=status.HTTP_200_OK if result.replayed else status.HTTP_201_CREATED,
        )

    def correct(
        self, request: Request, match: Match, body: dict[str, Any], *, confirm: bool,
        dry_run: bool, key: str | None,
    ) -> Response:  # fmt: skip
        """A director's correction: previewed first, applied when nothing needs confirming."""
        if type(body["expected_seq"]) is not int:
            raise serializers.ValidationError({"expected_seq": ["a whole number"]})
        if dry_run:
            preview = corrections.preview_correction(
                actor=request.user, match=match, kind=body["kind"], payload=body["payload"],
                expected_seq=body["expected_seq"],
            )  # fmt: skip
            return Response(preview.as_dict())
        result, applied = corrections.apply_correction(
            actor=request.user, match=match, kind=body["kind"], payload=body["payload"],
            expected_seq=body["expected_seq"], confirm=confirm, idempotency_key=key,
            via=via_of(request),
        )  # fmt: skip
        data: dict[str, Any] = {"events": result.events, "last_seq": result.last_seq}
        if applied is not None:
            data["consequences"] = applied.as_dict()
        return Response(
            data, status=status.HTTP_200_OK if result.replayed else status.HTTP_201_CREATED
        )


class MatchHistory(APIView):
    @extend_schema(
        parameters=SEQ_PAGE_PARAMETERS,
        responses={
            200: seq_page("HistoryPage", s.HistorySerializer),
            **ERRORS,
        },
        summary="The whole history of a match, for its directors: who did what, when, how",
    )
    def get(self, request: Request, pk: int) -> Response:
        match = get_visible(request, Match.objects.all(), pk)
        require_director(request, match.tournament)
        events = store.match_events(match).select_related("actor")
        rows, following = _events_page(request, match, events)
        results = s.HistorySerializer(rows, many=True).data
        return Response({"results": results, "next": following, "last_seq": match.last_seq})


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


class MatchState(APIView):
    @extend_schema(
        responses={200: OpenApiTypes.OBJECT, 304: None, **ERRORS},
        summary="The position as the caller may see it, and their legal moves",
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        match = get_visible_row(request, Match, pk, fields=("last_seq", "last_hash"))
        viewer = viewer_key(request, match.tournament_id)
        tag = f"state:{match.pk}:{match.last_seq}:{match.last_hash}:{viewer}"
        return conditional(request, tag, lambda: Response(self.position(request, match)))

    def position(self, request: Request, match: Match) -> dict[str, Any]:
        state = store.match_state(match)
        director = directs(request, match.tournament_id)
        seats = seats_in(state.users, request.user) if signed_in(request) else []
        seat = seats[0] if seats else None
        deal = state.deal
        if deal is None:
            position = None
        elif director:
            position = deal.to_dict()
        else:
            position = sc.view(deal, seat)
        legal = None
        if deal is not None and seat is not None and deal.to_play in seats:
            legal = sc.legal_moves(deal)
        progress = state.progress
        return {
            "match": match.pk,
            "status": state.status,
            "mode": state.mode,
            "last_seq": match.last_seq,
            "deal": state.deal_no,
            "seat": seat,
            "position": position,
            "legal_moves": legal,
            # Score entry with confirmation: the next deal's entries awaiting an answer
            # (provisional: they count once confirmed), and whether the director has it.
            "confirmation": state.confirmation,
            "entries": [
                {"entry": e.number, "side": e.side, "by": e.actor, **e.result()}
                for e in state.entries
            ],
            "disputed": state.disputed,
            "progress": None
            if progress is None
            else {
                "dealer": progress.dealer,
                "deals": progress.deals,
                "difference": progress.difference,
                "bazzis": list(progress.bazzis),
                "over": progress.over,
                "winner": progress.winner,
            },
        }


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


# --- tokens ------------------------------------------------------------------------------


def _session_only(request: Request) -> None:
    if not signed_in(request):
        raise Problem("sign in to manage tokens", code="not_authenticated", status_code=401)
    if token_of(request) is not None:
        raise Problem(
            "tokens are managed in a signed-in session, not with a token",
            code="token_scope",
            status_code=403,
        )
    # The user's expired tokens go here (api.auth refuses each one when it is presented).
    ApiToken.objects.filter(user=request.user, expiry__lt=timezone.now()).delete()


class Tokens(APIView):
    @extend_schema(
        responses={200: paged("Token", s.TokenSerializer), **ERRORS},
        parameters=PAGE_PARAMS,
        operation_id="tokens_list",
    )
    def get(self, request: Request) -> Response:
        _session_only(request)
        tokens = ApiToken.objects.filter(user=request.user).order_by("-created", "id")
        return paginate(self, request, tokens, lambda t: s.TokenSerializer(t).data)

    @extend_schema(request=s.TokenSerializer, responses={201: s.TokenSerializer, **ERRORS})
    def post(self, request: Request) -> Response:
        _session_only(request)
        data = s.TokenSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        values = data.validated_data
        token, text = ApiToken.objects.create(
            user=request.user,
            expiry=timedelta(days=values["expires_in_days"]),
            name=values["name"],
            tournament=values["tournament"],
            write=values.get("write", False),
        )
        out = dict(s.TokenSerializer(token).data)
        out["token"] = text
        return Response(out, status=status.HTTP_201_CREATED)


class TokenDetail(APIView):
    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request: Request, pk: int) -> Response:
        _session_only(request)
        token = get_or_404(ApiToken.objects.filter(user=request.user), pk)
        token.delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- webhooks ----------------------------------------------------------------------------


def _directed(request: Request) -> list[int]:
    return [
        t for t in visible_tournaments(request).values_list("pk", flat=True) if directs(request, t)
    ]


class Webhooks(APIView):
    @extend_schema(
        responses={200: paged("Webhook", s.WebhookSerializer), **ERRORS},
        parameters=PAGE_PARAMS,
        operation_id="webhooks_list",
    )
    def get(self, request: Request) -> Response:
        if not signed_in(request):
            raise Problem("sign in to see webhooks", code="not_authenticated", status_code=401)
        hooks = Webhook.objects.filter(tournament__in=_directed(request)).order_by("pk")
        return paginate(self, request, hooks, lambda h: s.WebhookSerializer(h).data)

    @extend_schema(request=s.WebhookSerializer, responses={201: s.NewWebhookSerializer, **ERRORS})
    def post(self, request: Request) -> Response:
        from .webhooks import check_url

        if not signed_in(request):
            raise Problem("sign in to manage webhooks", code="not_authenticated", status_code=401)
        data = s.WebhookSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        values = data.validated_data
        tournament = values["tournament"]  # one the caller may see (s.VisibleTournament)
        require_director(request, tournament)
        assert request.user.is_authenticated  # require_director: signed in
        check_url(values["url"])
        secret = secrets.token_hex(32)
        hook = Webhook.objects.create(
            tournament=tournament,
            url=values["url"],
            kinds=values["kinds"],
            active=values.get("active", True),
            secret=secret,
            created_by=request.user,
        )
        return Response(s.NewWebhookSerializer(hook).data, status=status.HTTP_201_CREATED)


class WebhookDeliveries(APIView):
    @extend_schema(
        responses={200: paged("WebhookDelivery", s.WebhookDeliverySerializer), **ERRORS},
        parameters=PAGE_PARAMS,
        operation_id="webhook_deliveries_list",
    )
    def get(self, request: Request, pk: int) -> Response:
        hook = get_or_404(Webhook.objects.filter(tournament__in=_directed(request)), pk)
        deliveries = hook.deliveries.prefetch_related("attempt_log").order_by("-created_at", "-id")
        return paginate(self, request, deliveries, lambda d: s.WebhookDeliverySerializer(d).data)
