"""A match's log: reading it a page at a time, appending to it (corrections included), and
its whole history for its directors."""

from __future__ import annotations

import functools
from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from drf_spectacular.utils import (
    OpenApiParameter,
    PolymorphicProxySerializer,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from competition import corrections
from tournaments import matchlog
from tournaments import selectors as store
from tournaments.errors import MatchNotFound
from tournaments.models import Match
from tournaments.services import match_append_event

from ..access import (
    admit_to_append,
    directs,
    get_directed,
    get_visible_row,
    require_write,
    team_actor,
    via_of,
)
from ..pagination import bool_param, int_param
from ..problems import Problem
from ..serializers import events as s
from ._common import ERRORS

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
                actor=team_actor(request) or request.user,
                idempotency_key=key,
                via=via_of(request),
                # who may see the match, decided on the row the service locks (access's doc)
                gate=functools.partial(admit_to_append, request, kind=body["kind"]),
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
        match = get_directed(request, Match.objects.all(), pk)
        events = store.match_events(match).select_related("actor")
        rows, following = _events_page(request, match, events)
        results = s.HistorySerializer(rows, many=True).data
        return Response({"results": results, "next": following, "last_seq": match.last_seq})
