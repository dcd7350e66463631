"""Clubs and their members: the clubs you direct, making one, a club's roster, a member.

Calls ``tournaments.clubs``. Who sees what: a club and its roster, its directors and the
members with an account (the club's people); each member's ``contact``, its directors only.
Anyone else, and a token of another scope, finds no such club (404); a tournament's token
reaches no club at all (403 ``token_scope``).
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import clubs, invites
from tournaments.access import is_club_director, nameable_accounts
from tournaments.models import Club, Player
from tournaments.site import absolute_url

from ..access import (
    get_directed_club,
    get_or_404,
    get_seen_club,
    reach_clubs,
    require_club_director,
    seen_clubs,
)
from ..problems import Problem
from ..serializers import clubs as s
from ._common import ERRORS, listed, paginate, refuse_unknown


def _member_context(request: Request, club: Club | int) -> dict[str, Any]:
    club_id = club.pk if isinstance(club, Club) else club
    return {
        "request": request,
        "directs": is_club_director(request.user, club_id),
        "accounts": nameable_accounts(request.user, club=club_id),
    }


class Clubs(APIView):
    @listed(s.ClubSerializer, "clubs_list")
    def get(self, request: Request) -> Response:
        """The clubs you direct or are a member of."""
        clubs_seen = seen_clubs(request).prefetch_related("directors").order_by("name", "id")
        return paginate(self, request, clubs_seen, lambda c: s.ClubSerializer(c).data)

    @extend_schema(request=s.ClubSerializer, responses={201: s.ClubSerializer, **ERRORS})
    def post(self, request: Request) -> Response:
        """Make a club: you direct it."""
        if reach_clubs(request) is not None:
            raise Problem(
                "a club's token acts in its club: sign in, or make the club by the first-run "
                "command, to make another",
                code="token_scope",
                status_code=403,
            )
        data = s.ClubSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        club = clubs.club_create(
            actor=request.user,
            name=values["name"],
            time_zone=values.get("time_zone", "UTC"),
            language=values.get("language", "en"),
        )
        return Response(s.ClubSerializer(club).data, status=status.HTTP_201_CREATED)


class ClubDetail(APIView):
    @extend_schema(responses={200: s.ClubSerializer, **ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        return Response(s.ClubSerializer(get_seen_club(request, pk)).data)

    @extend_schema(
        request=s.ClubSerializer(partial=True), responses={200: s.ClubSerializer, **ERRORS}
    )
    def patch(self, request: Request, pk: int) -> Response:
        """Rename the club or change its time zone or language (its directors)."""
        club = get_directed_club(request, pk)
        data = s.ClubSerializer(club, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        club = clubs.club_update(
            actor=request.user, club=club, name=values.get("name"),
            time_zone=values.get("time_zone"), language=values.get("language"),
        )  # fmt: skip
        return Response(s.ClubSerializer(club).data)


class ClubMembers(APIView):
    @listed(s.MemberSerializer, "club_members_list")
    def get(self, request: Request, pk: int) -> Response:
        """The club's roster, by name."""
        club = get_seen_club(request, pk)
        context = _member_context(request, club)
        return paginate(
            self,
            request,
            clubs.club_members(club=club),
            lambda m: s.MemberSerializer(m, context=context).data,
        )

    @extend_schema(request=s.MemberSerializer, responses={201: s.MemberSerializer, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        """Add a member (its directors)."""
        club = get_directed_club(request, pk)
        context = _member_context(request, club)
        data = s.MemberSerializer(data=request.data, context=context)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        member = clubs.member_add(
            actor=request.user, club=club, name=values["name"],
            contact=values.get("contact") or "", user=values.get("user"),
        )  # fmt: skip
        return Response(
            s.MemberSerializer(member, context=context).data, status=status.HTTP_201_CREATED
        )


def _member(request: Request, pk: Any) -> tuple[Player, int]:
    """The member with this id if the caller sees its club, and its club's id; else 404."""
    member: Player = get_or_404(Player.objects.filter(club__in=seen_clubs(request)), pk)
    assert member.club_id is not None  # a club's member
    return member, member.club_id


class MemberDetail(APIView):
    @extend_schema(responses={200: s.MemberSerializer, **ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        member, club_id = _member(request, pk)
        context = _member_context(request, club_id)
        return Response(s.MemberSerializer(member, context=context).data)

    @extend_schema(
        request=s.MemberSerializer(partial=True), responses={200: s.MemberSerializer, **ERRORS}
    )
    def patch(self, request: Request, pk: int) -> Response:
        """Rename a member, change their contact or their account (its club's directors)."""
        member, club_id = _member(request, pk)
        require_club_director(request, club_id)
        context = _member_context(request, club_id)
        data = s.MemberSerializer(member, data=request.data, partial=True, context=context)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        changes: dict[str, Any] = {"name": values.get("name")}
        if "contact" in values:
            changes["contact"] = values["contact"] or ""
        if "user" in values:
            changes["user"] = values["user"]
        member = clubs.member_update(actor=request.user, member=member, **changes)
        return Response(s.MemberSerializer(member, context=context).data)


class MemberInvite(APIView):
    @extend_schema(
        request=None,
        responses={
            201: inline_serializer(
                "MemberInvitation",
                {
                    "url": serializers.URLField(
                        help_text="The one-time link the member opens to make their account "
                        "(shown once)."
                    ),
                    "expires_at": serializers.DateTimeField(),
                },
            ),
            **ERRORS,
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        """Invite a member with no account to make one (its club's directors): a one-time
        link that ends the invitations before it (docs/clubs.md, "Accounts")."""
        refuse_unknown(request)
        member, club_id = _member(request, pk)
        require_club_director(request, club_id)
        invite, key = invites.member_invite(actor=request.user, member=member)
        url = absolute_url(request, reverse("web:member-invite", args=[key]))
        return Response(
            {"url": url, "expires_at": invite.expires_at}, status=status.HTTP_201_CREATED
        )


class MemberAccount(APIView):
    @extend_schema(
        request=s.MemberAccountRequest,
        responses={201: s.MemberSerializer, **ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        """Make a member's account (its club's directors), with the user name and password
        given, and link it to them: for a player, or a bot, set up without a web form. The
        director hands the password to the player, who changes it once signed in. Refused
        (422), writing nothing: a member who has an account (``has_account``) or is erased
        (``already_erased``), a user name taken or not allowed, a password the site's
        validators refuse (``bad_account``)."""
        member, club_id = _member(request, pk)
        require_club_director(request, club_id)
        body = s.MemberAccountRequest(data=request.data)
        body.is_valid(raise_exception=True)
        invites.member_account_create(
            actor=request.user,
            member=member,
            username=body.validated_data["username"],
            password=body.validated_data["password"],
        )
        member.refresh_from_db()
        context = _member_context(request, club_id)
        return Response(
            s.MemberSerializer(member, context=context).data, status=status.HTTP_201_CREATED
        )
