"""Reading a match's history. Everything shown to a person goes through ``render_event``.

What is secret is decided from the log, never from the snapshot (a cache that may be missing
or behind): a deal's deck is hidden from everyone but the match's directors until the log
holds that deal's ``deal_ended`` or a later ``deal_started`` (a deal thrown in under B2 is
never played, so its deck is no secret once the next deal is dealt).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db.models import Max

import seep_core as sc

from . import matchlog
from .access import is_director
from .chain import timestamp
from .models import Match, MatchEvent
from .snapshots import current_state, current_states

#: payload fields that hold unplayed cards, hidden from all but directors until the deal is over
SECRET_FIELDS: dict[str, tuple[str, ...]] = {matchlog.DEAL_STARTED: ("deck",)}
_UNKNOWN: Any = object()


def match_state(match: Match | int) -> matchlog.MatchState:
    """Return where the match stands now (full information: for directors and the server)."""
    return current_state(match)


def match_states(matches: Iterable[Match]) -> dict[int, matchlog.MatchState]:
    """Return where each of ``matches`` stands now, by id, in one query (full information:
    for directors and the server; a board of 128 tables reads them all at once)."""
    return current_states([m.pk for m in matches])


def current_deal(match: Match | int) -> sc.Deal | sc.TableDeal | None:
    """Return the deal in play (full information: render it with ``seep_core.view``), or None."""
    return match_state(match).deal


def match_position(
    match: Match,
    *,
    seats: Sequence[int] = (),
    director: bool = False,
    state: matchlog.MatchState | None = None,
) -> dict[str, Any]:
    """Return the match's position as one viewer may see it, with their legal moves.

    The caller decides who the viewer is: ``seats``, the seats (0-3) they sit at in the log
    (``access.seats_in``; none for a spectator), and ``director``, whether they direct the
    tournament (a director sees every card). The viewer's seat is the first of ``seats``;
    the deal is shown as ``seep_core.view`` shows it to that seat (the public view for no
    seat), and the legal moves are listed only when one of ``seats`` is to play. The API's
    ``state/`` and the seat page both read it. ``state``: the match's state, when the
    caller has read it already (to find the seats in it).
    """
    if state is None:
        state = match_state(match)
    seat = seats[0] if seats else None
    deal = state.deal
    if deal is None:
        position = None
    elif director:
        position = deal.to_dict()
    else:
        position = sc.view(deal, seat)
    legal = None
    if deal is not None and seat is not None and deal.to_play in seats:
        legal = sc.legal_moves(deal)
    progress = state.progress
    return {
        "match": match.pk,
        "status": state.status,
        "mode": state.mode,
        "last_seq": match.last_seq,
        "deal": state.deal_no,
        "seat": seat,
        "position": position,
        "legal_moves": legal,
        # Score entry with confirmation: the next deal's entries awaiting an answer
        # (provisional: they count once confirmed), and whether the director has it.
        "confirmation": state.confirmation,
        "entries": [
            {"entry": e.number, "side": e.side, "by": e.actor, **e.result()} for e in state.entries
        ],
        "disputed": state.disputed,
        "progress": None
        if progress is None
        else {
            "dealer": progress.dealer,
            "deals": progress.deals,
            "difference": progress.difference,
            "bazzis": list(progress.bazzis),
            "over": progress.over,
            "winner_side": progress.winner,
            "winner": progress.winner,  # deprecated: winner_side (docs/api-changelog.md)
        },
    }


def open_deal(match: Match | int) -> int | None:
    """Return the number of the deal whose cards are still secret, as the log says, or None.

    The deal in play is the last one dealt, unless the log has scored it since. One indexed
    query, read from the end of the match's log.
    """
    match_id = match.pk if isinstance(match, Match) else match
    last = (
        MatchEvent.objects.filter(
            match_id=match_id, kind__in=(matchlog.DEAL_STARTED, matchlog.DEAL_ENDED)
        )
        .order_by("-seq")
        .values_list("kind", "payload__deal")
        .first()
    )
    if last is None or last[0] != matchlog.DEAL_STARTED:
        return None
    return int(last[1])


def render_event(
    event: MatchEvent,
    viewer: Any,
    *,
    director: bool | None = None,
    secret_deal: Any = _UNKNOWN,
) -> dict[str, Any]:
    """Return ``event`` as ``viewer`` may see it (None: the public).

    A deal's deck is shown only to the match's directors until that deal is over. Pass
    ``director`` and ``secret_deal`` (``open_deal(match)``, read after the events) when
    rendering many events of one match, to look them up once.
    """
    payload = dict(event.payload)
    hidden: list[str] = []
    fields = SECRET_FIELDS.get(event.kind, ())
    if fields:
        if secret_deal is _UNKNOWN:
            secret_deal = open_deal(event.match_id)
        if payload.get("deal") == secret_deal:
            if director is None:
                director = is_director(viewer, event.match.tournament_id)
            if not director:
                for name in fields:
                    if name in payload:
                        payload[name] = None
                        hidden.append(name)
    # Every field the chain hashes, in the form it hashes it (docs/events.md, "The hash
    # chain"), so anyone who may read the log can check it: all but a hidden deck's event.
    out: dict[str, Any] = {
        "seq": event.seq,
        "kind": event.kind,
        "payload": payload,
        "actor": event.actor_id,
        "recorded_at": timestamp(event.recorded_at),
        "idempotency_key": event.idempotency_key,
        "caused_by": event.caused_by,
        "request_digest": event.request_digest,
        "via": event.via,
        "hash": event.hash,
    }
    if hidden:
        out["hidden"] = hidden
    return out


def render_events(
    match: Match,
    events: Iterable[MatchEvent],
    viewer: Any,
    *,
    secret_deal: Any = _UNKNOWN,
    director: bool | None = None,
) -> list[dict[str, Any]]:
    """Return ``events`` of ``match`` as ``viewer`` may see them.

    ``secret_deal``: the deal still secret, when the caller knows it from the log it holds
    (the append service, inside its transaction); otherwise read from the log here.
    ``director``: whether the viewer directs the match's tournament, when the caller knows.
    """
    # Read the events before the open deal: read after, the open deal is at least as recent
    # as any deal_started among them (the log only grows), so no deck of a deal still in play
    # can show. Read before, an append committed in between could slip a new deck past it.
    events = list(events)
    if secret_deal is _UNKNOWN:
        needs_secret = any(e.kind in SECRET_FIELDS for e in events)
        secret_deal = open_deal(match) if needs_secret else None
    if (
        director is None
        and secret_deal is not None
        and any(e.kind in SECRET_FIELDS and e.payload.get("deal") == secret_deal for e in events)
    ):
        director = is_director(viewer, match.tournament_id)
    return [
        render_event(e, viewer, director=bool(director), secret_deal=secret_deal) for e in events
    ]


def match_events(match: Match, *, after_seq: int = 0) -> Any:
    """Return the match's events after ``after_seq`` in order (a queryset)."""
    return MatchEvent.objects.filter(match=match, seq__gt=after_seq).order_by("seq")


