"""What a refusal means over HTTP: one map from its kind to a status and a title, read by the
API, the phone pages and the desk alike (docs/architecture.md, "A refusal over HTTP").

A refusal's kind is its class (the store's ``tournaments.errors``, the competition's
``competition.errors``, the clubs', the engine's ``SeepError``); its ``code`` says which
refusal of that kind it is. The status is decided from the kind alone, here, so the same
refusal answers the same status whichever way it came in. What each surface adds (the API's
``rule`` and ``current_seq``, a page's words for a player) is its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from http import HTTPStatus

import seep_core as sc
from tournaments import errors as store

from . import errors
from .corrections import ConfirmationRequired


@dataclass(frozen=True)
class Refusal:
    """How a kind of refusal answers over HTTP: ``status``, and ``title`` (the status's own
    phrase when None: the API's problem documents have always said so)."""

    kind: type[Exception]
    status: int
    title: str | None
    meaning: str

    @property
    def words(self) -> str:
        """The refusal's title, or its status's phrase."""
        return self.title or HTTPStatus(self.status).phrase


#: every kind of refusal, the most particular first: a refusal answers as the first row it is
#: an instance of (each family's base, last of its rows, catches the kinds it has no row for)
REFUSALS: tuple[Refusal, ...] = (
    Refusal(store.MatchNotFound, 404, "Not found", "no match has that id"),
    Refusal(store.NotPermitted, 403, "Not permitted", "the actor may not append this to it"),
    Refusal(store.StaleSequence, 409, "Stale expected_seq", "someone appended first"),
    Refusal(store.MatchStateConflict, 409, "Not now", "the match cannot take it now"),
    Refusal(
        store.IdempotencyKeyReused, 422, "Idempotency key reused", "the key was sent with another"
    ),
    Refusal(store.MoveRefused, 422, "Illegal move", "the engine refused the move or result"),
    Refusal(store.StoreUnavailable, 503, "Unavailable", "nothing was written: send it again"),
    Refusal(store.CommandRefused, 400, "Bad request", "not something this match takes"),
    Refusal(store.AppendRefused, 400, "Bad request", "any other refusal of an append"),
    Refusal(ConfirmationRequired, 409, "Confirmation required", "a later round was built on it"),
    Refusal(errors.NotPermitted, 403, "Not permitted", "the actor does not direct it"),
    Refusal(errors.NotNow, 409, "Not now", "right request, wrong moment"),
    Refusal(errors.DraftEditRefused, 422, "Pairing constraint", "a draft edit breaks a rule"),
    Refusal(errors.InvalidSettings, 422, "Invalid settings", "settings the formats cannot take"),
    Refusal(errors.CompetitionRefused, 422, None, "any other refusal of the competition"),
    Refusal(store.RateQuotaExceeded, 429, "Quota exceeded", "over the club's rate: wait"),
    Refusal(store.QuotaExceeded, 409, "Quota exceeded", "the club's quota has no room for it"),
    Refusal(store.ClubSuspended, 403, "Club suspended", "the site's operator suspended the club"),
    Refusal(store.ClubNotPermitted, 403, None, "the actor does not direct the club"),
    Refusal(store.ClubRefused, 422, None, "a club's or a member's details refused"),
    Refusal(store.SeatRefused, 409, "Seat held", "the seat is held, or this phone holds one"),
    Refusal(sc.SeepError, 422, None, "the engine refused it (with its rule)"),
)
#: what the kinds above have in common: anything else is not a refusal
ROOTS: tuple[type[Exception], ...] = (
    store.AppendRefused,
    errors.CompetitionRefused,
    store.ClubRefused,
    store.SeatRefused,
    sc.SeepError,
)


def refusal_of(refused: BaseException | type[BaseException]) -> Refusal | None:
    """Return how a refusal (or a kind of refusal) answers over HTTP, or None if it is no
    refusal of ours."""
    kind = refused if isinstance(refused, type) else type(refused)
    return next((r for r in REFUSALS if issubclass(kind, r.kind)), None)


def status_of(refused: BaseException | type[BaseException]) -> int:
    """Return the HTTP status of a refusal of ours, or of a kind of refusal."""
    found = refusal_of(refused)
    if found is None:
        raise TypeError(f"{refused!r} is not a refusal")
    return found.status
