"""API tokens: a signed-in user's list, making one, renewing one, revoking one; and a club's
token's, itself and the tokens it made (``api.services.token_create`` says what a token may
make). Tokens made and renewed are counted per account and per club (``TokensMadeThrottle``)."""

from __future__ import annotations

from django.db.models import Q, QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import services
from ..access import get_or_404, refuse_tournament_token, require_write_token
from ..models import ApiToken
from ..serializers import tokens as s
from ..throttling import TokensMadeThrottle
from ._common import ERRORS, listed, paginate, refuse_unknown


def _manager(request: Request) -> ApiToken | None:
    """Refuse whoever may not manage tokens: the anonymous (401), a tournament's token (403
    ``token_scope``); return the club's token the request came with, if any."""
    token = refuse_tournament_token(
        request,
        signed_out="sign in to manage tokens",
        scoped="a tournament's token manages no tokens: sign in, or use a club's token",
    )
    # The user's expired tokens go here (api.auth refuses each one when it is presented).
    services.tokens_prune_expired(user=request.user)
    return token


def _managed(request: Request, token: ApiToken | None) -> QuerySet[ApiToken]:
    """The tokens the caller manages: a session, every token of its user; a club's token,
    those it made."""
    tokens = ApiToken.objects.filter(user=request.user)
    return tokens if token is None else tokens.filter(made_by=token)


class Tokens(APIView):
    @listed(s.TokenSerializer, "tokens_list")
    def get(self, request: Request) -> Response:
        """Your tokens (a club's token: those it made), without their secrets."""
        tokens = _managed(request, _manager(request)).order_by("-created", "id")
        return paginate(self, request, tokens, lambda t: s.TokenSerializer(t).data)

    @extend_schema(request=s.TokenSerializer, responses={201: s.TokenSerializer, **ERRORS})
    def post(self, request: Request) -> Response:
        """Make a token: its secret is in this answer only."""
        made_by = _manager(request)
        if made_by is not None:
            require_write_token(request)
        data = s.TokenSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        values = data.validated_data
        club = values.get("club")  # or else a tournament (the serializer wants one of them)
        club_id = club.pk if club is not None else values["tournament"].club_id
        TokensMadeThrottle().refuse_over_rate(request, club_id)
        token, text = services.token_create(
            user=request.user,
            name=values["name"],
            tournament=values.get("tournament"),
            club=values.get("club"),
            expires_in_days=values["expires_in_days"],
            write=values.get("write", False),
            made_by=made_by,
        )
        out = dict(s.TokenSerializer(token).data)
        out["token"] = text
        return Response(out, status=status.HTTP_201_CREATED)


class TokenDetail(APIView):
    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request: Request, pk: int) -> Response:
        """Revoke a token (and those it made)."""
        refuse_unknown(request)
        made_by = _manager(request)
        if made_by is not None:
            require_write_token(request)
        token = get_or_404(_managed(request, made_by), pk)
        services.token_revoke(token=token)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenRenew(APIView):
    @extend_schema(request=s.TokenRenewSerializer, responses={200: s.TokenSerializer, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        """Renew a token: a new secret (in this answer only; the old one is refused from now
        on) and a new expiry, ``expires_in_days`` from now (default 30, at most 366; a token
        made by a token: no later than it). A session renews any of its tokens; a club's token
        that may write, itself and those it made."""
        made_by = _manager(request)
        if made_by is not None:
            require_write_token(request)
        body = s.TokenRenewSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        if made_by is None:
            managed = _managed(request, None)
        else:  # what it made, and itself: a club's token renewed without a browser
            managed = ApiToken.objects.filter(Q(pk=made_by.pk) | Q(made_by=made_by))
        token = get_or_404(managed.select_related("tournament"), pk)
        club_id = token.club_id if token.tournament is None else token.tournament.club_id
        TokensMadeThrottle().refuse_over_rate(request, club_id)
        token, text = services.token_renew(
            token=token, expires_in_days=body.validated_data["expires_in_days"]
        )
        out = dict(s.TokenSerializer(token).data)
        out["token"] = text
        return Response(out)
