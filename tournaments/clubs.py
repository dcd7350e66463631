"""Clubs and their rosters: the services that change them and the selectors that read them.

A club (``models.Club``) is run by its directors and has members (``models.Player``, shown as
"member"): one row per person, which every team they play in points at, in every tournament
of the club, so a rename is made once and shows everywhere (docs/clubs.md).

Every write checks its actor with ``access.is_club_director`` and refuses with
``errors.ClubNotPermitted`` (code ``forbidden``); details the models refuse are
``errors.InvalidClubData`` (codes ``bad_club``, ``bad_member``). A refused call writes
nothing. Arguments are keyword-only.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.db.models import QuerySet
from django.utils.text import slugify
from django.utils.translation import gettext

from . import quotas
from .access import SYSTEM, is_club_director
from .display_names import display_name
from .errors import ClubNotPermitted, InvalidClubData
from .models import Club, Player

#: the longest name or contact a club or a member may have (the columns' size)
TEXT_MAX = 200
#: how many slugs ``club_create`` tries when another club takes its first choice meanwhile
SLUG_TRIES = 5


# --- Selectors ----------------------------------------------------------------------------


def name_key(name: str) -> str:
    """Return ``name`` as names are compared: case and spacing ignored.

    >>> name_key("  Asha   RAO ") == name_key("asha rao")
    True
    """
    return " ".join(name.split()).casefold()


def club_members(*, club: Club) -> QuerySet[Player]:
    """Return the club's members, by name."""
    return Player.objects.filter(club=club).select_related("user").order_by("name", "id")


def members_named(*, club: Club, name: str) -> list[Player]:
    """Return the club's members called ``name``, case and spacing ignored (by name, then id):
    whether a typed name is a member already, and which ones when two share it."""
    key = name_key(name)
    if not key:
        return []
    return [member for member in club_members(club=club) if name_key(member.name) == key]


# --- Services -----------------------------------------------------------------------------


def club_create(*, actor: Any, name: str, time_zone: str = "UTC", language: str = "en") -> Club:
    """Create a club directed by ``actor``, its slug made from the name (unique: ``-2``…);
    ``language`` (one of ``settings.LANGUAGES``) is its pages' when a browser asks for none."""
    if not _person(actor):
        raise ClubNotPermitted(gettext("sign in to create a club"))
    name = _text(name, what=gettext("a club's name"), code="bad_club", required=True)
    if not isinstance(time_zone, str):
        raise InvalidClubData(_not_a_time_zone(), code="bad_club")
    if not isinstance(language, str):
        raise InvalidClubData(_not_a_language(), code="bad_club")
    base = slugify(name)[:90].strip("-") or "club"
    for attempt in range(SLUG_TRIES):
        club = Club(name=name, slug=_free_slug(base), time_zone=time_zone, language=language)
        _checked(club, code="bad_club")
        try:
            with transaction.atomic():
                club.save()
                club.directors.add(actor)
        except IntegrityError:  # another club took the slug between the check and the save
            if attempt == SLUG_TRIES - 1:
                raise
            continue
        return club
    raise AssertionError("unreachable")  # pragma: no cover


def club_for(user: Any) -> Club:
    """Return the club ``user`` directs (the oldest, if several); with none, create
    "<display name>'s club" with them as its director (never their user name, which its
    name and its slug would show to everyone: tournaments.display_names)."""
    if not _person(user):
        raise ClubNotPermitted(gettext("sign in to have a club"))
    with transaction.atomic():
        # One at a time per user (PostgreSQL): two first requests make one club, not two.
        list(
            get_user_model().objects.select_for_update(no_key=True).filter(pk=user.pk).values("pk")
        )
        club = Club.objects.filter(directors=user).order_by("created_at", "id").first()
        if club is None:
            club = club_create(actor=user, name=f"{display_name(user)}'s club")
    return club


def club_update(
    *,
    actor: Any,
    club: Club,
    name: str | None = None,
    time_zone: str | None = None,
    language: str | None = None,
) -> Club:
    """Rename a club or change its time zone or its language (``None``: unchanged); its slug
    stays (its pages' addresses). The language is one of ``settings.LANGUAGES``."""
    _require_director(actor, club)
    changes: dict[str, str] = {}
    if name is not None:
        changes["name"] = _text(name, what=gettext("a club's name"), code="bad_club", required=True)
    if time_zone is not None:
        if not isinstance(time_zone, str):
            raise InvalidClubData(_not_a_time_zone(), code="bad_club")
        changes["time_zone"] = time_zone
    if language is not None:
        if not isinstance(language, str):
            raise InvalidClubData(_not_a_language(), code="bad_club")
        changes["language"] = language
    with transaction.atomic():
        stored = Club.objects.select_for_update(no_key=True).get(pk=club.pk)
        for field, value in changes.items():
            setattr(stored, field, value)
        _checked(stored, code="bad_club")
        if changes:
            stored.save(update_fields=list(changes))
    return stored


