"""Writing a match's history: the one append service every writer goes through."""

from __future__ import annotations

import functools
import logging
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import DataError, IntegrityError, InterfaceError, OperationalError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

import live
import seep_core as sc

from . import appendsql, matchlog, receipts, snapshots
from .access import SYSTEM, LinkActor, is_director, is_scorekeeper, seat_lineup, seats_in
from .chain import GENESIS, canonical_json, event_hash, request_digest, stored_event_hash
from .errors import (
    CommandRefused,
    IdempotencyKeyReused,
    MatchNotFound,
    MatchStateConflict,
    MoveRefused,
    NotPermitted,
    StaleSequence,
    StoreUnavailable,
)
from .models import ID_LIMIT, Match, MatchEvent, Team, Tournament
from .rawsql import as_health_check
from .selectors import render_events
from .signals import log_appended
from .snapshots import canonical_digest, rebuild_snapshot

log = logging.getLogger(__name__)

#: the longest Idempotency-Key accepted (the column's size)
MAX_KEY_LENGTH = MatchEvent._meta.get_field("idempotency_key").max_length or 200
#: how big and how deep a command's payload may be (a move or a deal result is far smaller)
MAX_PAYLOAD_ITEMS = 1_000
MAX_PAYLOAD_DEPTH = 8
MAX_STRING_LENGTH = 1_000


@dataclass(frozen=True)
class AppendResult:
    """What one append wrote (the command first), rendered for its actor, and the head after it.

    ``events`` are dicts as ``selectors.render_event`` shows them to the actor: nothing leaves
    the service unrendered.
    """

    events: list[dict[str, Any]]
    last_seq: int
    replayed: bool  # True: an idempotent retry, answered with the original events


def match_create(
    *,
    tournament: Tournament,
    team0: Team,
    team1: Team,
    mode: str,
    match_format: dict[str, Any] | None = None,
    first_dealer: int | None = None,
    confirmation: str = matchlog.Confirmation.NONE,
) -> Match:
    """Create a scheduled match; it records the tournament's rules as they are now."""
    match = Match(
        tournament=tournament,
        team0=team0,
        team1=team1,
        mode=mode,
        rules=None,
        match_format=match_format,
        first_dealer=first_dealer,
        confirmation=confirmation,
    )
    match.full_clean()
    match.save()
    return match


def match_reassign(*, match: Match, team0: Team | None, team1: Team | None) -> Match | None:
    """Change who plays a match that has not started; with a team unknown, discard it.

    Who sits where is fixed by ``match_started``: a match with any event keeps its teams
    (MatchStateConflict). Returns the match, or None when it was discarded (it had no
    history to keep).
    """
    with transaction.atomic():
        locked = Match.objects.select_for_update(no_key=True).get(pk=match.pk)
        if locked.last_seq:
            raise MatchStateConflict(
                gettext("match %(match)s has begun: its teams are fixed") % {"match": locked.pk},
                code="match_started",
            )
        if team0 is None or team1 is None:
            locked.delete()
            return None
        locked.team0, locked.team1 = team0, team1
        locked.full_clean()
        locked.save(update_fields=["team0", "team1"])
        return locked


def match_append_event(
    *,
    match: Match | int,
    expected_seq: int,
    kind: str,
    payload: Any,
    actor: Any,
    idempotency_key: str | None = None,
    shuffle: matchlog.Shuffle = matchlog.secure_deck,
    via: str = "",
    gate: Callable[[Match, bool], None] | None = None,
) -> AppendResult:
    """Append a command (and the events it causes) to a match's log, or refuse and write nothing.

    In one transaction: lock the match; read its snapshot (after the lock, so it is the one the
    last append committed) and trust it only if it proves to be at the head, else rebuild it
    from the log; check the actor may make this request; answer a repeated
    ``idempotency_key`` with the original events; check ``expected_seq`` against the head of
    the log (StaleSequence); validate by folding the command through seep_core (IllegalMove
    keeps its rule id); write the events, chained by hash, the new snapshot, and the match's
    receipt if it ended. The scoring projection is scheduled after the commit, never before.
    The lock and reads, and the writes, are fixed SQL of two round trips on PostgreSQL
    (``tournaments.appendsql``), or one when this process made the match's last append: the
    append is then decided on the row and state that append left, and written only if the
    server finds under the lock that they still hold (``_append_held``).

    ``actor`` is a user (anonymous included) or ``access.SYSTEM``, the server itself. Every
    refusal is an ``errors.AppendRefused`` with a stable code.

    ``gate``: the caller's own check, run on the row just locked (the match with its
    tournament's id, slug, organizer and whether it is published), and whether the actor is
    among the tournament's added directors, before anything else about the match is decided;
    it refuses by raising (whatever it raises propagates, and nothing is written). The API
    decides there whether the caller may see the match at all, so an append reads it once.
    """
    return _append_request(
        match, expected_seq, kind, payload, actor, idempotency_key, shuffle, via, gate,
        matchlog.COMMANDS,
    )  # fmt: skip


