"""The log is the authority; a snapshot is a cache that must prove it belongs to its match and head.

A snapshot is trusted only at the head of its own match's log (its seq and the head's hash,
with a keyed digest over the state): another match's snapshot, a state edited in place or a row
left behind is rebuilt from the log instead. The snapshot is read after the match's lock is
held, so an append queued behind another append (or behind a repair) uses what that one
committed: no false alarm, no replay, and never a move checked against an old state.
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
from typing import Any
from unittest import mock

import hypothesis
import pytest
from django.db import connection, transaction
from django.test import override_settings
from django.utils.crypto import salted_hmac
from hypothesis import strategies as st

import seep_core as sc
from tests.matches import assert_log_intact, deal_in_play
from tournaments import snapshots
from tournaments.access import SYSTEM
from tournaments.chain import canonical_json
from tournaments.errors import MoveRefused
from tournaments.matchlog import repeatable_decks
from tournaments.models import Match, MatchSnapshot
from tournaments.services import match_append_event
from tournaments.verify import verify_match


def start(match: Match, dealer: int, seed: int) -> None:
    match_append_event(match=match, expected_seq=0, kind="match_started",
                       payload={"first_dealer": dealer}, actor=SYSTEM,
                       shuffle=repeatable_decks(seed))  # fmt: skip


def append_move(match: Match, move: dict[str, Any], expected_seq: int | None = None) -> Any:
    match.refresh_from_db()
    return match_append_event(
        match=match, expected_seq=match.last_seq if expected_seq is None else expected_seq,
        kind="move_played", payload={"move": move}, actor=SYSTEM, shuffle=repeatable_decks(9),
    )  # fmt: skip


def assert_goes_on_from_the_log(match: Match) -> None:
    """The refusal wrote nothing (the log verifies; only the cache is still wrong, the repair
    rolled back with the refused append), and appends go on: the damaged row is never
    trusted, and is written again for good by an append that rebuilds it or, at the latest,
    by the one that passes the next multiple of ``SNAPSHOT_EVERY``."""
    problems = verify_match(match)
    assert problems and all("snapshot" in p.message for p in problems)
    rewritten_by_then(match)


def rewritten_by_then(match: Match) -> None:
    """Append legal moves until the snapshot row is written again (at most SNAPSHOT_EVERY
    and a few); each state a process without a kept state reads is the log's meanwhile."""
    damaged = MatchSnapshot.objects.values_list("state", flat=True).get(match=match)
    for _ in range(snapshots.SNAPSHOT_EVERY + 3):
        match.refresh_from_db()
        append_move(match, sc.legal_moves(snapshots.replay_log(match).deal)[0])
        match.refresh_from_db()
        with mock.patch.object(snapshots, "recent", snapshots.RecentStates()):  # another process
            assert snapshots.current_state(match.pk) == snapshots.replay_log(match)
        if MatchSnapshot.objects.values_list("state", flat=True).get(match=match) != damaged:
            break
    assert_log_intact(match)


@pytest.fixture
def two_matches(world: Any) -> tuple[Match, Match]:
    """Two digital matches at the same seq, dealt by different dealers from different decks."""
    other = Match.objects.create(
        tournament=world.tournament, team0=world.teams[2], team1=world.teams[3], mode="digital",
        rules=world.tournament.rules, match_format=world.tournament.match_format,
    )  # fmt: skip
    start(world.digital_match, dealer=3, seed=1)
    start(other, dealer=0, seed=2)
    return world.digital_match, other


@pytest.mark.django_db
def test_another_matchs_snapshot_at_the_same_seq_is_rebuilt_not_trusted(
    two_matches: tuple[Match, Match], caplog: pytest.LogCaptureFixture
) -> None:
    match, other = two_matches
    theirs = (
        MatchSnapshot.objects.filter(match=other)
        .values("seq", "head_hash", "digest", "state")
        .get()
    )
    MatchSnapshot.objects.filter(match=match).update(**theirs)
    # Legal in the other match (its bidder, seat 1, bids), illegal here (seat 0 bids here).
    move = sc.legal_moves(deal_in_play(other))[0]
    assert move["seat"] == 1
    with pytest.raises(MoveRefused) as refused:
        append_move(match, move)
    assert refused.value.rule == "T0"
    assert "rebuilding it" in caplog.text
    assert_goes_on_from_the_log(match)


