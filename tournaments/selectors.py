"""Reading a match's history. Every reader renders events through ``render_event``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import seep_core as sc

from . import matchlog
from .access import is_director
from .models import Match, MatchEvent, MatchSnapshot

#: payload fields that hold unplayed cards, hidden from all but directors until the deal is over
SECRET_FIELDS = {matchlog.DEAL_STARTED: ("deck",)}


def _stored_state(match: Match) -> dict[str, Any] | None:
    state: dict[str, Any] | None = (
        MatchSnapshot.objects.filter(match=match).values_list("state", flat=True).first()
    )
    return state


def match_state(match: Match) -> matchlog.MatchState:
    """Return where the match stands now (from its snapshot, which every append keeps)."""
    snapshot = _stored_state(match)
    if snapshot is None:
        return matchlog.MatchState(match.mode)
    return matchlog.MatchState.from_json(snapshot)


def current_deal(match: Match) -> sc.Deal | None:
    """Return the deal in play (full information: render it with ``seep_core.view``), or None."""
    return match_state(match).deal


def open_deal(match: Match) -> int | None:
    """Return the number of the deal still in play (its cards secret), or None.

    Reads the stored JSON without rebuilding the engine state: the feed calls it per request.
    """
    snapshot = _stored_state(match)
    if snapshot is None:
        return None
    deal = snapshot.get("deal")
    if deal is None or deal.get("phase") in ("over", "redealt"):
        return None
    return int(snapshot["deal_no"])


def render_event(
    event: MatchEvent, viewer: Any, *, director: bool | None = None, secret_deal: Any = ...
) -> dict[str, Any]:
    """Return ``event`` as ``viewer`` may see it (None: the public).

    A deal's deck is shown only to the match's directors until that deal is over. Pass
    ``director`` and ``secret_deal`` (``open_deal(match)``) when rendering many events of one
    match, to look them up once.
    """
    payload = dict(event.payload)
    hidden: list[str] = []
    fields = SECRET_FIELDS.get(event.kind, ())
    if fields and director is None:
        director = is_director(viewer, event.match.tournament)
    if fields and not director:
        if secret_deal is ...:
            secret_deal = open_deal(event.match)
        if payload.get("deal") == secret_deal:
            for name in fields:
                if name in payload:
                    payload[name] = None
                    hidden.append(name)
    out: dict[str, Any] = {
        "seq": event.seq,
        "kind": event.kind,
        "payload": payload,
        "actor": event.actor_id,
        "recorded_at": event.recorded_at.isoformat(),
        "caused_by": event.caused_by,
        "hash": event.hash,
    }
    if hidden:
        out["hidden"] = hidden
    return out


def render_events(match: Match, events: Iterable[MatchEvent], viewer: Any) -> list[dict[str, Any]]:
    """Return ``events`` of ``match`` as ``viewer`` may see them."""
    # Read the events before the open deal: read after, the open deal may be older than a
    # deal_started among them (an append committed in between), whose deck would show.
    events = list(events)
    director = is_director(viewer, match.tournament)
    secret = None if director else open_deal(match)
    return [render_event(e, viewer, director=director, secret_deal=secret) for e in events]


def match_events(match: Match, *, after_seq: int = 0) -> Any:
    """Return the match's events after ``after_seq`` in order (a queryset)."""
    return MatchEvent.objects.filter(match=match, seq__gt=after_seq).order_by("seq")