def match_call_off(*, match: Match | int, reason: str, actor: Any, via: str = "") -> AppendResult:
    """Call off a match in which nothing was recorded: its log ends with ``match_called_off``
    and its status is ``called_off`` (a round taken back: ``competition.round_unpublish``,
    which decides who may). Refused, writing nothing, once anything was recorded in it."""
    match_id = _match_id(match)
    head = Match.objects.filter(pk=match_id).values_list("last_seq", flat=True).first()
    if head is None:
        raise MatchNotFound(match_id)
    return _append_request(
        match_id, head, matchlog.Kind.MATCH_CALLED_OFF, {"reason": reason}, actor, None,
        matchlog.secure_deck, via, None, matchlog.SERVICE_COMMANDS,
    )  # fmt: skip


def _append_request(
    match: Match | int,
    expected_seq: int,
    kind: str,
    payload: Any,
    actor: Any,
    idempotency_key: str | None,
    shuffle: matchlog.Shuffle,
    via: str,
    gate: Callable[[Match, bool], None] | None,
    kinds: tuple[str, ...],
) -> AppendResult:
    match_id = _match_id(match)
    _check_request(kind, payload, expected_seq, idempotency_key, kinds)
    digest = request_digest(kind, payload, expected_seq)
    via = via[:40]
    try:
        alone = appendsql.autocommitting()
        kept = snapshots.recent.get(match_id) if alone else None
        if kept is not None and kept[4] is not None:
            # Not inside a transaction: the one-trip append is one statement, a transaction
            # of its own, so it needs none of Django's around it. The statement is also the
            # connection's health check; sending it twice is safe, as the second names the
            # head the first moved if it committed, and so writes nothing.
            held = functools.partial(
                _append_held, kept, expected_seq, kind, payload, actor, _actor_id(actor),
                idempotency_key, digest, shuffle, via, gate,
            )  # fmt: skip
            done = as_health_check(held)
            if done is not None:
                return done
        with transaction.atomic():
            return _append(
                match_id, expected_seq, kind, payload, actor, idempotency_key, digest, shuffle,
                via, gate, held=not alone,
            )  # fmt: skip
    except IntegrityError as exc:
        # Only a racing writer that slipped past the lock (or a duplicate key) gets here.
        current = Match.objects.values_list("last_seq", flat=True).get(pk=match_id)
        log.warning("append to match %s lost a race: %s", match_id, exc)
        raise StaleSequence(expected_seq=expected_seq, current_seq=current) from exc
    except DataError as exc:  # a value the checks above let through and the database refused
        log.warning("append to match %s refused by the database: %s", match_id, exc)
        raise CommandRefused(
            gettext("the request holds a value the store cannot take"), code="bad_value"
        ) from exc
    except (OperationalError, InterfaceError) as exc:  # a timeout, a deadlock, a lost link
        log.warning("append to match %s could not be written now: %s", match_id, exc)
        raise StoreUnavailable(
            gettext("the match could not be written just now; nothing was recorded, try again"),
            code="store_unavailable",
        ) from exc


