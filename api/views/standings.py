"""A stage's standings: conditional reads, the rendered tables kept here and in the cache."""

from __future__ import annotations

import functools
import hashlib
from typing import Any

from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.models.expressions import RawSQL
from django.http import HttpResponse
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.views import APIView

from competition import selectors as competition_selectors
from competition.models import Stage, StandingRow, StandingsCheckpoint
from tournaments.models import Team

from ..access import get_visible_row
from ..pagination import int_param
from ..serializers import standings as s
from ._common import ERRORS, conditional


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
            OpenApiParameter(
                "round",
                int,
                description="As of the round with this number in the stage (its number, not its "
                "id; 0: before the first round, every team by seed). Default: the latest",
            )
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
        asked: int | None = int_param(request, "round", -1, low=0, high=10_000)
        asked = None if asked == -1 else asked
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
