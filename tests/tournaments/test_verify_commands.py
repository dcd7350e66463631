"""``manage.py verify_match`` finds every kind of tampering and says where; ``rebuild_snapshots``
rebuilds the snapshots from the log, after which verification passes and appends go on.

Tampering needs the event table's append-only triggers lifted, which only the test suite's
``append_only_triggers_suspended`` does (inside the test's transaction where it can).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from io import StringIO
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection

import seep_core as sc
from tests.matches import deal_in_play as current_deal
from tests.matches import tampering
from tournaments.access import SYSTEM
from tournaments.chain import canonical_json, event_hash
from tournaments.matchlog import repeatable_decks as fixed_decks
from tournaments.models import Match, MatchEvent, MatchSnapshot
from tournaments.services import match_append_event
from tournaments.snapshots import replay_log
from tournaments.verify import verify_match

MOVES = 12


def play(match: Match, moves: int, seed: int = 5) -> None:
    """Play ``moves`` random legal moves through the append service."""
    rng = random.Random(seed)
    for _ in range(moves):
        match.refresh_from_db()
        match_append_event(
            match=match, expected_seq=match.last_seq, kind="move_played",
            payload={"move": rng.choice(sc.legal_moves(current_deal(match)))}, actor=SYSTEM,
            shuffle=fixed_decks(match.last_seq),
        )  # fmt: skip
    match.refresh_from_db()


def played(match: Match, moves: int = MOVES) -> Match:
    """Start ``match`` and play some moves; return it fresh from the database."""
    match_append_event(
        match=match, expected_seq=0, kind="match_started", payload={"first_dealer": 3},
        actor=SYSTEM, shuffle=fixed_decks(1),
    )  # fmt: skip
    play(match, moves)
    return match


def verify(*args: Any) -> tuple[str, str, CommandError | None]:
    """Run ``verify_match``; return its output, its error output and the error it raised."""
    out, err = StringIO(), StringIO()
    try:
        call_command("verify_match", *[str(a) for a in args], stdout=out, stderr=err)
    except CommandError as exc:
        return out.getvalue(), err.getvalue(), exc
    return out.getvalue(), err.getvalue(), None


def rebuild(*args: Any) -> tuple[str, str, CommandError | None]:
    out, err = StringIO(), StringIO()
    try:
        call_command("rebuild_snapshots", *[str(a) for a in args], stdout=out, stderr=err)
    except CommandError as exc:
        return out.getvalue(), err.getvalue(), exc
    return out.getvalue(), err.getvalue(), None


def a_move_in_the_middle(match: Match) -> MatchEvent:
    moves = MatchEvent.objects.filter(match=match, kind="move_played").order_by("seq")
    return moves[moves.count() // 2]


@pytest.fixture
def match(world: Any) -> Match:
    return played(world.digital_match)


# --- an intact history -------------------------------------------------------------------


@pytest.mark.django_db
def test_an_intact_match_verifies_and_the_command_says_ok(match: Match) -> None:
    out, err, error = verify(match.pk)
    assert error is None and err == ""
    assert out == f"match {match.pk}: ok ({match.last_seq} events)\n"
    assert match.last_seq >= MOVES + 2


@pytest.mark.django_db
def test_all_matches_are_verified_with_all(match: Match, world: Any) -> None:
    out, _, error = verify("--all")
    assert error is None
    assert f"match {match.pk}: ok" in out and f"match {world.score_match.pk}: ok (0" in out


@pytest.mark.django_db
def test_the_command_needs_a_match_and_refuses_an_unknown_one(match: Match) -> None:
    assert "name one or more match ids" in str(verify()[2])
    assert f"no match with id {match.pk + 1000}" in str(verify(match.pk, match.pk + 1000)[2])


# --- tampering, and where the command says it is --------------------------------------------


def tamper_payload(match: Match) -> str:
    event = a_move_in_the_middle(match)
    move = dict(event.payload["move"], seat=(event.payload["move"]["seat"] + 1) % 4)
    MatchEvent.objects.filter(pk=event.pk).update(payload={**event.payload, "move": move})
    return f"event {event.seq}: hash does not match"


def delete_an_event(match: Match) -> str:
    event = a_move_in_the_middle(match)
    MatchEvent.objects.filter(pk=event.pk).delete()
    return f"event {event.seq + 1}: seq {event.seq + 1} where {event.seq} was due"


def delete_the_last_event(match: Match) -> str:
    MatchEvent.objects.filter(match=match, seq=match.last_seq).delete()
    return f"match: head of log says seq {match.last_seq}, log ends at {match.last_seq - 1}"


def edit_a_hash(match: Match) -> str:
    event = a_move_in_the_middle(match)
    MatchEvent.objects.filter(pk=event.pk).update(hash="f" * 64)
    return f"event {event.seq}: hash does not match"


def rewrite_the_chain(match: Match) -> str:
    """A forger changes a move and recomputes every hash after it: the head of log differs."""
    event = a_move_in_the_middle(match)
    move = dict(event.payload["move"], seat=(event.payload["move"]["seat"] + 1) % 4)
    MatchEvent.objects.filter(pk=event.pk).update(payload={**event.payload, "move": move})
    previous = MatchEvent.objects.get(match=match, seq=event.seq - 1).hash
    for later in MatchEvent.objects.filter(match=match, seq__gte=event.seq).order_by("seq"):
        previous = event_hash(
            previous, seq=later.seq, kind=later.kind, payload=later.payload,
            actor=later.actor_id, recorded_at=later.recorded_at,
            idempotency_key=later.idempotency_key, caused_by=later.caused_by,
            request_digest=later.request_digest, via=later.via,
        )  # fmt: skip
        MatchEvent.objects.filter(pk=later.pk).update(hash=previous)
    return "match: head of log hash differs"


def corrupt_the_snapshot(match: Match) -> str:
    snapshot = MatchSnapshot.objects.get(match=match)
    stored = json.loads(snapshot.state)
    state = dict(stored, deal_no=stored["deal_no"] + 1)
    MatchSnapshot.objects.filter(pk=snapshot.pk).update(state=canonical_json(state))
    return f"match: snapshot differs from the replay at seq {snapshot.seq}"


def delete_the_snapshot(match: Match) -> str:
    MatchSnapshot.objects.filter(match=match).delete()
    return "match: no snapshot for a match with events"


def move_the_snapshot_past_the_head(match: Match) -> str:
    MatchSnapshot.objects.filter(match=match).update(seq=match.last_seq + 1)
    return f"match: snapshot at seq {match.last_seq + 1}, log at {match.last_seq}"


TAMPERINGS = [
    tamper_payload, delete_an_event, delete_the_last_event, edit_a_hash, rewrite_the_chain,
    corrupt_the_snapshot, delete_the_snapshot, move_the_snapshot_past_the_head,
]  # fmt: skip


@pytest.mark.django_db
@pytest.mark.parametrize("tamper", TAMPERINGS, ids=lambda f: f.__name__)
def test_verify_match_fails_on_tampering_and_says_where(match: Match, tamper: Any) -> None:
    with tampering():
        where = tamper(match)
    out, err, error = verify(match.pk)
    assert error is not None and str(error) == "1 match(es) failed verification"
    assert any(line.startswith(f"match {match.pk}: {where}") for line in err.splitlines()), err
    assert "ok" not in out


@pytest.mark.django_db
def test_a_tampered_move_is_also_caught_by_the_replay(match: Match) -> None:
    event = a_move_in_the_middle(match)
    with tampering():
        tamper_payload(match)
    problems = verify_match(match)
    assert {p.seq for p in problems} >= {event.seq}
    assert any(p.seq == event.seq and "replay failed" in p.message for p in problems)


@pytest.mark.django_db
def test_only_the_tampered_match_fails_and_the_others_still_say_ok(
    world: Any, match: Match
) -> None:
    other = played(world.score_match, 0)
    with tampering():
        edit_a_hash(match)
    out, err, error = verify("--all")
    assert error is not None and str(error) == "1 match(es) failed verification"
    assert f"match {other.pk}: ok" in out and f"match {match.pk}:" not in out
    assert err.startswith(f"match {match.pk}: event ")


# --- the real command line (the test database must be visible to another process) ---------


def manage(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``manage.py`` in a new process against the test database."""
    db = connection.settings_dict
    auth = quote(db["USER"] or "") + (f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else "")
    url = f"postgres://{auth}@{db['HOST'] or 'localhost'}:{db['PORT'] or 5432}/{db['NAME']}"
    env = {**os.environ, "DATABASE_URL": url}
    manage_py = Path(settings.BASE_DIR) / "manage.py"
    return subprocess.run(
        [sys.executable, str(manage_py), *args],
        env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


@pytest.mark.process
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_command_line_exits_zero_when_intact_and_non_zero_where_tampered(world: Any) -> None:
    match = played(world.digital_match)
    intact = manage("verify_match", str(match.pk))
    assert intact.returncode == 0, intact.stderr
    assert intact.stdout.strip() == f"match {match.pk}: ok ({match.last_seq} events)"
    with tampering():
        where = edit_a_hash(match)
    tampered = manage("verify_match", str(match.pk))
    assert tampered.returncode == 1
    assert f"match {match.pk}: {where}" in tampered.stderr
    assert "CommandError: 1 match(es) failed verification" in tampered.stderr
    repaired = manage("rebuild_snapshots", "--match", str(match.pk))
    assert repaired.returncode == 0  # the snapshot rebuilds; the broken chain stays broken
    assert manage("verify_match", str(match.pk)).returncode == 1


# --- rebuilding snapshots ----------------------------------------------------------------


def assert_appends_go_on(match: Match) -> None:
    before = match.last_seq
    play(match, 3, seed=99)
    assert match.last_seq >= before + 3
    assert verify_match(match) == []


@pytest.mark.django_db
@pytest.mark.parametrize(
    "damage", [delete_the_snapshot, corrupt_the_snapshot, move_the_snapshot_past_the_head],
    ids=lambda f: f.__name__,
)  # fmt: skip
def test_rebuild_snapshots_repairs_a_snapshot_and_appends_go_on(match: Match, damage: Any) -> None:
    damage(match)
    assert verify(match.pk)[2] is not None
    out, err, error = rebuild()
    assert error is None and err == ""
    assert f"match {match.pk}: snapshot at seq {match.last_seq}" in out
    # rebuilt at the head (an append may have left it a few events behind)
    rebuilt = MatchSnapshot.objects.get(match=match)
    assert rebuilt.seq == match.last_seq
    assert rebuilt.state == canonical_json(replay_log(match).to_json())
    assert verify(match.pk)[2] is None
    assert_appends_go_on(match)


@pytest.mark.django_db
def test_rebuild_snapshots_puts_the_status_back_too(match: Match) -> None:
    Match.objects.filter(pk=match.pk).update(status="scheduled")
    assert "status scheduled, the log says in_progress" in verify(match.pk)[1]
    rebuild("--match", match.pk)
    assert verify(match.pk)[2] is None
    match.refresh_from_db()
    assert match.status == "in_progress"


@pytest.mark.django_db
def test_rebuild_snapshots_with_match_rebuilds_only_that_match(world: Any, match: Match) -> None:
    other = played(world.score_match, 0)
    for damaged in (match, other):
        MatchSnapshot.objects.filter(match=damaged).delete()
    out, _, error = rebuild("--match", other.pk)
    assert error is None and out == f"match {other.pk}: snapshot at seq 1\n"
    assert verify(other.pk)[2] is None
    assert not MatchSnapshot.objects.filter(match=match).exists()


@pytest.mark.django_db
def test_rebuild_snapshots_fails_loudly_on_a_log_that_does_not_replay(
    world: Any, match: Match
) -> None:
    other = played(world.score_match, 0)
    with tampering():
        tamper_payload(match)
    out, err, error = rebuild()
    assert error is not None and str(error) == "1 match(es) could not be rebuilt"
    assert err.startswith(f"match {match.pk}: log does not replay")
    assert f"match {other.pk}: snapshot at seq 1" in out  # the others are still rebuilt


@pytest.mark.django_db
def test_an_append_rebuilds_a_missing_snapshot_itself(match: Match) -> None:
    MatchSnapshot.objects.filter(match=match).delete()
    deal = replay_log(match).deal
    assert deal is not None
    result = match_append_event(
        match=match, expected_seq=match.last_seq, kind="move_played",
        payload={"move": sc.legal_moves(deal)[0]}, actor=SYSTEM, shuffle=fixed_decks(0),
    )  # fmt: skip
    assert result.events[0]["seq"] == match.last_seq + 1
    assert MatchSnapshot.objects.get(match=match).seq == result.last_seq
    assert verify_match(match) == []