def _append(
    match_id: int,
    expected_seq: int,
    kind: str,
    payload: Any,
    actor: Any,
    idempotency_key: str | None,
    digest: str,
    shuffle: matchlog.Shuffle,
    via: str,
    gate: Callable[[Match, bool], None] | None,
    *,
    held: bool = True,
) -> AppendResult:
    # The hot path's reads and writes are fixed SQL in two round trips (appendsql's doc), or
    # one, on the row and state this process holds from its last append to the match (tried
    # here when ``held``: else the caller tried it, outside the transaction).
    actor_id = _actor_id(actor)
    kept = snapshots.recent.get(match_id)
    if held and kept is not None and kept[4] is not None:
        done = _append_held(
            kept, expected_seq, kind, payload, actor, actor_id, idempotency_key, digest,
            shuffle, via, gate,
        )  # fmt: skip
        if done is not None:
            return done
    known = None if kept is None else kept[2]
    read = appendsql.read_locked(match_id, actor_id, idempotency_key, known)
    if read is None:
        raise MatchNotFound(match_id)
    locked = read.match
    if gate is not None:
        gate(locked, read.listed_director)
    state = snapshots.state_at_head(locked, kept, read.snapshot, _tail_reader(read))
    # the snapshot the append is decided on (None: none, or rebuilt: then written again)
    snapshot_digest = None if read.snapshot is None else read.snapshot[2]
    if state is None:
        state = rebuild_snapshot(locked) if locked.last_seq else matchlog.MatchState(locked.mode)
        snapshot_digest = None
    director = is_director(actor, locked.tournament, listed=read.listed_director)
    _authorize(locked, state, actor, kind, payload, director=director)
    via = _via(actor, locked, via)
    if idempotency_key is not None and read.keyed_seq is not None:
        original = _original_result(locked, idempotency_key, digest, actor)
        if original is not None:
            return original
    if expected_seq != locked.last_seq:
        raise StaleSequence(expected_seq=expected_seq, current_seq=locked.last_seq)
    players: tuple[int, ...] = ()
    users: tuple[int | None, ...] = ()
    if kind == matchlog.MATCH_STARTED:  # who sits where is read once, and the log keeps it
        seated_players, seated_users = seat_lineup(locked)
        players, users = tuple(seated_players), tuple(seated_users)
    try:
        planned, new_state = matchlog.plan(
            state, _setup(locked, players, users), kind, payload,
            actor=_author(actor, locked), shuffle=shuffle,
        )  # fmt: skip
    except sc.SeepError as exc:
        raise MoveRefused(exc.message, code=exc.code, rule=exc.rule) from exc
    events = _write(
        locked, planned, actor, idempotency_key, digest, new_state, via, commit=read.began,
        base=read.held, snapshot_digest=snapshot_digest,
    )  # fmt: skip
    assert events is not None  # only a guarded write may write nothing
    return _appended(locked, events, new_state, actor, director)


def _tail_reader(read: appendsql.Locked) -> snapshots.TailReader:
    """What reads the events after a snapshot (or a kept state) for the append: the ones the
    locked read sent with the snapshot, if they reach back far enough; else the table's, under
    the lock (the kept state's seq is the snapshot's or later, so that is rare)."""
    match = read.match

    def tail(start: int) -> snapshots.Tail:
        if read.tail and read.tail[0][0] <= start:
            return read.tail
        return snapshots.events_from(match.pk, start, match.last_seq)

    return tail


def _actor_id(actor: Any) -> int | None:
    """The user the event records (None: the server, or a team's link)."""
    return None if actor is SYSTEM else getattr(actor, "pk", None)


def _author(actor: Any, match: Match) -> int | None:
    """Who the planner and the fold take the author to be: the user's id, or a team link's
    author (its side: ``matchlog.link_author``)."""
    if isinstance(actor, LinkActor):
        side = actor.side_in(match)
        return None if side is None else matchlog.link_author(side)
    return _actor_id(actor)


def _via(actor: Any, match: Match, via: str) -> str:
    """The way in the event records: the caller's, or, for a team's link, the link and the
    side it acts for (what the fold reads the author from on every replay)."""
    if isinstance(actor, LinkActor):
        side = actor.side_in(match)
        assert side is not None  # _authorize refused a link of neither team
        return matchlog.link_via(side, actor.link_id, actor.on_phone, actor.on_table)
    if via.startswith(matchlog.LINK_VIA):  # only a link's own append may say so
        return f"not-{via}"[:40]
    return via


