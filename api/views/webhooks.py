"""Webhooks: a director's list, registering one, pausing, resuming and deleting it, its
deliveries."""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import services
from ..access import directed_tournaments, get_or_404, require_director, require_signed_in
from ..models import Webhook
from ..serializers import webhooks as s
from ._common import ERRORS, listed, paginate, refuse_unknown


def _hooks(request: Request) -> QuerySet[Webhook]:
    """The subscriptions of the tournaments the caller directs."""
    return Webhook.objects.filter(tournament__in=directed_tournaments(request))


def _hook_or_404(request: Request, pk: int) -> Webhook:
    """Return the subscription ``pk`` of a tournament the caller directs; else 404 (401 for a
    caller signed out)."""
    require_signed_in(request, "sign in to manage webhooks")
    hook: Webhook = get_or_404(_hooks(request).select_related("tournament"), pk)
    return hook


def _changeable_or_404(request: Request, pk: int) -> Webhook:
    """``_hook_or_404``, and the caller may change it (not with a read-only token)."""
    hook = _hook_or_404(request, pk)
    require_director(request, hook.tournament)
    return hook


class Webhooks(APIView):
    @listed(s.WebhookSerializer, "webhooks_list")
    def get(self, request: Request) -> Response:
        require_signed_in(request, "sign in to see webhooks")
        hooks = _hooks(request).order_by("pk")
        return paginate(self, request, hooks, lambda h: s.WebhookSerializer(h).data)

    @extend_schema(request=s.WebhookSerializer, responses={201: s.NewWebhookSerializer, **ERRORS})
    def post(self, request: Request) -> Response:
        from ..webhooks import check_url

        require_signed_in(request, "sign in to manage webhooks")
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
        refuse_unknown(request)
        services.webhook_delete(webhook=_changeable_or_404(request, pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookPause(APIView):
    @extend_schema(
        request=None, responses={200: s.WebhookSerializer, **ERRORS}, operation_id="webhook_pause"
    )
    def post(self, request: Request, pk: int) -> Response:
        """Pause a subscription: nothing is sent until it is resumed, and what happens
        meanwhile is not delivered."""
        refuse_unknown(request)
        hook = services.webhook_pause(webhook=_changeable_or_404(request, pk))
        return Response(s.WebhookSerializer(hook).data)


class WebhookResume(APIView):
    @extend_schema(
        request=None, responses={200: s.WebhookSerializer, **ERRORS}, operation_id="webhook_resume"
    )
    def post(self, request: Request, pk: int) -> Response:
        """Resume a paused subscription; its pending deliveries are sent."""
        refuse_unknown(request)
        hook = services.webhook_resume(webhook=_changeable_or_404(request, pk))
        return Response(s.WebhookSerializer(hook).data)


class WebhookDeliveries(APIView):
    @listed(s.WebhookDeliverySerializer, "webhook_deliveries_list")
    def get(self, request: Request, pk: int) -> Response:
        hook = get_or_404(_hooks(request), pk)
        deliveries = hook.deliveries.prefetch_related("attempt_log").order_by("-created_at", "-id")
        return paginate(self, request, deliveries, lambda d: s.WebhookDeliverySerializer(d).data)