@pytest.mark.django_db
def test_a_snapshot_whose_state_was_edited_in_place_is_rebuilt(world: Any) -> None:
    match = world.digital_match
    start(match, dealer=3, seed=1)
    deal = deal_in_play(match)
    snapshot = MatchSnapshot.objects.get(match=match)
    state = json.loads(snapshot.state)
    hands = state["deal"]["hands"]
    hands[0], hands[2] = hands[2], hands[0]  # seat 0 "holds" what seat 2 holds (empty now)
    edited = canonical_json(state)
    MatchSnapshot.objects.filter(match=match).update(state=edited)  # same seq, same head
    with pytest.raises(MoveRefused):
        append_move(match, {"seat": 0, "action": "redeal"})  # refused by the true hand (B2)
    assert deal_in_play(match) == deal
    assert_goes_on_from_the_log(match)


@pytest.mark.django_db
def test_a_snapshot_of_an_older_state_version_is_rebuilt(world: Any) -> None:
    match = world.digital_match
    start(match, dealer=3, seed=1)
    move = sc.legal_moves(deal_in_play(match))[0]
    state = dict(json.loads(MatchSnapshot.objects.get(match=match).state), version=1)
    MatchSnapshot.objects.filter(match=match).update(state=canonical_json(state))
    assert append_move(match, move).last_seq == 3
    rewritten_by_then(match)


# --- the states a process keeps (snapshots.recent) -------------------------------------------


@pytest.mark.django_db
def test_a_read_keeps_the_state_it_proved_and_the_next_read_does_not_decode_it(
    world: Any,
) -> None:
    match = world.digital_match
    start(match, dealer=3, seed=1)
    with (
        mock.patch.object(snapshots, "recent", snapshots.RecentStates()),  # not the writer
        mock.patch.object(
            snapshots.matchlog.MatchState,
            "from_json",
            wraps=snapshots.matchlog.MatchState.from_json,
        ) as decode,
    ):
        first = snapshots.current_state(match.pk)
        second = snapshots.current_state(match.pk)
    assert decode.call_count == 1
    match.refresh_from_db()
    assert first == second == snapshots.replay_log(match)


def read_here_then_moved_elsewhere(match: Match, then: Any = lambda: None) -> tuple[Any, Any]:
    """Read the match in one process (its kept state), append a move from another, run
    ``then``, read again in the first; return the two reads."""
    here = snapshots.RecentStates()
    with mock.patch.object(snapshots, "recent", here):
        before = snapshots.current_state(match.pk)
    with mock.patch.object(snapshots, "recent", snapshots.RecentStates()):  # another process
        append_move(match, sc.legal_moves(before.deal)[0])
    then()
    with mock.patch.object(snapshots, "recent", here):
        after = snapshots.current_state(match.pk)
    match.refresh_from_db()
    return before, after


@pytest.mark.django_db
def test_a_kept_state_is_not_used_once_another_process_moved_the_head(world: Any) -> None:
    match = world.digital_match
    start(match, dealer=3, seed=1)
    before, after = read_here_then_moved_elsewhere(match)
    assert after != before
    assert after == snapshots.replay_log(match)


@pytest.mark.django_db
def test_a_kept_state_is_not_used_for_a_snapshot_row_left_behind_the_head(world: Any) -> None:
    match = world.digital_match
    start(match, dealer=3, seed=1)
    rows = MatchSnapshot.objects.filter(match=match)
    row = rows.values("seq", "head_hash", "digest", "state").get()  # what the kept state is of
    before, after = read_here_then_moved_elsewhere(match, lambda: rows.update(**row))
    assert after == snapshots.replay_log(match) != before


# --- appends queued behind another writer (PostgreSQL: real row locks) --------------------


