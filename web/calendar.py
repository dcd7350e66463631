"""A club's evenings as an iCalendar file (RFC 5545), for a phone's or a computer's calendar.

One VEVENT an evening: each published tournament of the club (a private one is never listed),
on its date, or, undated, on the club's date it was made on (the day its ratings and ladders
count it on: ``tournaments.clubdate``). An evening has a day and no time of day, so it is an
all-day event (``DTSTART;VALUE=DATE``, and ``DTEND`` the next day), shown on that day in every
time zone: no VTIMEZONE is needed, and none is written. Its UID is the tournament's id, stable
whatever is renamed, so a calendar that subscribed updates the event in place.

The text follows the RFC to the letter: CRLF line ends, lines folded at 75 octets (never
inside a UTF-8 character), and in text values ``\\``, ``;``, ``,`` and a line break escaped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from tournaments.clubdate import club_date
from tournaments.models import Club, Tournament

#: the longest line, in octets, without its CRLF (RFC 5545, 3.1)
LINE_OCTETS = 75
PRODID = "-//Seep tournaments//Club evenings//EN"
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


def escape_text(value: str) -> str:
    r"""Return ``value`` as an iCalendar TEXT value: ``\``, ``;``, ``,`` escaped, each line
    break as ``\n``, and no other control character (the RFC allows none but a tab).

    >>> print(escape_text("Aces; Kings, \\ and\nQueens"))
    Aces\; Kings\, \\ and\nQueens
    """
    value = value.replace("\r\n", "\n").replace("\r", "\n")
    value = value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
    value = value.replace("\n", "\\n")
    return _CONTROL.sub("", value)


def fold(line: str) -> str:
    """Return a content line folded at :data:`LINE_OCTETS` octets: each further part on its
    own line after CRLF and one space (which counts), never splitting a UTF-8 character."""
    parts: list[str] = []
    current: list[str] = []
    size, limit = 0, LINE_OCTETS
    for char in line:
        octets = len(char.encode())
        if size + octets > limit:
            parts.append("".join(current))
            current, size, limit = [], 0, LINE_OCTETS - 1
        current.append(char)
        size += octets
    parts.append("".join(current))
    return "\r\n ".join(parts)


@dataclass(frozen=True)
class Evening:
    """One evening of the club, as its calendar event says it."""

    uid: str
    day: date
    summary: str
    url: str
    location: str
    stamp: datetime  # when it was made (UTC): the event's DTSTAMP


def _utc(at: datetime) -> str:
    return at.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def calendar_text(name: str, evenings: Iterable[Evening]) -> str:
    """Return the iCalendar file of ``evenings``, a calendar called ``name``."""
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        f"PRODID:{PRODID}",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{escape_text(name)}",
    ]
    for e in evenings:
        lines += [
            "BEGIN:VEVENT",
            f"UID:{e.uid}",
            f"DTSTAMP:{_utc(e.stamp)}",
            f"DTSTART;VALUE=DATE:{e.day:%Y%m%d}",
            f"DTEND;VALUE=DATE:{e.day + timedelta(days=1):%Y%m%d}",
            f"SUMMARY:{escape_text(e.summary)}",
            *([f"URL:{e.url}"] if e.url else []),
            *([f"LOCATION:{escape_text(e.location)}"] if e.location else []),
            "TRANSP:TRANSPARENT",
            "END:VEVENT",
        ]
    lines.append("END:VCALENDAR")
    return "".join(fold(line) + "\r\n" for line in lines)


def club_evenings(club: Club, pages: str) -> list[Evening]:
    """Return the club's published evenings, oldest first (``pages``: the address of the
    tournaments' public pages, to which a slug and ``/`` are added)."""
    rows: Sequence[Tournament] = list(
        Tournament.objects.filter(club=club, published=True).only(
            "pk", "name", "slug", "date", "place", "created_at"
        )
    )
    evenings = [
        Evening(
            uid=f"evening-{t.pk}@seep",
            day=t.date or club_date(club.time_zone, t.created_at),
            summary=t.name,
            url=f"{pages}{t.slug}/",
            location=t.place,
            stamp=t.created_at,
        )
        for t in rows
    ]
    return sorted(evenings, key=lambda e: (e.day, e.stamp, e.uid))