def disputed_deals(*, tournament_id: int, match_id: int | None = None) -> list[dict[str, Any]]:
    """Return the tournament's deals awaiting a director's decision (or only match
    ``match_id``'s, if it is the tournament's), oldest first.

    A deal is the director's when the other team rejected an entry, or the two sides' entries
    differ (docs/events.md, "Score mode with confirmation"), until the table settles it
    itself (an entry withdrawn, the other version accepted). Each item: the match, the deal's
    number, the entries (number, side, author, points, sweeps, total) and the rejections
    (entry, author, reason, their own version if they gave one), read from the log.
    """
    out = []
    matches = Match.objects.filter(
        tournament_id=tournament_id, status=matchlog.IN_PROGRESS, mode=matchlog.SCORE
    ).exclude(confirmation=matchlog.Confirmation.NONE)
    if match_id is not None:
        matches = matches.filter(pk=match_id)
    # Only a match with a rejection or a dispute since its last counted deal can be the
    # director's (a deal_ended is what settles one): two grouped queries find them, so the
    # state is read for those few, not for every match of a 256-team round.
    flagged = dict(
        MatchEvent.objects.filter(
            match__in=matches,
            kind__in=(matchlog.Kind.DEAL_REJECTED, matchlog.Kind.DEAL_DISPUTED),
        )
        .values("match")
        .annotate(last=Max("seq"))
        .values_list("match", "last")
    )
    settled = dict(
        MatchEvent.objects.filter(match__in=list(flagged), kind=matchlog.DEAL_ENDED)
        .values("match")
        .annotate(last=Max("seq"))
        .values_list("match", "last")
    )
    waiting = [match for match, seq in flagged.items() if seq > settled.get(match, 0)]
    for match in matches.filter(pk__in=waiting).select_related("team0", "team1").order_by("pk"):
        state = match_state(match)
        if not state.disputed:
            continue
        last_counted = settled.get(match.pk, 0)  # its last counted deal, read above
        # an entry its team withdrew takes its rejection with it (entry numbers are never
        # given twice in a deal): only the dispute standing now is the director's
        standing = {e.number for e in state.entries}
        rejections = [
            {"entry": e.payload["entry"], "by": e.actor_id, "at": e.recorded_at, **e.payload}
            for e in MatchEvent.objects.filter(
                match=match, kind=matchlog.Kind.DEAL_REJECTED, seq__gt=last_counted
            ).order_by("seq")
            if e.payload["entry"] in standing
        ]
        out.append(
            {
                "match": match,
                "deal": state.deal_no + 1,
                "entries": [
                    {"entry": e.number, "side": e.side, "by": e.actor, **e.result()}
                    for e in state.entries
                ],
                "rejections": rejections,
            }
        )
    return out
