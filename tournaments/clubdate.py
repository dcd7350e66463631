"""The club's date: the one calendar its ratings, drift, ladders and undated evenings read.

A club plays in its own time zone (``Club.time_zone``), so "today" and the day a match ended
are the club's, not the server's (UTC): a member's drift, the rating list's ranks, the
season running now and the day of an undated evening are the same in the API and on the
pages, whatever the hour (docs/seasons.md, "The club's date").
"""

from __future__ import annotations

import zoneinfo
from datetime import date, datetime, tzinfo

from django.utils import timezone

from tournaments.models import Club


def zone_of(time_zone: str) -> tzinfo:
    """Return the zone of this IANA name (UTC for a name this machine does not know: a club's
    zone is checked on save, this only keeps a read from failing)."""
    try:
        return zoneinfo.ZoneInfo(time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def club_today(club: Club) -> date:
    """Return today's date where the club plays."""
    return timezone.now().astimezone(zone_of(club.time_zone)).date()


def club_date(time_zone: str, at: datetime) -> date:
    """Return the date where a club of zone ``time_zone`` plays at the moment ``at``."""
    return at.astimezone(zone_of(time_zone)).date()
