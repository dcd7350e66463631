"""Quotas per club: how many tournaments a month, teams a tournament, members, webhooks and
tokens a club may hold, how fast its tokens may call the API, and how many live streams of its
tournaments a push process holds open (docs/deploy.md, "Quotas").

Each limit is the club's own (``models.ClubQuota``, set by the site's operator in the admin)
or else the site's default (the ``QUOTA_*`` settings). The services that make the rows check
them inside their own transaction, the count read under a lock (``lock``: the club's row, or
a row already locked that serializes the same makers), so two requests at once cannot both
take the last place; a refusal is ``errors.QuotaExceeded`` (code ``quota_exceeded``), naming
the limit, and nothing is written. The counts of the API's rows (webhooks, tokens) are the
API's own (``api.services``): this module gives their limits and the words.
"""

from __future__ import annotations

import datetime
import time
import zoneinfo
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from .errors import QuotaExceeded
from .models import Club, ClubQuota, Player, Team, Tournament

#: each quota: its field of ``ClubQuota`` (and key), its setting, and what it counts (words)
KINDS: dict[str, tuple[str, Any]] = {
    "tournaments_per_month": (
        "QUOTA_TOURNAMENTS_PER_MONTH",
        gettext_lazy("tournaments made this month"),
    ),
    "teams_per_tournament": ("QUOTA_TEAMS_PER_TOURNAMENT", gettext_lazy("teams a tournament")),
    "members": ("QUOTA_MEMBERS", gettext_lazy("members")),
    "webhooks": ("QUOTA_WEBHOOKS", gettext_lazy("webhooks")),
    "tokens": ("QUOTA_TOKENS", gettext_lazy("API tokens")),
    "api_rate": ("QUOTA_API_RATE", gettext_lazy("API requests a minute")),
    "push_streams": ("QUOTA_PUSH_STREAMS", gettext_lazy("live streams open at once")),
}


@dataclass(frozen=True)
class Use:
    """One quota of a club as its desk shows it: ``used`` of ``limit`` (``used`` None: not a
    count held in the database, a rate or the streams of a push process)."""

    kind: str
    words: str
    limit: int
    used: int | None


def limits(club_id: int) -> dict[str, int]:
    """Return every limit of the club: its own where its operator set one, else the site's."""
    own = ClubQuota.objects.filter(club_id=club_id).values(*KINDS).first() or {}
    return {
        kind: own[kind] if own.get(kind) is not None else int(getattr(settings, setting))
        for kind, (setting, _) in KINDS.items()
    }


def limit(club_id: int, kind: str) -> int:
    """Return one limit of the club (``KINDS``)."""
    own = ClubQuota.objects.filter(club_id=club_id).values_list(kind, flat=True).first()
    return int(own) if own is not None else int(getattr(settings, KINDS[kind][0]))


#: limits read lately, by (club, kind): (read at, limit); for the checks of every request
_remembered: dict[tuple[int, str], tuple[float, int]] = {}
#: how long a limit read for a request's check is trusted (an operator's change takes this)
REMEMBER_SECONDS = 30.0


def limit_lately(club_id: int, kind: str) -> int:
    """``limit``, remembered by this process for up to ``REMEMBER_SECONDS``: for the checks
    made on every request (the API's rate, a stream's admission), which must not each cost a
    query."""
    now = time.monotonic()
    kept = _remembered.get((club_id, kind))
    if kept is not None and now - kept[0] < REMEMBER_SECONDS:
        return kept[1]
    if len(_remembered) > 10_000:
        _remembered.clear()
    found = limit(club_id, kind)
    _remembered[(club_id, kind)] = (now, found)
    return found


#: the clubs of tournaments looked up lately: (read at, club)
_clubs: dict[int, tuple[float, int | None]] = {}


def club_lately(tournament_id: int) -> int | None:
    """Return the club of a tournament (None: of none), remembered by this process for up to
    ``REMEMBER_SECONDS``, as ``limit_lately``."""
    now = time.monotonic()
    kept = _clubs.get(tournament_id)
    if kept is not None and now - kept[0] < REMEMBER_SECONDS:
        return kept[1]
    if len(_clubs) > 10_000:
        _clubs.clear()
    found = Tournament.objects.filter(pk=tournament_id).values_list("club_id", flat=True).first()
    _clubs[tournament_id] = (now, found)
    return found


