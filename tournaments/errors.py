"""Why an append was refused: one error family, each with a stable code (and a rule id for moves).

A second family, ``ClubRefused``, says why a change to a club or its roster was refused.

Pure Python (no Django), so the match log fold, the services and the API share it. The kind of
refusal is the class; what it means over HTTP (403, 404, 409, 422, 503) is the API layer's
business, decided there from the class alone.
"""

from __future__ import annotations


class Refused(Exception):
    """A request that changed nothing: ``message`` in a person's words, ``code`` stable.

    The base of every app's refusals (appends, clubs, the competition's), so each is told
    apart by its class and read the same way.
    """

    def __init__(self, message: str, *, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


class AppendRefused(Refused):
    """An append that wrote nothing. ``code`` is stable; ``rule`` is a docs/rules.md id or None."""

    def __init__(self, message: str, *, code: str, rule: str | None = None) -> None:
        super().__init__(message, code=code)
        self.rule = rule


class CommandRefused(AppendRefused):
    """The request is not something this match takes: a bad payload, kind, key or mode."""


class MatchStateConflict(CommandRefused):
    """The match cannot take the command now: not started yet, started already, or over."""


class MoveRefused(AppendRefused):
    """The engine refused the move or the deal result: illegal (with its rule id) or malformed."""


class StaleSequence(AppendRefused):
    """``expected_seq`` is not the head of the log: someone appended first."""

    def __init__(self, *, expected_seq: int, current_seq: int) -> None:
        super().__init__(
            f"expected_seq {expected_seq} is stale: the match is at seq {current_seq}",
            code="stale_expected_seq",
        )
        self.expected_seq = expected_seq
        self.current_seq = current_seq


class IdempotencyKeyReused(AppendRefused):
    """The idempotency key was used before for a different request."""

    def __init__(self) -> None:
        super().__init__(
            "this Idempotency-Key was used for a different request on this match",
            code="idempotency_key_reused",
        )


class NotPermitted(AppendRefused):
    """The actor may not append this to this match."""


class MatchNotFound(AppendRefused):
    """There is no match with that id."""

    def __init__(self, match_id: object) -> None:
        super().__init__(f"there is no match {match_id!r}", code="match_not_found")
        self.match_id = match_id


class StoreUnavailable(AppendRefused):
    """The database could not take the append now (a timeout, a lost connection); try again.

    Nothing was written: the transaction rolled back.
    """


# --- A seat of a digital match, claimed by a phone (``tournaments.seats``) ---------------


class SeatRefused(Refused):
    """A phone's claim of a seat that changed nothing: another phone holds it (code
    ``seat_held``), or this phone holds the partner's seat already (``one_seat_a_phone``)."""


# --- Clubs and their members (``tournaments.clubs``) -------------------------------------


class ClubRefused(Refused):
    """A request about a club or its members that changed nothing. ``code`` is stable."""


class ClubNotPermitted(ClubRefused):
    """The actor does not direct this club (code ``forbidden``)."""

    def __init__(self, message: str, *, code: str = "forbidden") -> None:
        super().__init__(message, code=code)


class InvalidClubData(ClubRefused):
    """A club's or a member's details the model refuses (codes ``bad_club``, ``bad_member``)."""


# --- A club's quotas (``tournaments.quotas``) --------------------------------------------


class QuotaExceeded(ClubRefused):
    """A row the club's quota has no room for (code ``quota_exceeded``): ``quota`` names the
    limit (``tournaments_per_month``, ``teams_per_tournament``, ``members``, ``webhooks``,
    ``tokens``), ``limit`` is its value and ``used`` what the club holds of it."""

    def __init__(self, message: str, *, quota: str, limit: int, used: int) -> None:
        super().__init__(message, code="quota_exceeded")
        self.quota, self.limit, self.used = quota, limit, used


class ClubSuspended(ClubRefused):
    """The site's operator suspended the club: nothing new is made for it (code
    ``club_suspended``; its pages and API answer so: deploy/suspension.py)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code="club_suspended")


class RateQuotaExceeded(QuotaExceeded):
    """A request over the club's rate (``api_rate``: its tokens' requests a minute, together):
    nothing was done; ``retry_after`` is the seconds until the minute's count starts again."""

    def __init__(self, message: str, *, limit: int, retry_after: int) -> None:
        super().__init__(message, quota="api_rate", limit=limit, used=limit)
        self.retry_after = retry_after
