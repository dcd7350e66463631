"""Webhooks: a director's list, registering one, pausing, resuming and deleting it, its
deliveries."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import services
from ..access import directs, get_or_404, require_director, signed_in, visible_tournaments
from ..models import Webhook
from ..problems import Problem
from ..serializers import webhooks as s
from ._common import ERRORS, PAGE_PARAMS, paged, paginate


def _directed(request: Request) -> list[int]:
    return [
        t for t in visible_tournaments(request).values_list("pk", flat=True) if directs(request, t)
    ]


def _hook_or_404(request: Request, pk: int) -> Webhook:
    """Return the subscription ``pk`` of a tournament the caller directs; else 404 (401 for a
    caller signed out)."""
    if not signed_in(request):
        raise Problem("sign in to manage webhooks", code="not_authenticated", status_code=401)
    return get_or_404(  # type: ignore[no-any-return]
        Webhook.objects.filter(tournament__in=_directed(request)).select_related("tournament"),
        pk,
    )


def _changeable_or_404(request: Request, pk: int) -> Webhook:
    """``_hook_or_404``, and the caller may change it (not with a read-only token)."""
    hook = _hook_or_404(request, pk)
    require_director(request, hook.tournament)
    return hook


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
        tournament = values["tournament"]  # one the caller may see (VisibleTournament)
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


class WebhookDetail(APIView):
    @extend_schema(responses={200: s.WebhookSerializer, **ERRORS}, operation_id="webhook_detail")
    def get(self, request: Request, pk: int) -> Response:
        return Response(s.WebhookSerializer(_hook_or_404(request, pk)).data)

    @extend_schema(responses={204: None, **ERRORS}, operation_id="webhook_delete")
    def delete(self, request: Request, pk: int) -> Response:
        """Delete a subscription, with its deliveries and their attempts."""
        services.webhook_delete(webhook=_changeable_or_404(request, pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookPause(APIView):
    @extend_schema(
        request=None, responses={200: s.WebhookSerializer, **ERRORS}, operation_id="webhook_pause"
    )
    def post(self, request: Request, pk: int) -> Response:
        """Pause a subscription: nothing is sent until it is resumed, and what happens
        meanwhile is not delivered."""
        hook = services.webhook_pause(webhook=_changeable_or_404(request, pk))
        return Response(s.WebhookSerializer(hook).data)


class WebhookResume(APIView):
    @extend_schema(
        request=None, responses={200: s.WebhookSerializer, **ERRORS}, operation_id="webhook_resume"
    )
    def post(self, request: Request, pk: int) -> Response:
        """Resume a paused subscription; its pending deliveries are sent."""
        hook = services.webhook_resume(webhook=_changeable_or_404(request, pk))
        return Response(s.WebhookSerializer(hook).data)


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