def streams_quota(tournament_id: int) -> tuple[str, int] | None:
    """Return the quota a live stream of the tournament counts against in a push process
    (``live.StreamResponse.quota``): its club's, and its limit; None for a tournament of no
    club."""
    club_id = club_lately(tournament_id)
    if club_id is None:
        return None
    return f"club {club_id}", limit_lately(club_id, "push_streams")


def lock(club_id: int) -> None:
    """Lock the club's row until the transaction ends (``FOR NO KEY UPDATE``: a new row that
    refers to the club still commits), so the makers of its rows count one at a time."""
    Club.objects.select_for_update(no_key=True).filter(pk=club_id).values_list("pk").first()


def require_room(*, club_id: int, kind: str, used: int, adding: int = 1) -> None:
    """Refuse (``QuotaExceeded``) ``adding`` more of ``kind`` to a club holding ``used``,
    when that would pass its limit; the refusal names the limit, its value and the count."""
    most = limit(club_id, kind)
    if used + adding > most:
        raise QuotaExceeded(
            gettext(
                "this club's quota of %(quota)s is %(limit)s, and it holds %(used)s: "
                "ask the site's operator for more"
            )
            % {"quota": KINDS[kind][1], "limit": most, "used": used},
            quota=kind,
            limit=most,
            used=used,
        )


def month_start(club: Club, now: datetime.datetime | None = None) -> datetime.datetime:
    """Return when the calendar month of ``now`` began in the club's time zone."""
    zone = zoneinfo.ZoneInfo(club.time_zone)
    local = timezone.localtime(now or timezone.now(), zone)
    return local.replace(day=1, hour=0, minute=0, second=0, microsecond=0)


def tournaments_this_month(club: Club) -> int:
    """Return how many tournaments of the club were made this month (its time zone's)."""
    return Tournament.objects.filter(club=club, created_at__gte=month_start(club)).count()


def require_tournament_room(*, club: Club) -> None:
    """Lock the club and refuse a tournament more than its quota of the month allows."""
    lock(club.pk)
    require_room(club_id=club.pk, kind="tournaments_per_month", used=tournaments_this_month(club))


def require_team_room(*, tournament: Tournament) -> None:
    """Refuse one more team in ``tournament`` than its club's quota allows. The caller holds
    the tournament's row locked (every registration does): the count cannot move meanwhile."""
    if tournament.club_id is not None:
        used = Team.objects.filter(tournament_id=tournament.pk).count()
        require_room(club_id=tournament.club_id, kind="teams_per_tournament", used=used)


def require_member_room(*, club_id: int | None) -> None:
    """Lock the club and refuse one more member than its quota allows (no club: no quota)."""
    if club_id is not None:
        lock(club_id)
        used = Player.objects.filter(club_id=club_id).count()
        require_room(club_id=club_id, kind="members", used=used)


#: what the apps above count of a club (``count_with``): kind -> counter(club id)
_counters: dict[str, Callable[[int], int]] = {}


def count_with(kind: str, counter: Callable[[int], int]) -> None:
    """Have ``counter(club_id)`` say how much of ``kind`` a club holds, for rows an app above
    keeps (the API's webhooks and tokens: this layer cannot read them). Registered once, in
    ``ready``."""
    _counters[kind] = counter


def usage(club: Club) -> list[Use]:
    """Return each quota of the club with what it holds of it (the desk's table: for teams,
    its largest tournament's; the counts of the apps above from their ``count_with``)."""
    largest = (
        Team.objects.filter(tournament__club=club)
        .values("tournament")
        .annotate(n=Count("pk"))
        .order_by("-n")
        .values_list("n", flat=True)
        .first()
    )
    held = {
        "tournaments_per_month": tournaments_this_month(club),
        "teams_per_tournament": largest or 0,
        "members": Player.objects.filter(club=club).count(),
        **{kind: counter(club.pk) for kind, counter in _counters.items()},
    }
    return [
        Use(kind, str(words), most, held.get(kind))
        for (kind, (_, words)), most in zip(KINDS.items(), limits(club.pk).values(), strict=True)
    ]
