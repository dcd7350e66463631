"""API tokens: a signed-in user's list, making one, revoking one."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from .. import serializers as s
from .. import services
from ..access import get_or_404, signed_in, token_of
from ..models import ApiToken
from ..problems import Problem
from ..throttling import TokensMadeThrottle
from ._common import ERRORS, PAGE_PARAMS, paged, paginate


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
    services.tokens_prune_expired(user=request.user)


class Tokens(APIView):
    def get_throttles(self) -> list[BaseThrottle]:
        """The caller's rate, and for making one the tokens made (by account and address)."""
        throttles = super().get_throttles()
        if self.request.method == "POST":
            throttles.append(TokensMadeThrottle())
        return throttles

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
        token, text = services.token_create(
            user=request.user,
            name=values["name"],
            tournament=values["tournament"],
            expires_in_days=values["expires_in_days"],
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
        services.token_revoke(token=token)
        return Response(status=status.HTTP_204_NO_CONTENT)