def _setup(
    match: Match, players: tuple[int, ...] = (), users: tuple[int | None, ...] = ()
) -> matchlog.MatchSetup:
    """What the planner takes of the match (the seats only for its start)."""
    return matchlog.MatchSetup(
        match.mode, match.rules, match.match_format, match.first_dealer, players, users,
        match.confirmation,
    )  # fmt: skip


def _appended(
    match: Match,
    events: list[MatchEvent],
    state: matchlog.MatchState,
    actor: Any,
    director: bool,
) -> AppendResult:
    """Schedule the projection after the commit; return the events written, as the actor sees
    them."""
    match_id = match.pk
    # robust: a broker that is down must not fail an append that has committed (the scoring
    # catch-up sends it later). Not a functools.partial: Django 5.2 logs a failed robust
    # callback by its __qualname__, which a partial does not have.
    transaction.on_commit(lambda: _schedule_projection(match_id), robust=True)
    # the pages' and the API's streams of the match, and the director's board (after the
    # commit, as the projection's task)
    live.publish(live.Topic.LOG, match_id, tournament=match.tournament_id)
    open_deal = state.deal_no if _deal_in_play(state) else None
    shown = render_events(match, events, actor, secret_deal=open_deal, director=director)
    return AppendResult(shown, events[-1].seq, replayed=False)


def _append_held(
    kept: snapshots.Kept,
    expected_seq: int,
    kind: str,
    payload: Any,
    actor: Any,
    actor_id: int | None,
    idempotency_key: str | None,
    digest: str,
    shuffle: matchlog.Shuffle,
    via: str,
    gate: Callable[[Match, bool], None] | None,
) -> AppendResult | None:
    """Append in one round trip, deciding on the match row and state this process holds; or
    return None, having written nothing, for the caller to append the two-trip way.

    The append is decided as ``_append`` decides it, on what ``kept`` holds (the state at
    the head this process last wrote, the snapshot's digest, and the match's row as that
    write left it); the write then checks under the lock that the row, the snapshot and the
    director flag are still those and that no event holds the key (``appendsql.write_held``).
    Whatever would refuse or answer otherwise (a refusal, a stale ``expected_seq``, a key to
    look up, a start that reads the seats, an end that writes a receipt) is decided again
    the two-trip way on the row as locked, and says what that decides: so the first append
    of a process to a match, and any append after a change to the row, take two trips.
    """
    head, _, snapshot_digest, state, held = kept
    if held is None or expected_seq != head or kind == matchlog.MATCH_STARTED:
        return None  # stale, or a start (who sits where is read once, the two-trip way)
    locked = held.match()
    listed = held.listed(actor_id)
    try:
        if gate is not None:
            gate(locked, listed)
        director = is_director(actor, locked.tournament, listed=listed)
        _authorize(locked, state, actor, kind, payload, director=director)
        via = _via(actor, locked, via)
        planned, new_state = matchlog.plan(
            state, _setup(locked), kind, payload, actor=_author(actor, locked), shuffle=shuffle
        )
    except Exception:  # decided again, and raised, on the row as locked
        return None
    if planned[-1][0] == matchlog.MATCH_ENDED:
        return None  # its receipt is written the two-trip way
    guard = appendsql.Guard(held, actor_id, idempotency_key, snapshot_digest, listed)
    events = _write(
        locked, planned, actor, idempotency_key, digest, new_state, via, guard=guard,
        snapshot_digest=snapshot_digest,
    )  # fmt: skip
    if events is None:
        return None
    return _appended(locked, events, new_state, actor, director)


def _match_id(match: Any) -> int:
    if isinstance(match, Match):
        return int(match.pk)
    if type(match) is not int or not 1 <= match < ID_LIMIT:
        raise MatchNotFound(match)
    return match


