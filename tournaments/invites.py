"""Inviting a club's member to make their own account (docs/clubs.md, "Accounts").

A director invites a member who has no account; the invitation is a one-time link (a key of
256 bits from ``secrets``, stored as its SHA-256, shown once) that expires after
``INVITE_DAYS`` days. Whoever opens it chooses a user name and a password: the account is
made and becomes the member's, and the invitation is used. A new invitation of the member
ends the ones before. The member never needed one to play (a team's link does:
docs/links.md). A director may also make the account themselves (``member_account_create``:
the API's ``members/{id}/account/``, for a bot's or a player's account set up without a web
form), handing the password to the player, who changes it.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from .access import is_club_director
from .errors import ClubNotPermitted, InvalidClubData
from .keys import key_hash
from .models import Erasure, MemberInvite, Player

#: how long an invitation stays open
INVITE_DAYS = 14


def _open(key: str) -> Any:
    """The open invitations (not used, not expired) whose key is ``key`` (none for no key)."""
    hashed = key_hash(key)
    if hashed is None:
        return MemberInvite.objects.none()
    return MemberInvite.objects.filter(
        key_hash=hashed, used_at__isnull=True, expires_at__gt=timezone.now()
    )


def member_invite(*, actor: Any, member: Player) -> tuple[MemberInvite, str]:
    """Invite ``member`` (of a club ``actor`` directs, with no account yet) to make one;
    return the invitation and its key (shown once). Earlier open invitations end."""
    if member.club_id is None or not is_club_director(actor, member.club_id):
        raise ClubNotPermitted(gettext("only a director of the member's club may invite them"))
    with transaction.atomic():
        stored = Player.objects.select_for_update(no_key=True).get(pk=member.pk)
        if Erasure.objects.filter(member=stored).exists():  # a person back is a new member
            raise InvalidClubData(_erased(stored), code="already_erased")
        if stored.user_id is not None:
            raise InvalidClubData(
                gettext("%(member)s has an account already: nothing to invite them to")
                % {"member": stored.name},
                code="has_account",
            )
        now = timezone.now()
        MemberInvite.objects.filter(member=stored, used_at__isnull=True, expires_at__gt=now).update(
            expires_at=now
        )
        key = secrets.token_urlsafe(32)
        hashed = key_hash(key)
        assert hashed is not None  # 32 bytes make a key of KEY_LENGTH
        invite = MemberInvite.objects.create(
            member=stored,
            key_hash=hashed,
            created_by=actor if getattr(actor, "pk", None) is not None else None,
            expires_at=now + timedelta(days=INVITE_DAYS),
        )
    return invite, key


def open_invite(key: str) -> MemberInvite | None:
    """Return the open invitation (not used, not expired) whose key is ``key``, or None."""
    invite: MemberInvite | None = _open(key).select_related("member__club").first()
    return invite


def invite_accept(*, key: str, username: str, password: str) -> Any:
    """Make the account an open invitation offers and give it to its member; return it.

    Refused, writing nothing: an invitation used, expired or unknown (``invite_closed``), a
    user name taken or not allowed, a password Django's validators refuse (``bad_account``),
    a member who has an account meanwhile (``has_account``).
    """
    with transaction.atomic():
        invite = _open(key).select_for_update(no_key=True).first()
        if invite is None:
            raise InvalidClubData(
                gettext("this invitation is used, expired or unknown: ask the club for a new one"),
                code="invite_closed",
            )
        member = Player.objects.select_for_update(no_key=True).get(pk=invite.member_id)
        user = _account_for(member, username, password)
        invite.used_at = timezone.now()
        invite.save(update_fields=["used_at"])
    return user


def member_account_create(*, actor: Any, member: Player, username: str, password: str) -> Any:
    """Make an account for ``member`` (of a club ``actor`` directs) with this user name and
    password, and give it to them; return it. For a director who sets up a player's account
    without a web form (a bot's, or a player's who will change the password they are handed:
    docs/clubs.md, "Accounts"). Their open invitations end: the account is made.

    Refused, writing nothing: a member erased (``already_erased``), a member with an account
    (``has_account``), a user name taken or not allowed and a password Django's validators
    refuse (``bad_account``)."""
    if member.club_id is None or not is_club_director(actor, member.club_id):
        raise ClubNotPermitted(
            gettext("only a director of the member's club may make their account")
        )
    with transaction.atomic():
        stored = Player.objects.select_for_update(no_key=True).get(pk=member.pk)
        if Erasure.objects.filter(member=stored).exists():
            raise InvalidClubData(_erased(stored), code="already_erased")
        user = _account_for(stored, username, password)
        now = timezone.now()
        MemberInvite.objects.filter(member=stored, used_at__isnull=True, expires_at__gt=now).update(
            expires_at=now
        )
    return user


def _account_for(member: Player, username: str, password: str) -> Any:
    """Make the account and give it to ``member`` (locked by the caller's transaction)."""
    if member.user_id is not None:
        raise InvalidClubData(
            gettext("%(member)s has an account already") % {"member": member.name},
            code="has_account",
        )
    user = get_user_model()(username=username)
    try:
        user.full_clean(exclude=["password"])
        password_validation.validate_password(password, user)
    except ValidationError as exc:
        raise InvalidClubData(" ".join(exc.messages), code="bad_account") from exc
    user.set_password(password)
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError as exc:  # the same name taken at the same moment
        raise InvalidClubData(gettext("that user name is taken"), code="bad_account") from exc
    member.user = user
    member.save(update_fields=["user"])
    return user


def _erased(member: Player) -> str:
    """The refusal of an account for an erased member."""
    return gettext("%(member)s is erased: an account is never linked to them again") % {
        "member": member.name
    }
