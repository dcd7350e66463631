"""A snapshot written every N events reads back as the log's own replay, and a table's undo
works from it.

* Random legal digital deals, appended through the service one move at a time, with the
  snapshot written every N events (N drawn: 1, 2, 5, and the store's own ``SNAPSHOT_EVERY``):
  after every append the snapshot row is the replay of the log to its own seq, fewer than N
  events behind the head, and the state read from it (the events after it folded on) is the
  replay of the whole log, read by a process that keeps nothing as by the one that appended.
* A table's last play withdrawn where the snapshot holds it: the play that reached a multiple
  of ``SNAPSHOT_EVERY`` wrote the snapshot with that play stored as what it changed (state
  version 7, no second deal), and its undo, decided by a process that keeps nothing (so on
  the row as stored), gives the deal before the play; so does the undo of a play folded on
  after the snapshot.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import seep_core as sc
from tests.matches import assert_log_intact
from tests.tournaments.test_move_withdrawn import BID, append, table_match
from tournaments import matchlog, snapshots
from tournaments.access import SYSTEM
from tournaments.chain import canonical_json
from tournaments.models import Match, MatchEvent, MatchSnapshot
from tournaments.services import match_append_event, match_create

pytestmark = pytest.mark.django_db

#: a match that does not end within the test (first to 99 bazzis)
LONG = {"bazzis": 99, "first_to": True}


@pytest.fixture(autouse=True)
def nothing_kept() -> Iterator[None]:
    """This process keeps no state of a match from an earlier test (whose ids come again)."""
    with mock.patch.object(snapshots, "recent", snapshots.RecentStates()):
        yield


def replay_to(match: Match, seq: int) -> matchlog.MatchState:
    """The state the log's events 1 to ``seq`` fold to."""
    rows = MatchEvent.objects.filter(match=match, seq__lte=seq).order_by("seq")
    return matchlog.replay(
        [
            (kind, payload, matchlog.author(actor, via))
            for kind, payload, actor, via in rows.values_list("kind", "payload", "actor_id", "via")
        ],
        match.mode,
    )


def read_afresh(match: Match) -> matchlog.MatchState:
    """The state at the head as a process that keeps nothing reads it (from the snapshot)."""
    with mock.patch.object(snapshots, "recent", snapshots.RecentStates()):
        return snapshots.current_state(match.pk)


@settings(
    max_examples=8,
    deadline=None,  # a few dozen appends an example, each checked against a whole replay
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    every=st.sampled_from([1, 2, 5, snapshots.SNAPSHOT_EVERY]),
    seed=st.integers(0, 2**32 - 1),
    appends=st.integers(1, 70),
)
def test_a_snapshot_every_n_events_reads_back_as_the_replay_of_the_log(
    world: Any, every: int, seed: int, appends: int
) -> None:
    rnd = random.Random(seed)
    shuffle = matchlog.repeatable_decks(seed)
    match = match_create(
        tournament=world.tournament, team0=world.teams[0], team1=world.teams[1],
        mode="digital", match_format=LONG,
    )  # fmt: skip
    with mock.patch.object(snapshots, "SNAPSHOT_EVERY", every):
        started = match_append_event(
            match=match, expected_seq=0, kind="match_started",
            payload={"first_dealer": rnd.randrange(4)}, actor=SYSTEM, shuffle=shuffle,
        )  # fmt: skip
        match.refresh_from_db()
        # the log's fold, event by event, as the test follows it
        whole = fold(matchlog.MatchState("digital"), match, 0, started.last_seq)
        for _ in range(appends):
            assert whole.deal is not None
            head = match.last_seq
            sent = match_append_event(
                match=match, expected_seq=head, kind="move_played",
                payload={"move": rnd.choice(sc.legal_moves(whole.deal))}, actor=SYSTEM,
                shuffle=shuffle,
            )  # fmt: skip
            whole = fold(whole, match, head, sent.last_seq)
            match.refresh_from_db()
            snapshot = MatchSnapshot.objects.get(match=match)
            assert 0 <= match.last_seq - snapshot.seq < every
            if snapshot.seq == match.last_seq:  # written by this append: the fold to here
                assert snapshot.state == canonical_json(whole.to_json())
            assert read_afresh(match) == whole
            assert snapshots.current_state(match.pk) == whole  # the appending process's own
    assert whole == snapshots.replay_log(match)
    assert_log_intact(match)


def fold(state: matchlog.MatchState, match: Match, after: int, to: int) -> matchlog.MatchState:
    """``state`` with the log's events after ``after`` to ``to`` folded on (those an append
    wrote, read back: a deck its answer hides is the stored one)."""
    rows = MatchEvent.objects.filter(match=match, seq__gt=after, seq__lte=to)
    for kind, payload, actor, via in rows.order_by("seq").values_list(
        "kind", "payload", "actor_id", "via"
    ):
        state = matchlog.apply_event(state, kind, payload, matchlog.author(actor, via))
    return state


def record_until(match: Match, seq: int, keeper: Any, rnd: random.Random) -> None:
    """Record plays of the table's deal (among the moves the engine lists) until the log's
    head is ``seq``."""
    match.refresh_from_db()
    while match.last_seq < seq:
        deal = snapshots.replay_log(match).deal
        assert deal is not None and deal.phase in ("opening", "play")
        append(match, "move_played", {"move": rnd.choice(sc.legal_moves(deal))}, keeper)
        match.refresh_from_db()


def test_a_play_the_snapshot_holds_is_withdrawn_from_the_row_as_stored(world: Any) -> None:
    every, rnd = snapshots.SNAPSHOT_EVERY, random.Random(2026)
    match = table_match(world)
    append(match, "move_played", {"move": BID}, world.scorekeeper)
    record_until(match, every, world.scorekeeper, rnd)  # this play wrote the snapshot
    snapshot = MatchSnapshot.objects.get(match=match)
    assert snapshot.seq == every
    stored = json.loads(snapshot.state)
    assert stored["version"] == 7 and set(stored["last_play"]) == {"move", "undo"}
    last = MatchEvent.objects.get(match=match, seq=every).payload["move"]
    before = replay_to(match, every - 1).deal
    with mock.patch.object(snapshots, "recent", snapshots.RecentStates()):  # another process
        append(match, "move_withdrawn", {"move": last}, world.scorekeeper)
    undone = read_afresh(match)
    assert undone.deal == before and undone.last_play is None
    assert_log_intact(match)
    # a play folded on after the snapshot (the row still at its seq), withdrawn the same way
    record_until(match, every + 2, world.scorekeeper, rnd)
    assert MatchSnapshot.objects.get(match=match).seq == every
    last = MatchEvent.objects.get(match=match, seq=every + 2).payload["move"]
    before = replay_to(match, every + 1).deal
    with mock.patch.object(snapshots, "recent", snapshots.RecentStates()):
        append(match, "move_withdrawn", {"move": last}, world.scorekeeper)
    assert read_afresh(match).deal == before
    assert_log_intact(match)
