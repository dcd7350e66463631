"""The accounts a body names (a director, a score-keeper, a player's or a member's account),
each by its id or by the member whose account it is, among the people the caller may name.

A view puts in the serializer's context what may be named: ``accounts`` (a queryset of
accounts, ``tournaments.access.nameable_accounts``: the club's people) and ``members`` (the
club's members). An id outside them, or naming nothing, gets one answer, "no such account
among the club's people": knowing an id grants nothing, not even that it exists. Without
them in the context nothing may be named.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.access import nameable_accounts
from tournaments.models import ID_LIMIT, Player

#: the schema of one account named: an id, or the member whose account it is
PERSON_SCHEMA = {
    "oneOf": [
        {"type": "integer", "minimum": 1, "description": "An account's id."},
        {
            "type": "object",
            "properties": {"member": {"type": "integer", "minimum": 1}},
            "required": ["member"],
            "additionalProperties": False,
            "description": "The member of the club whose account it is.",
        },
    ]
}


def an_id(value: Any, what: str) -> int:
    """Return ``value`` as a row's id, or refuse it (a bool, text, a float, out of range)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value < ID_LIMIT:
        raise serializers.ValidationError(f"{what} is an id (a whole number from 1)")
    return value


def account_named(context: Mapping[str, Any], value: Any) -> Any:
    """Return the account ``value`` names (an id, or ``{"member": id}``) within the context's
    people, or refuse it."""
    if isinstance(value, dict):
        if set(value) != {"member"}:
            raise serializers.ValidationError('an account is an id or {"member": id}')
        number = an_id(value["member"], "a member")
        members = context.get("members")
        member = None if members is None else members.filter(pk=number).first()
        if member is None:
            raise serializers.ValidationError("no such member of the club")
        if member.user_id is None:
            raise serializers.ValidationError(
                f"the member {member.name} has no account: a director or a score-keeper signs in"
            )
        value = member.user_id
    number = an_id(value, "an account")
    accounts = context.get("accounts")
    account = None if accounts is None else accounts.filter(pk=number).first()
    if account is None:
        raise serializers.ValidationError("no such account among the club's people")
    return account


@extend_schema_field(
    {
        **PERSON_SCHEMA,
        "description": "An account: its id, or the member whose account it is "
        '({"member": id}); one of the club\'s people.',
    }
)
class AccountField(serializers.Field):  # type: ignore[type-arg]
    """One account named (written), its id (read)."""

    def to_internal_value(self, data: Any) -> Any:
        return account_named(self.context, data)

    def to_representation(self, value: Any) -> Any:
        return getattr(value, "pk", value)


@extend_schema_field(
    {
        "type": "array",
        "items": PERSON_SCHEMA,
        "description": "Accounts, each by its id or as the member whose account it is "
        '({"member": id}): the club\'s people only. Read back as ids.',
    }
)
class AccountsField(serializers.Field):  # type: ignore[type-arg]
    """Accounts named (written: a list), their ids (read, from a many-to-many)."""

    def to_internal_value(self, data: Any) -> list[Any]:
        if not isinstance(data, list):
            raise serializers.ValidationError("a list of accounts")
        if len(data) > 100:
            raise serializers.ValidationError("at most 100 accounts")
        found = []
        for i, item in enumerate(data):
            try:
                found.append(account_named(self.context, item))
            except serializers.ValidationError as exc:
                raise serializers.ValidationError({str(i): exc.detail}) from exc
        return found

    def to_representation(self, value: Any) -> list[int]:
        return [account.pk for account in value.all()]


def people(
    request: Any, *, tournament: Any = None, club: Any = None, also: Any = None
) -> dict[str, Any]:
    """Return the serializer context naming the people the caller may name in ``tournament``
    (its club's) or in ``club``: ``accounts`` (with ``also``, accounts already named that
    stay choosable, such as a stage's score-keepers) and the club's ``members``."""
    accounts = nameable_accounts(request.user, club=club, tournament=tournament)
    if also is not None:
        accounts = accounts | also
    club_id = tournament.club_id if tournament is not None else getattr(club, "pk", club)
    members = Player.objects.none() if club_id is None else Player.objects.filter(club_id=club_id)
    return {"request": request, "accounts": accounts, "members": members}
