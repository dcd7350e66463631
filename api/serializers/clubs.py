"""A club's shapes: the club, and a member of it (their contact for its directors only)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.models import Club

from ..accounts import AccountField
from ._common import Strict, StrictModel, UserRef


class ClubSerializer(StrictModel):
    directors = UserRef(many=True, read_only=True)
    time_zone = serializers.CharField(
        max_length=64,
        required=False,
        help_text="An IANA time zone name (Asia/Kolkata); its tournaments' pages show times in "
        "it. Default UTC.",
    )
    language = serializers.ChoiceField(
        choices=[code for code, _ in Club._meta.get_field("language").choices or ()],
        required=False,
        help_text="The language (en, hi, pa, ur, bn) its pages show in when the browser asks "
        "for none of these. Default en.",
    )

    class Meta:
        model = Club
        fields = ["id", "name", "slug", "time_zone", "language", "directors", "created_at"]
        read_only_fields = ["id", "slug", "directors", "created_at"]


class MemberSerializer(Strict):
    """A member of a club. ``contact`` is shown to the club's directors only (anyone else who
    sees the member gets null)."""

    id = serializers.IntegerField(read_only=True)
    club = serializers.IntegerField(source="club_id", read_only=True)
    name = serializers.CharField(max_length=200)
    contact = serializers.CharField(
        max_length=200,
        required=False,
        allow_null=True,
        allow_blank=True,
        help_text="A phone number or e-mail, to tell two members of one name apart (its "
        "directors only).",
    )
    user = AccountField(
        required=False,
        allow_null=True,
        help_text="The account they sign in with, if any (one of the club's people: its "
        "directors, its members' accounts, yours). A member plays without one.",
    )

    def to_representation(self, member: Any) -> dict[str, Any]:
        return {
            "id": member.pk,
            "club": member.club_id,
            "name": member.name,
            "contact": member.contact if self.context.get("directs") else None,
            "user": member.user_id,
        }


class MemberAccountRequest(Strict):
    """The body of ``POST /members/{id}/account/``: the new account's user name and password
    (the site's password validators decide; the password is never shown again)."""

    username = serializers.CharField(max_length=150, help_text="The user name it signs in with.")
    password = serializers.CharField(
        write_only=True,
        trim_whitespace=False,
        max_length=4096,
        help_text="Its first password: hand it to the player, who changes it.",
    )
