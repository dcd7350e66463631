"""Times on a tournament's pages in its club's time zone.

A page about one tournament (its public page, its match sheets, the desk, the phone page)
shows times in the zone of the club that runs it (``Club.time_zone``); a page about none, or
a tournament of no club, in the deployment's ``TIME_ZONE``. The zone is activated for the
request by the view that finds the tournament, and every request starts from the default
(``request_started`` below), so one club's zone never leaks into the next request a thread
serves.
"""

from __future__ import annotations

import zoneinfo
from typing import Any

from django.core.signals import request_started
from django.utils import timezone

from tournaments.models import Club, Tournament

from .languages import club_default


def use_club_time(tournament: Tournament) -> None:
    """Show this request's times in the zone of the club running ``tournament``, if any.

    ``tournament.club`` should come with the tournament (``select_related``): no query here.
    """
    club = tournament.club if tournament.club_id is not None else None
    if club is not None:
        use_club_zone(club)


def use_club_zone(club: Club) -> None:
    """Show this request's times in ``club``'s zone (a page about the club itself), and its
    words in the club's language if the browser asked for none of ours."""
    club_default(club)
    try:
        timezone.activate(zoneinfo.ZoneInfo(club.time_zone))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):  # validated on save; kept safe here
        timezone.deactivate()


def _from_the_default(sender: Any, **kwargs: Any) -> None:
    timezone.deactivate()


def connect() -> None:
    """Start every request in the default zone (called once, when the app is ready)."""
    request_started.connect(_from_the_default, dispatch_uid="web.clubtime.reset")