class Holder(threading.Thread):
    """A second connection that locks the match, does ``work`` under the lock, then waits
    ``hold`` seconds before committing, while the test's own append queues behind it."""

    def __init__(self, match_id: int, work: Any, hold: float = 0.6) -> None:
        super().__init__(daemon=True)
        self.match_id, self.work, self.hold = match_id, work, hold
        self.locked = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            with transaction.atomic():
                locked = Match.objects.select_for_update().get(pk=self.match_id)
                self.work(locked)
                self.locked.set()
                time.sleep(self.hold)
        except BaseException as exc:
            self.error = exc
            self.locked.set()
        finally:
            connection.close()


def queued_behind(holder: Holder, append: Any) -> tuple[Any, float]:
    holder.start()
    assert holder.locked.wait(10)
    began = time.monotonic()
    result = append()
    waited = time.monotonic() - began
    holder.join(10)
    assert holder.error is None, holder.error
    return result, waited


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_an_append_queued_behind_another_neither_alarms_nor_replays(
    world: Any, caplog: pytest.LogCaptureFixture
) -> None:
    match = world.digital_match
    start(match, dealer=3, seed=1)
    deal = deal_in_play(match)
    first = sc.legal_moves(deal)[0]
    second = sc.legal_moves(sc.apply(deal, first))[0]
    holder = Holder(match.pk, lambda locked: append_move(locked, first, expected_seq=2))
    caplog.set_level(logging.INFO)
    with mock.patch.object(snapshots, "replay_log", wraps=snapshots.replay_log) as replays:
        result, waited = queued_behind(holder, lambda: append_move(match, second, 3))
    assert waited > 0.3  # it really waited for the lock
    assert result.last_seq == 4
    assert replays.call_count == 0
    ours = [r for r in caplog.records if r.name.startswith("tournaments")]
    assert not [r for r in ours if r.levelno >= logging.WARNING], caplog.text
    assert_log_intact(match)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_an_append_queued_behind_a_repair_uses_the_repaired_snapshot(
    world: Any, caplog: pytest.LogCaptureFixture
) -> None:
    match = world.digital_match
    start(match, dealer=3, seed=1)
    rng = random.Random(3)
    for _ in range(3):
        append_move(match, rng.choice(sc.legal_moves(deal_in_play(match))))
    left_behind = MatchSnapshot.objects.filter(match=match).values("seq", "state").get()
    move = rng.choice(sc.legal_moves(deal_in_play(match)))
    append_move(match, move)
    MatchSnapshot.objects.filter(match=match).update(**left_behind)  # the cache: one behind
    following = sc.legal_moves(snapshots.replay_log(Match.objects.get(pk=match.pk)).deal)[0]
    holder = Holder(match.pk, snapshots.rebuild_snapshot)  # rebuild_snapshots, under the lock
    with mock.patch.object(snapshots, "replay_log", wraps=snapshots.replay_log) as replays:
        caplog.clear()
        result, waited = queued_behind(holder, lambda: append_move(match, following, 6))
    assert waited > 0.3
    assert result.last_seq == 7
    assert replays.call_count == 1  # the repair's; the queued append trusted what it wrote
    assert "rebuilding" not in caplog.text
    assert_log_intact(match)
    assert verify_match(match) == []


@hypothesis.given(
    match_id=st.integers(1, 2**63 - 1),
    seq=st.integers(0, 2**31 - 1),
    head_hash=st.text(max_size=64),
    state=st.text(),
    secret=st.sampled_from(["one secret key of the deployment", "another, after a rotation"]),
)
def test_a_snapshot_digest_is_djangos_salted_hmac_so_stored_digests_still_prove(
    match_id: int, seq: int, head_hash: str, state: str, secret: str
) -> None:
    with override_settings(SECRET_KEY=secret):
        expected = salted_hmac(
            "tournaments.snapshot", f"{match_id}:{seq}:{head_hash}:{state}", algorithm="sha256"
        ).hexdigest()
        assert snapshots.canonical_digest(match_id, seq, head_hash, state) == expected