def _check_request(
    kind: Any,
    payload: Any,
    expected_seq: Any,
    idempotency_key: Any,
    kinds: tuple[str, ...] = matchlog.COMMANDS,
) -> None:
    """Refuse a request whose parts are not of the right type, before anything is read."""
    if not isinstance(kind, str) or kind not in kinds:
        raise CommandRefused(
            gettext("the kind is one of %(kinds)s") % {"kinds": ", ".join(kinds)},
            code="kind_not_appendable",
        )
    if type(expected_seq) is not int or expected_seq < 0:
        # Not bool, not 2.0: a seq is a whole number, and True == 1 would pass for a head.
        raise CommandRefused(
            gettext("expected_seq is the whole number of the last event seen (0 before the first)"),
            code="bad_expected_seq",
        )
    if idempotency_key is not None and not _printable_key(idempotency_key):
        raise CommandRefused(
            gettext("an idempotency key is 1 to %(most)s printable ASCII characters")
            % {"most": MAX_KEY_LENGTH},
            code="bad_idempotency_key",
        )
    problem = _json_problem(payload, depth=0, budget=[MAX_PAYLOAD_ITEMS])
    if problem is not None:
        raise CommandRefused(
            gettext("the payload is not plain JSON: %(problem)s") % {"problem": problem},
            code="bad_payload",
        )


def _printable_key(key: Any) -> bool:
    return (
        type(key) is str
        and 1 <= len(key) <= MAX_KEY_LENGTH
        and all("!" <= ch <= "~" for ch in key)  # no spaces, NULs, or non-ASCII lookalikes
    )


def _json_problem(value: Any, *, depth: int, budget: list[int]) -> str | None:
    """Return what makes ``value`` something other than small, storable JSON (None: nothing)."""
    budget[0] -= 1
    if budget[0] < 0:
        return f"more than {MAX_PAYLOAD_ITEMS} items"
    if depth > MAX_PAYLOAD_DEPTH:
        return f"nested deeper than {MAX_PAYLOAD_DEPTH}"
    if value is None or type(value) in (bool, int):
        return None
    if type(value) is float:
        return None if math.isfinite(value) else "a number that is not finite"
    if type(value) is str:
        return _string_problem(value)
    if type(value) is list:
        for item in value:
            problem = _json_problem(item, depth=depth + 1, budget=budget)
            if problem is not None:
                return problem
        return None
    if type(value) is dict:
        for key, item in value.items():
            if type(key) is not str:
                return f"a key that is not a string ({type(key).__name__})"
            problem = _string_problem(key) or _json_problem(item, depth=depth + 1, budget=budget)
            if problem is not None:
                return problem
        return None
    return f"a value of type {type(value).__name__}"


def _string_problem(text: str) -> str | None:
    if len(text) > MAX_STRING_LENGTH:
        return f"a string longer than {MAX_STRING_LENGTH} characters"
    if "\x00" in text:
        return "a NUL character"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "a lone surrogate (not valid Unicode)"
    return None


#: an entry withdrawn, or the other team's version accepted: a seated player, a team's link,
#: a score-keeper may ask; the planner lets only the entry's author or their team (docs/events.md)
SETTLED_AT_TABLE = (matchlog.Kind.ENTRY_WITHDRAWN, matchlog.Kind.VERSION_ACCEPTED)


