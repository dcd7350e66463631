"""A member's data: its export and its erasure (docs/privacy.md).

Who may ask: a director of the member's club, or the member themself (signed in with the
account linked to them, or a token of it). Anyone else who sees the club is refused (403
``forbidden``); one who does not finds no such member (404). A member's own erasure is done
at once, as a director's is: it is theirs to ask, and nothing waits on anyone.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from seasons import privacy
from tournaments.models import Player

from ..access import get_or_404, require_write_token, seen_clubs
from ..problems import Problem
from ._common import ERRORS, refuse_unknown

ErasureSerializer = inline_serializer(
    "MemberErasure",
    {
        "id": serializers.IntegerField(),
        "member": serializers.IntegerField(help_text="The member's id: the row stays."),
        "club": serializers.IntegerField(),
        "label": serializers.CharField(help_text='The name shown now ("Erased member 17").'),
        "at": serializers.DateTimeField(),
        "by_member": serializers.BooleanField(help_text="The member asked for their own."),
    },
)


def _asked(request: Request, pk: int) -> Player:
    """The member with this id, if the caller sees its club (else 404) and may ask for its
    data: a director of the club, or the member (else 403 ``forbidden``)."""
    member: Player = get_or_404(
        Player.objects.filter(club__in=seen_clubs(request)).select_related("club", "user"), pk
    )
    if not privacy.may_ask(request.user, member):
        raise Problem(
            "only a director of the club, or the member, may ask for a member's data",
            code="forbidden",
            status_code=403,
        )
    return member


class MemberExport(APIView):
    @extend_schema(responses={200: OpenApiTypes.OBJECT, **ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        """Everything the club keeps about a member (its directors, or the member): their
        details, teams, matches and deals, evenings, rating and its history (docs/privacy.md)."""
        return Response(privacy.export_member(_asked(request, pk)))


class MemberErase(APIView):
    @extend_schema(request=None, responses={200: ErasureSerializer, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        """Erase a member's name, contact and account link (its directors, or the member):
        shown as "Erased member N" from now on; their matches, results and ratings stay, by
        id (docs/privacy.md). A member erased already: 422 ``already_erased``."""
        refuse_unknown(request)  # it takes no body (docs/api.md: an unknown field is refused)
        member = _asked(request, pk)  # a member the caller does not see: 404 first
        require_write_token(request)
        erasure = privacy.erase_member(actor=request.user, member=member)
        return Response(
            {
                "id": erasure.pk,
                "member": member.pk,
                "club": erasure.club_id,
                "label": member.name,
                "at": erasure.at,
                "by_member": erasure.by_member,
            }
        )