def member_add(*, actor: Any, club: Club, name: str, contact: str = "", user: Any = None) -> Player:
    """Add a member called ``name`` (stripped) to ``club``; ``user`` is the account they sign
    in with, if any (one member of the club an account: refused if another has it); refused
    (``QuotaExceeded``) past the club's quota of members, counted under the club's lock."""
    _require_director(actor, club)
    if user is not None:
        _account_free(club.pk, user, member=None)
    member = Player(
        club=club,
        name=_text(name, what="a member's name", code="bad_member", required=True),
        contact=_text(contact, what="a member's contact", code="bad_member"),
        user=user,
    )
    _checked(member, code="bad_member")
    with transaction.atomic():
        quotas.require_member_room(club_id=club.pk)
        member.save()
    return member


#: ``member_update``'s ``user`` when the account is left as it is
UNCHANGED: Any = object()


def member_update(
    *,
    actor: Any,
    member: Player,
    name: str | None = None,
    contact: str | None = None,
    user: Any = UNCHANGED,
) -> Player:
    """Rename a member, change their contact (``None``: unchanged) or their account (``None``:
    none; ``UNCHANGED`` by default). One row: every team the member plays in shows the new
    name, in every tournament.

    An account already playing as the member stays in the logs of the matches it played
    (who sat where is the log's, docs/clubs.md); the next match started seats the new one."""
    if member.club_id is None:
        raise InvalidClubData(
            gettext("%(member)s is a member of no club") % {"member": member}, code="bad_member"
        )
    _require_director(actor, member.club_id)
    changes: dict[str, str] = {}
    if name is not None:
        changes["name"] = _text(
            name, what=gettext("a member's name"), code="bad_member", required=True
        )
    if contact is not None:
        changes["contact"] = _text(contact, what=gettext("a member's contact"), code="bad_member")
    if user is not UNCHANGED:
        changes["user"] = user
    with transaction.atomic():
        stored = Player.objects.select_for_update(no_key=True).get(pk=member.pk)
        if stored.club_id != member.club_id:  # moved meanwhile: check against where it is
            raise ClubNotPermitted(
                gettext("%(member)s is no longer a member of that club") % {"member": member}
            )
        if user is not UNCHANGED and user is not None:
            _account_free(member.club_id, user, member=stored)
        for field, value in changes.items():
            setattr(stored, field, value)
        _checked(stored, code="bad_member")
        if changes:
            stored.save(update_fields=list(changes))
    for field, value in changes.items():
        setattr(member, field, value)
    return stored


# --- Helpers ------------------------------------------------------------------------------


def _not_a_time_zone() -> str:
    return gettext("a time zone is an IANA name such as Asia/Kolkata")


def _not_a_language() -> str:
    return gettext("a language is a code such as hi or ur")


def _person(actor: Any) -> bool:
    """Whether ``actor`` is an active signed-in user (not the server, not anonymous)."""
    return (
        actor is not None
        and actor is not SYSTEM
        and bool(getattr(actor, "is_authenticated", False))
        and bool(actor.is_active)
    )


def _require_director(actor: Any, club: Club | int) -> None:
    if not is_club_director(actor, club):
        raise ClubNotPermitted(gettext("only a director of the club may change its members"))


def _account_free(club_id: int, user: Any, *, member: Player | None) -> None:
    """Refuse an account another member of the club has already: one person, one row."""
    other = Player.objects.filter(club_id=club_id, user=user)
    if member is not None:
        other = other.exclude(pk=member.pk)
    taken = other.order_by("pk").first()
    if taken is not None:
        raise InvalidClubData(
            gettext(
                "the account %(account)s is already the member %(member)s (no. %(number)s) of "
                "this club: one person is one member"
            )
            % {"account": user.get_username(), "member": taken.name, "number": taken.pk},
            code="bad_member",
        )


def _text(value: object, *, what: str, code: str, required: bool = False) -> str:
    """Return ``value`` stripped; refuse what is not text, empty when required, too long, or
    holding control characters (which no name or contact has, and PostgreSQL refuses NUL)."""
    if not isinstance(value, str):
        raise InvalidClubData(gettext("%(what)s is text") % {"what": what}, code=code)
    value = value.strip()
    if required and not value:
        raise InvalidClubData(gettext("%(what)s cannot be empty") % {"what": what}, code=code)
    if len(value) > TEXT_MAX:
        raise InvalidClubData(
            gettext("%(what)s is at most %(most)s characters (this one has %(length)s)")
            % {"what": what, "most": TEXT_MAX, "length": len(value)},
            code=code,
        )
    if any(unicodedata.category(char) in {"Cc", "Cs"} for char in value):
        raise InvalidClubData(
            gettext("%(what)s holds a control character") % {"what": what}, code=code
        )
    return value


def _free_slug(base: str) -> str:
    """Return ``base``, or ``base-2``, ``base-3``… the first no club has."""
    taken = set(Club.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    slug, n = base, 1
    while slug in taken:
        n += 1
        slug = f"{base}-{n}"
    return slug


def _label(obj: models.Model, field: str) -> str:
    return str(getattr(obj._meta.get_field(field), "verbose_name", field))


def _checked(obj: models.Model, *, code: str) -> None:
    """Run the model's full_clean; refuse with its messages, each naming its field."""
    try:
        obj.full_clean()
    except ValidationError as exc:
        words = []
        for field, messages in exc.message_dict.items():
            label = "" if field == "__all__" else _label(obj, field)
            words += [
                message if not label or label in message.lower() else f"{label}: {message}"
                for message in messages
            ]
        raise InvalidClubData("; ".join(words), code=code) from exc
