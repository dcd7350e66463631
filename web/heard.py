"""A table's phones heard from (docs/web.md, "The room"): each request a team's phone makes
about its match in play says it is there, with the entries it holds unsent if it says so
(``X-Unsent-Entries``), written by ``tournaments.phones.heard`` after the request's read."""

from __future__ import annotations

from django.db import transaction
from django.http import HttpRequest

from tournaments import phones
from tournaments.models import Match

#: the header through which a team's phone says how many entries it holds unsent (the
#: installable phone app's queue): ``X-Unsent-Entries: 2``
UNSENT_HEADER = "X-Unsent-Entries"


def unsent_said(request: HttpRequest) -> int | None:
    """Return the number of unsent entries the phone said, or None (said nothing, or no
    number: ASCII digits, six at most)."""
    said = request.headers.get(UNSENT_HEADER, "").strip()
    return int(said) if said.isascii() and said.isdigit() and len(said) <= 6 else None


def heard_from(request: HttpRequest, match: Match, side: int) -> None:
    """Write down that ``side``'s phone at ``match``'s table was heard from: after the
    request's transaction (a page's read is, on PostgreSQL, a READ ONLY one), at once when
    there is none; robust, so a phone's request never fails for its last-heard time."""
    unsent = unsent_said(request)
    transaction.on_commit(
        lambda: phones.heard(
            match_id=match.pk, side=side, tournament_id=match.tournament_id, unsent=unsent
        ),
        robust=True,
    )