def _authorize(
    match: Match,
    state: matchlog.MatchState,
    actor: Any,
    kind: str,
    payload: Any,
    *,
    director: bool,
) -> None:
    """Refuse the request unless ``actor`` may make it, whatever it would lead to.

    Directors may append anything. Otherwise: a digital seat's moves only its player; a
    table's moves a score-keeper or the seat's player; a result counted at once a score-keeper
    (when the match asks for no confirmation); an entry a score-keeper or a seated player; an
    answer to an entry a seated player (the two-person rule itself is the planner's, for every
    way in); withdrawing an entry, or accepting the other team's version instead, a seated
    player or a score-keeper (the planner: only its author or their team); starting a table
    or score match a score-keeper; withdrawing a table's last play its score-keeper.
    Corrections: directors only.
    """
    if actor is SYSTEM:
        return
    if isinstance(actor, LinkActor):
        _authorize_link(match, actor, kind, payload)
        return
    if actor is None or not actor.is_authenticated:
        raise NotPermitted(gettext("sign in to record anything in a match"), code="not_signed_in")
    seats = seats_in(state.users, actor)
    if kind == matchlog.MOVE_PLAYED and match.mode != matchlog.SCORE:
        move = payload.get("move") if isinstance(payload, dict) else None
        seat = move.get("seat") if isinstance(move, dict) else None
        # The seats the log fixed when the match started, not the teams as they are now.
        if type(seat) is int and seat in seats:
            return
        if match.mode == matchlog.TABLE and is_scorekeeper(actor, match):
            return
        if director:
            return
        raise NotPermitted(
            gettext("only the player at that seat (or a director) may play its moves"),
            code="not_your_seat",
        )
    if director:
        return
    # a score-keeper's own entry is theirs to withdraw or replace (the planner checks whose)
    keeper_kinds = {matchlog.Kind.DEAL_ENTERED, *SETTLED_AT_TABLE}
    if match.confirmation == matchlog.Confirmation.NONE:
        keeper_kinds.add(matchlog.DEAL_ENDED)
    if match.mode != matchlog.DIGITAL:
        keeper_kinds.add(matchlog.MATCH_STARTED)
    if match.mode == matchlog.TABLE:  # the recorder takes back the last play
        keeper_kinds.add(matchlog.Kind.MOVE_WITHDRAWN)
    if kind in keeper_kinds and is_scorekeeper(actor, match):
        return
    player_kinds = {
        matchlog.Kind.DEAL_ENTERED, matchlog.Kind.DEAL_CONFIRMED, matchlog.Kind.DEAL_REJECTED,
        *SETTLED_AT_TABLE,
    }  # fmt: skip
    if kind in player_kinds and seats:
        return
    if kind in matchlog.CORRECTIONS:
        raise NotPermitted(gettext("only a director corrects a match"), code="director_only")
    raise NotPermitted(
        gettext("you may not append %(kind)s to this match") % {"kind": kind}, code="forbidden"
    )


def _authorize_link(match: Match, link: LinkActor, kind: str, payload: Any) -> None:
    """A team's link: in its team's score matches, entries and answers only (as a seated
    player of that team may; the two-person rule is the planner's, for every way in); in its
    team's digital matches, the moves of its team's two seats (partners sit opposite: the
    seats of side s are s and s + 2), or of its player's one seat (a token bound to one)."""
    side = link.side_in(match)
    if side is None:
        raise NotPermitted(
            gettext("this team's link does not play in this match"), code="not_your_match"
        )
    if kind == matchlog.MOVE_PLAYED and match.mode == matchlog.DIGITAL:
        move = payload.get("move") if isinstance(payload, dict) else None
        seat = move.get("seat") if isinstance(move, dict) else None
        if type(seat) is int and seat in link.seats_in(match):
            return
        if link.player is not None:
            raise NotPermitted(
                gettext("a team's token bound to a player plays only that player's seat"),
                code="not_your_seat",
            )
        raise NotPermitted(
            gettext("a team's link plays only its own team's seats"), code="not_your_seat"
        )
    if match.mode != matchlog.SCORE:
        raise NotPermitted(
            gettext("a team's link records results of score matches only"), code="forbidden"
        )
    player_kinds = {
        matchlog.Kind.DEAL_ENTERED, matchlog.Kind.DEAL_CONFIRMED, matchlog.Kind.DEAL_REJECTED,
        *SETTLED_AT_TABLE,
    }  # fmt: skip
    if kind not in player_kinds:
        raise NotPermitted(
            gettext("a team's link may enter and answer results, not append %(kind)s")
            % {"kind": kind},
            code="forbidden",
        )


def _original_result(match: Match, key: str, digest: str, actor: Any) -> AppendResult | None:
    first = MatchEvent.objects.filter(match=match, idempotency_key=key).first()
    if first is None:
        return None
    # Which retries get the original answer is decided by the stored digest: trust it only
    # if the event's place in the chain still vouches for it.
    previous = (
        MatchEvent.objects.filter(match=match, seq=first.seq - 1)
        .values_list("hash", flat=True)
        .first()
    )
    if stored_event_hash(previous or GENESIS, first) != first.hash:
        log.error("match %s: event %s does not match its hash", match.pk, first.seq)
        raise CommandRefused(
            gettext(
                "the record of this request does not check out; a director must look at the log"
            ),
            code="idempotency_record_damaged",
        )
    if first.request_digest != digest:
        raise IdempotencyKeyReused()
    events = list(
        MatchEvent.objects.filter(match=match)
        .filter(Q(seq=first.seq) | Q(caused_by=first.seq))
        .order_by("seq")
    )
    # The original answer: the head right after that append, not the head now (a client that
    # takes the head now as its next expected_seq would skip the events it has not seen). It
    # is rendered for the one asking now, as the log stands now.
    return AppendResult(render_events(match, events, actor), events[-1].seq, replayed=True)


