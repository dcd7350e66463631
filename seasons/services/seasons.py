"""A club's seasons and its choices for them: the writes its directors make."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from tournaments.access import is_club_director
from tournaments.errors import ClubNotPermitted, InvalidClubData
from tournaments.models import Club, Player
from tournaments.privacy import own

from ..models import ClubSeasons, RatingPrivacy, Season


def _require_director(actor: Any, club: Club | int) -> None:
    if not is_club_director(actor, club):
        raise ClubNotPermitted(gettext("only a director of this club may do this"))


def _checked(row: Season | ClubSeasons) -> None:
    try:
        row.full_clean()
    except ValidationError as exc:
        messages = [m for field in exc.message_dict.values() for m in field]
        raise InvalidClubData("; ".join(messages), code="bad_season") from exc


def club_seasons_update(
    *, actor: Any, club: Club, public: bool | None = None, settled_after: int | None = None
) -> ClubSeasons:
    """Say whether anyone may see the club's ladder, rating list and member pages, and after
    how many rated matches a rating is settled (None: as it was). All or nothing."""
    _require_director(actor, club)
    with transaction.atomic():
        settings, _ = ClubSeasons.objects.select_for_update(no_key=True).get_or_create(club=club)
        if public is not None:
            settings.public = bool(public)
        if settled_after is not None:
            settings.settled_after = settled_after
        _checked(settings)
        settings.save()
    return settings


def season_create(
    *,
    actor: Any,
    club: Club,
    name: str,
    starts_on: date,
    ends_on: date,
    rule: str = Season.Rule.PLACES,
    points: list[int] | None = None,
    best: int | None = None,
) -> Season:
    """Make a season of the club (points by default: 10, 8, 6, 5, 4, 3, 2, 1 by place)."""
    _require_director(actor, club)
    if points is None:
        points = [3] if rule == Season.Rule.WINS else [10, 8, 6, 5, 4, 3, 2, 1]
    season = Season(
        club=club, name=" ".join((name or "").split()), starts_on=starts_on, ends_on=ends_on,
        rule=rule, points=points, best=best,
    )  # fmt: skip
    _checked(season)
    season.save()
    return season


def season_update(*, actor: Any, season: Season, **fields: Any) -> Season:
    """Change a season's name, dates, rule, points or best N, all or nothing."""
    _require_director(actor, season.club_id)
    unknown = sorted(set(fields) - {"name", "starts_on", "ends_on", "rule", "points", "best"})
    if unknown:
        raise InvalidClubData(
            gettext("unknown season field(s): %(names)s") % {"names": ", ".join(unknown)},
            code="bad_season",
        )
    with transaction.atomic():
        locked = Season.objects.select_for_update(no_key=True).get(pk=season.pk)
        for field, value in fields.items():
            setattr(locked, field, " ".join(value.split()) if field == "name" else value)
        _checked(locked)
        locked.save()
    return locked


def season_delete(*, actor: Any, season: Season) -> None:
    """Remove a season (its ladder is computed, so nothing else goes with it)."""
    _require_director(actor, season.club_id)
    season.delete()


def member_rating_privacy_update(*, actor: Any, member: Player, hidden: bool) -> RatingPrivacy:
    """Say whether ``member``'s rating is kept from the club's public page and API (the member
    themself, or a director of their club). One row, written whole or not at all."""
    if member.club_id is None:
        raise InvalidClubData(gettext("only a club's member has a rating"), code="bad_season")
    if not (own(actor, member) or is_club_director(actor, member.club_id)):
        raise ClubNotPermitted(gettext("only the member or a director of their club may do this"))
    if not isinstance(hidden, bool):
        raise InvalidClubData(gettext("hidden: true or false"), code="bad_season")
    with transaction.atomic():
        choice, _ = RatingPrivacy.objects.select_for_update(no_key=True).get_or_create(
            player=member, defaults={"changed_at": timezone.now()}
        )
        choice.hidden = hidden
        choice.changed_at = timezone.now()
        choice.changed_by = actor if getattr(actor, "is_authenticated", False) else None
        choice.save()
    return choice
