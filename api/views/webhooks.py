"""Webhooks: a director's list, registering one, its deliveries."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import serializers as s
from .. import services
from ..access import directs, get_or_404, require_director, signed_in, visible_tournaments
from ..models import Webhook
from ..problems import Problem
from ._common import ERRORS, PAGE_PARAMS, paged, paginate


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
        from ..webhooks import check_url

        if not signed_in(request):
            raise Problem("sign in to manage webhooks", code="not_authenticated", status_code=401)
        data = s.WebhookSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        values = data.validated_data
        tournament = values["tournament"]  # one the caller may see (s.VisibleTournament)
        require_director(request, tournament)
        assert request.user.is_authenticated  # require_director: signed in
        check_url(values["url"])
        hook = services.webhook_create(
            actor=request.user,
            tournament=tournament,
            url=values["url"],
            kinds=values["kinds"],
            active=values.get("active", True),
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