def _deal_in_play(state: matchlog.MatchState) -> bool:
    return state.deal is not None and state.deal.phase not in ("over", "redealt")


def _write(
    match: Match,
    planned: list[matchlog.Event],
    actor: Any,
    idempotency_key: str | None,
    digest: str,
    state: matchlog.MatchState,
    via: str = "",
    *,
    commit: bool = False,
    base: appendsql.Held | None = None,
    guard: appendsql.Guard | None = None,
    snapshot_digest: str | None = None,
) -> list[MatchEvent] | None:
    """Write the planned events, chained by hash, the head, the snapshot when it is due (and
    the receipt).

    ``snapshot_digest``: the digest of the snapshot row the append was decided on, left as
    it is unless the append passes a multiple of ``snapshots.SNAPSHOT_EVERY`` (None: the
    match has none, or it was rebuilt: one is written).
    ``commit``: the transaction is the append's own, and its COMMIT goes with the writes.
    ``base``: the row as read (``Locked.held``). ``guard``: write in one trip on the row held
    (``appendsql.write_held``), or, if it no longer holds, write nothing and return None. The
    row the write leaves is kept with the new state (``snapshots.recent``).
    """
    now = timezone.now()
    actor_id = None if actor is SYSTEM else actor.pk
    previous = match.last_hash or GENESIS
    first_seq = match.last_seq + 1
    events = []
    for offset, (kind, payload) in enumerate(planned):
        seq = first_seq + offset
        key = idempotency_key if offset == 0 else None
        event_digest = digest if key is not None else ""
        fields: dict[str, Any] = {
            "seq": seq,
            "kind": kind,
            "payload": payload,
            "recorded_at": now,
            "idempotency_key": key,
            "caused_by": None if offset == 0 else first_seq,
        }
        previous = event_hash(
            previous, actor=actor_id, request_digest=event_digest, via=via, **fields
        )
        events.append(
            MatchEvent(
                match=match,
                actor_id=actor_id,
                request_digest=event_digest,
                via=via,
                hash=previous,
                **fields,
            )
        )
    last = events[-1]
    snapshot = None
    if snapshot_digest is None or snapshots.due(match.last_seq, last.seq):
        text = canonical_json(state.to_json())  # written as it is proved: encoded once
        snapshot_digest = canonical_digest(match.pk, last.seq, last.hash, text)
        snapshot = (snapshot_digest, text)
    writes = appendsql.Writes(
        match_id=match.pk,
        events=events,
        status=state.status,
        snapshot=snapshot,
        receipt=_receipt(match, last) if last.kind == matchlog.MATCH_ENDED else None,
    )
    if guard is None:
        row = appendsql.write(writes, commit=commit, base=base)
    else:
        row = appendsql.write_held(writes, guard)
        if row is None:
            snapshots.recent.forget_row(match.pk)  # it no longer holds
            return None
    snapshots.recent.keep(match.pk, last.seq, last.hash, snapshot_digest, state, row)
    match.last_seq, match.last_hash, match.status = last.seq, last.hash, state.status
    return events


def _receipt(match: Match, ended: MatchEvent) -> tuple[dict[str, Any], str, str]:
    """Return the signed receipt (body, signature, key id) of a match that just ended."""
    body = {
        "match": match.pk,
        "tournament": match.tournament.slug,
        "teams": [match.team0_id, match.team1_id],
        "seq": ended.seq,
        "head_hash": ended.hash,
        "result": ended.payload,
        "ended_at": ended.recorded_at.isoformat(),
    }
    receipt = receipts.sign(body, receipts.signing_key())
    return receipt.body, receipt.signature, receipt.body["key_id"]


def _schedule_projection(match_id: int) -> None:
    """Tell the apps above (scoring) that the match's log grew (after the commit)."""
    log_appended.send(sender=Match, match_id=match_id)


__all__ = [
    "AppendResult",
    "match_append_event",
    "match_create",
]
