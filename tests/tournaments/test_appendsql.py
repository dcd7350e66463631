"""The append's fixed SQL (tournaments.appendsql): what it costs and what it stores.

The append is the store's hot path: on PostgreSQL a player's move takes one round trip when
the process holds the match's row and state from its last append there (the guarded write,
which checks under the lock that they still hold), and two otherwise (the locked read, then
the writes with the COMMIT), counted on the wire by a proxy, so that a change that brings
back a query per step fails here. A held row that no longer holds (changed by another
process, or by anything else) is found out under the lock, and the append is decided again
on the row as locked. On both backends the fixed statements store exactly what the ORM
reads back and the verifier checks, and a write refused by the database leaves nothing
behind.
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
import threading
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

import seep_core as sc
from tests.conftest import dropped_by_the_server
from tests.matches import deal_in_play as current_deal
from tests.scoring.worker import wait_until
from tournaments.access import SYSTEM
from tournaments.errors import AppendRefused, NotPermitted, StaleSequence
from tournaments.matchlog import repeatable_decks as fixed_decks
from tournaments.models import Match, MatchEvent, MatchSnapshot, Tournament
from tournaments.selectors import match_state
from tournaments.services import match_append_event
from tournaments.snapshots import SNAPSHOT_EVERY, proven_state, replay_log
from tournaments.verify import verify_match


def snapshot_row(match: Match) -> tuple[Any, ...]:
    """The match's snapshot row (seq, head hash, digest, state), as the ORM reads it."""
    row = MatchSnapshot.objects.get(match=match)
    return row.seq, row.head_hash, row.digest, row.state


def started(match: Match) -> Match:
    match_append_event(
        match=match,
        expected_seq=0,
        kind="match_started",
        payload={"first_dealer": 0},
        actor=SYSTEM,
        shuffle=fixed_decks(3),
    )
    match.refresh_from_db()
    return match


def next_move(match: Match) -> dict[str, Any]:
    """Return the arguments of the first legal move, sent by the player at its seat."""
    match.refresh_from_db()
    move = sc.legal_moves(current_deal(match))[0]
    return {
        "match": match.pk,
        "expected_seq": match.last_seq,
        "kind": "move_played",
        "payload": {"move": move},
        "actor": match.seat_players()[move["seat"]].user,
    }


def players_move(match: Match, **kw: Any) -> Any:
    """Play the first legal move as the player at its seat; return the append's result."""
    return match_append_event(**next_move(match), **kw)


#: round trips counted on the test's own connection, in a quiet process: make test runs these
#: after the rest, on their own (under the whole suite a held append's count came out one trip
#: high, twice in three runs, and never when this file ran alone; the cause is not found)
pytestmark = pytest.mark.isolated


class RoundTrips:
    """A TCP proxy to PostgreSQL that counts round trips: the client sends, the server answers.

    However many statements or packets a request holds, the client waiting for the server's
    answer is one turn of the conversation, and that is what is counted: on the test's own
    session, known by its client port (``own``, told by ``through_proxy``). A session another
    thread of the process opens meanwhile (any, since they all read the same settings; one
    opened just before the test's own took the first place and its turns were counted once,
    under a full suite's load) is proxied too, but its turns are its own and are not counted.
    """

    def __init__(self, host: str, port: int) -> None:
        self.upstream = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.count = 0
        self._last: dict[int, str] = {}
        self._ports: dict[int, int] = {}  # each session's client port
        self._own: int | None = None  # the test's own session's client port
        self._sessions = 0
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = [self.listener]
        self._threads = [threading.Thread(target=self._accept, daemon=True)]
        self._threads[0].start()

    def _accept(self) -> None:
        with contextlib.suppress(OSError):
            while True:
                client, _ = self.listener.accept()
                server = socket.create_connection(self.upstream)
                with self._lock:
                    self._sockets += [client, server]
                    session = self._sessions
                    self._sessions += 1
                    self._ports[session] = client.getpeername()[1]
                for source, sink, side in ((client, server, "client"), (server, client, "server")):
                    pump = threading.Thread(
                        target=self._pump, args=(source, sink, side, session), daemon=True
                    )
                    with self._lock:
                        self._threads.append(pump)
                    pump.start()

    def _pump(self, source: socket.socket, sink: socket.socket, side: str, session: int) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                with self._lock:
                    own = self._ports.get(session) == self._own
                    if side == "server" and self._last.get(session) == "client" and own:
                        self.count += 1
                    self._last[session] = side
                sink.sendall(data)

    def own(self, port: int) -> None:
        """Count the turns of the session whose client port is ``port`` (the test's own)."""
        with self._lock:
            self._own = port

    def close(self) -> None:
        """Shut every socket down, then close it, and wait for the threads to end.

        Closing alone is not enough: a socket a pump thread is blocked reading stays open in
        the kernel, so PostgreSQL kept the session, to the end of the test process; those
        sessions broke the tests that count the test database's sessions, and its teardown
        ("being accessed by other users"). Shutting down wakes the reads and sends the FIN.
        """
        with self._lock:
            sockets, threads = list(self._sockets), list(self._threads)
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
        for thread in threads:
            thread.join(timeout=5)


@pytest.fixture(autouse=True)
def scheduled() -> Iterator[mock.MagicMock]:
    """Stub the projection's scheduling after commit: scoring's work, not the append's."""
    with mock.patch("tournaments.services._schedule_projection") as schedule:
        yield schedule


@pytest.fixture
def round_trips() -> Iterator[RoundTrips]:
    """Reconnect the test's database connection through a RoundTrips proxy."""
    with through_proxy() as proxy:
        yield proxy


def _client_port(fd: int) -> int:
    """The local port of the connection whose socket is ``fd`` (a duplicate is asked)."""
    with socket.socket(fileno=os.dup(fd)) as sock:
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def through_proxy() -> Iterator[RoundTrips]:
    """The test's database connection through a RoundTrips proxy, for the block."""
    settings = connection.settings_dict
    saved = settings["HOST"], settings["PORT"]
    proxy = RoundTrips(saved[0] or "127.0.0.1", int(saved[1] or 5432))
    connection.close()
    settings["HOST"], settings["PORT"] = "127.0.0.1", str(proxy.port)
    try:
        connection.ensure_connection()
        proxy.own(_client_port(connection.connection.pgconn.socket))
        yield proxy
    finally:
        connection.close()
        settings["HOST"], settings["PORT"] = saved
        proxy.close()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_proxy_leaves_no_database_session_behind() -> None:
    """Test machinery, but a session it left open broke the tests that count the test
    database's sessions (tests/scoring/test_worker.py) and the database's teardown."""
    proxied = []
    for _ in range(3):  # a proxy's threads once outlived it and took over the next's sockets
        with through_proxy() as proxy, connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            proxied.append(cursor.fetchone()[0])
            assert proxy.count >= 1

    def ended() -> bool:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(%s)", [proxied])
            return cursor.fetchone()[0] == 0

    wait_until(ended, 5, "the proxied sessions to end")


@contextlib.contextmanager
def another_process() -> Iterator[None]:
    """Append as a process that holds no match's row or state (its first append to each)."""
    from tournaments import snapshots

    with mock.patch.object(snapshots, "recent", snapshots.RecentStates()):
        yield


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("key", [None, "move-1"])
def test_a_players_move_takes_one_round_trip_on_the_row_the_process_holds(
    world: Any, round_trips: RoundTrips, key: Any
) -> None:
    match = started(world.digital_match)
    players_move(match)  # the first of the connection's appends, as any other
    move = next_move(match)
    before = round_trips.count
    result = match_append_event(**move, idempotency_key=key)
    assert round_trips.count - before == 1  # the guarded write, begun and committed with it
    assert result.last_seq == Match.objects.get(pk=match.pk).last_seq  # committed
    assert verify_match(match) == []


def _prepared_tries() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements "
            "WHERE statement LIKE '%%tournaments_append_try%%'"
        )
        return int(cursor.fetchone()[0])


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("threshold", [5, None])  # psycopg's default; None: behind PgBouncer
def test_held_appends_stay_one_round_trip_each_and_the_server_keeps_their_plan(
    world: Any, round_trips: RoundTrips, threshold: int | None
) -> None:
    """The guarded write is one statement bound by the server: psycopg prepares it once on
    the connection (one trip more, once, at the threshold), and never behind PgBouncer."""
    connection.connection.prepare_threshold = threshold
    match = started(world.digital_match)
    trips = []
    for _ in range(9):
        move = next_move(match)
        before = round_trips.count
        match_append_event(**move)
        trips.append(round_trips.count - before)
    if threshold is None:
        assert trips == [1] * len(trips)
        assert _prepared_tries() == 0
    else:
        assert sorted(trips) == [1] * (len(trips) - 1) + [2], trips  # the prepare, once
        assert trips[threshold] == 2  # ... after the threshold of runs
        assert _prepared_tries() == 1
    assert verify_match(match) == []


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_requests_first_append_is_its_connections_health_check(
    world: Any, round_trips: RoundTrips
) -> None:
    """Django checks a kept connection with a SELECT 1 before a request's first query: the
    held append's own statement stands for it, so it is still one trip."""
    match = started(world.digital_match)
    players_move(match)
    move = next_move(match)
    connection.health_check_done = False  # a new request (Django's request_started)
    before = round_trips.count
    match_append_event(**move)
    assert round_trips.count - before == 1
    assert connection.health_check_done


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_held_append_on_a_connection_the_server_dropped_is_made_on_a_new_one(
    world: Any,
) -> None:
    match = started(world.digital_match)
    players_move(match)
    move = next_move(match)
    backend = dropped_by_the_server()
    connection.health_check_done = False  # a new request: its first statement is the check
    result = match_append_event(**move)
    assert connection.connection.info.backend_pid != backend
    assert (
        result.last_seq
        == Match.objects.get(pk=match.pk).last_seq
        == move["expected_seq"] + (len(result.events))
    )
    assert verify_match(match) == []


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_held_append_that_loses_its_connection_mid_request_is_refused_not_retried(
    world: Any,
) -> None:
    """Past the request's first statement a lost connection is an error (nothing written;
    try again), not a second send."""
    match = started(world.digital_match)
    players_move(match)
    move = next_move(match)
    connection.health_check_done = True  # the request already used the connection
    dropped_by_the_server()
    with pytest.raises(AppendRefused) as refused:
        match_append_event(**move)
    assert refused.value.code == "store_unavailable"
    connection.close()
    assert Match.objects.get(pk=match.pk).last_seq == move["expected_seq"]  # nothing written
    assert match_append_event(**move).last_seq > move["expected_seq"]  # and then it is


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("key", [None, "move-1"])
def test_a_processs_first_move_to_a_match_takes_two_round_trips(
    world: Any, round_trips: RoundTrips, key: Any
) -> None:
    match = started(world.digital_match)
    players_move(match)
    move = next_move(match)
    with another_process():
        before = round_trips.count
        result = match_append_event(**move, idempotency_key=key)
        assert round_trips.count - before == 2  # the locked read; the writes with the COMMIT
        again = next_move(match)
        before = round_trips.count
        following = match_append_event(**again)  # a redeal writes two events: count the first
        assert following.events[0]["seq"] == result.last_seq + 1
        assert round_trips.count - before == 1  # ... and then it holds the row
    assert verify_match(match) == []


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_snapshot_left_behind_the_head_comes_with_the_events_after_it_in_the_locked_read(
    world: Any, round_trips: RoundTrips
) -> None:
    match = started(world.digital_match)
    for _ in range(6):
        players_move(match)
    match.refresh_from_db()
    assert MatchSnapshot.objects.get(match=match).seq < match.last_seq - 5  # not rewritten
    move = next_move(match)
    with another_process():  # holds no state: the snapshot's, with the events folded on
        before = round_trips.count
        result = match_append_event(**move)
        assert round_trips.count - before == 2  # the events came with the read: no trip more
    match.refresh_from_db()
    assert result.last_seq == match.last_seq
    assert proven_state(match, snapshot_row(match)) == replay_log(match)
    assert verify_match(match) == []


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_held_row_changed_since_costs_one_trip_more_and_the_append_goes_on_from_the_lock(
    world: Any, round_trips: RoundTrips
) -> None:
    match = started(world.digital_match)
    players_move(match)
    Tournament.objects.filter(pk=match.tournament_id).update(slug="renamed")  # in the row
    move = next_move(match)
    before = round_trips.count
    result = match_append_event(**move)
    assert round_trips.count - before == 3  # the guarded write, refused; then the two trips
    match.refresh_from_db()
    assert result.last_seq == match.last_seq
    assert verify_match(match) == []


@pytest.mark.django_db(transaction=True)
def test_appends_from_two_processes_in_turn_each_decide_on_the_head(world: Any) -> None:
    """Two processes (two kept states and rows) alternate on one match. Each, when its turn
    comes again, is first sent the move it would have made next, at the head it holds: the
    server finds that the head moved on, and the append, made again from the lock, is
    refused as stale; then it appends from the head."""
    from tournaments import snapshots

    match = started(world.digital_match)
    processes = [snapshots.RecentStates(), snapshots.RecentStates()]
    pending: list[dict[str, Any] | None] = [None, None]
    for number in range(12):
        mine = number % 2
        with mock.patch.object(snapshots, "recent", processes[mine]):
            if pending[mine] is not None:
                head = Match.objects.get(pk=match.pk).last_seq
                with pytest.raises(StaleSequence):
                    match_append_event(**pending[mine])
                assert Match.objects.get(pk=match.pk).last_seq == head
                kept = processes[mine].get(match.pk)
                assert kept is not None and kept[4] is None  # the row it held is let go
            players_move(match, shuffle=fixed_decks(5))
            pending[mine] = next_move(match)  # legal at the head this process now holds
    match.refresh_from_db()
    assert verify_match(match) == []
    assert proven_state(match, snapshot_row(match)) == match_state(match)


@pytest.mark.django_db(transaction=True)
def test_a_gate_decides_on_the_row_as_locked_not_as_held(world: Any) -> None:
    """The caller's gate (the API's visibility check) sees the tournament as it is now."""
    match = started(world.digital_match)
    Tournament.objects.filter(pk=match.tournament_id).update(published=True)

    def published_only(locked: Match, listed: bool) -> None:
        if not locked.tournament.published:
            raise LookupError("not published")

    players_move(match, gate=published_only)
    players_move(match, gate=published_only)  # the process holds the row: published
    Tournament.objects.filter(pk=match.tournament_id).update(published=False)
    head = Match.objects.get(pk=match.pk).last_seq
    with pytest.raises(LookupError):
        players_move(match, gate=published_only)
    assert Match.objects.get(pk=match.pk).last_seq == head  # nothing written


@pytest.mark.django_db(transaction=True)
def test_a_director_removed_since_the_row_was_held_is_refused(world: Any) -> None:
    match = started(world.digital_match)
    tournament = Tournament.objects.get(pk=match.tournament_id)
    helper = world.scorekeeper
    tournament.directors.add(helper)
    for _ in range(2):  # a listed director may play any seat; then the process holds that
        match_append_event(**{**next_move(match), "actor": helper})
    tournament.directors.remove(helper)  # the row is as held: only the directors changed
    head = Match.objects.get(pk=match.pk).last_seq
    with pytest.raises(NotPermitted) as refused:
        match_append_event(**{**next_move(match), "actor": helper})
    assert refused.value.code == "not_your_seat"
    assert Match.objects.get(pk=match.pk).last_seq == head


@pytest.mark.django_db(transaction=True)
def test_a_key_in_the_log_that_the_held_row_does_not_know_of_is_answered_from_the_log(
    world: Any,
) -> None:
    match = started(world.digital_match)
    players_move(match, idempotency_key="first")
    match.refresh_from_db()
    # a writer that slipped past the lock wrote an event holding the key, the head unmoved
    MatchEvent.objects.create(
        match=match, seq=match.last_seq + 1, kind="note", payload={}, hash="x",
        idempotency_key="taken",
    )  # fmt: skip
    with pytest.raises(AppendRefused) as refused:
        players_move(match, idempotency_key="taken")
    assert refused.value.code == "idempotency_record_damaged"  # found: it does not chain
    assert Match.objects.get(pk=match.pk).last_seq == match.last_seq


@pytest.mark.django_db
def test_an_append_runs_the_fixed_statements_and_no_others(world: Any) -> None:
    match = started(world.digital_match)
    postgresql = connection.vendor == "postgresql"
    cases = [(another_process, 2 if postgresql else 6)]
    if postgresql:  # SQLite has no round trips to save, and holds no rows
        cases.append((contextlib.nullcontext, 1))
    for number, (process, expected) in enumerate(cases):
        players_move(match)  # this process's last append to the match, before the one counted
        move = next_move(match)
        with process(), CaptureQueriesContext(connection) as queries:
            match_append_event(**move, idempotency_key=f"k-{number}")
        statements = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
        # on PostgreSQL one query string per round trip; on SQLite the statements one by one
        # (the lock, the snapshot, the key; the events, the head, the snapshot)
        assert len(statements) == expected, statements


@pytest.mark.django_db(transaction=True)
def test_what_the_fixed_sql_stores_is_what_the_orm_reads_and_the_verifier_checks(
    world: Any,
) -> None:
    match = started(world.digital_match)
    shown = []
    for number in range(60):  # through the end of the first deal: three events in one append
        keyed = {"idempotency_key": f"move-{number}", "via": "session"}
        shown += players_move(match, shuffle=fixed_decks(7), **keyed).events
    match.refresh_from_db()
    assert verify_match(match) == []
    stored = {e.seq: e for e in MatchEvent.objects.filter(match=match)}
    for event in shown:
        row = stored[event["seq"]]
        assert (row.kind, row.hash, row.caused_by) == (
            event["kind"],
            event["hash"],
            event["caused_by"],
        )
        assert row.recorded_at.isoformat() == event["recorded_at"]
        if "hidden" not in event:
            assert row.payload == event["payload"]
    assert {e.kind for e in stored.values()} >= {"deal_ended", "deal_started"}
    assert proven_state(match, snapshot_row(match)) == match_state(match)  # it proves itself
    snapshot = MatchSnapshot.objects.get(match=match)
    # written when an append passed a multiple of SNAPSHOT_EVERY: at most that many behind
    assert 0 <= match.last_seq - snapshot.seq < SNAPSHOT_EVERY + 3
    assert snapshot.head_hash == stored[snapshot.seq].hash


@pytest.mark.django_db(transaction=True)
def test_a_write_the_database_refuses_leaves_the_head_and_the_snapshot_as_they_were(
    world: Any,
) -> None:
    match = started(world.digital_match)
    players_move(match)
    match.refresh_from_db()
    snapshot = MatchSnapshot.objects.get(match=match)
    # a writer that slipped past the lock took the next seq
    MatchEvent.objects.create(
        match=match, seq=match.last_seq + 1, kind="note", payload={}, hash="x"
    )
    with pytest.raises(StaleSequence):
        players_move(match, idempotency_key="lost")
    after = Match.objects.get(pk=match.pk)
    assert (after.last_seq, after.last_hash) == (match.last_seq, match.last_hash)
    assert MatchSnapshot.objects.get(match=match).seq == snapshot.seq
    assert not MatchEvent.objects.filter(match=match, idempotency_key="lost").exists()
    assert connection.get_autocommit()  # the connection is left as Django had it


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_read_function_returns_the_match_models_fields_in_order() -> None:
    from tournaments import appendsql

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT p.proargnames, p.proargmodes FROM pg_proc p "
            "WHERE p.proname = 'tournaments_append_read'"
        )
        names, modes = cursor.fetchone()
    returned = [name for name, mode in zip(names, modes, strict=True) if mode == "t"]
    tournament = [f"t_{name}" for name in appendsql.TOURNAMENT_FIELDS]
    # ... and of the columns' types (a column whose type changes needs the function replaced)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT a.name, format_type(a.type, NULL) FROM pg_proc p, "
            "unnest(p.proallargtypes, p.proargmodes, p.proargnames) AS a(type, mode, name) "
            "WHERE p.proname = 'tournaments_append_read' AND a.mode = 't'"
        )
        function_types = dict(cursor.fetchall())
        tables = {"": Match._meta.db_table, "t_": "tournaments_tournament"}
        for prefix, table in tables.items():
            cursor.execute(
                "SELECT attname, format_type(atttypid, NULL) FROM pg_attribute "
                "WHERE attrelid = %s::regclass AND attnum > 0",
                [table],
            )
            for column, kind in cursor.fetchall():
                if prefix + column in function_types:
                    assert function_types[prefix + column] == kind, (prefix + column, kind)
    assert returned == [
        *appendsql.MATCH_FIELDS,
        *tournament,
        "listed_director",
        "s_seq",
        "s_head_hash",
        "s_digest",
        "s_state",
        "keyed_seq",
        "row_digest",
        "tail",
    ]


@pytest.mark.django_db
def test_the_snapshot_state_is_read_only_when_the_process_does_not_hold_it(world: Any) -> None:
    from tournaments import appendsql

    match = started(world.digital_match)
    players_move(match)
    snapshot = MatchSnapshot.objects.get(match=match)
    with transaction.atomic():
        held = appendsql.read_locked(match.pk, None, None, snapshot.digest)
        other = appendsql.read_locked(match.pk, None, None, "another digest")
    assert held is not None and other is not None
    assert held.snapshot == (snapshot.seq, snapshot.head_hash, snapshot.digest, None)
    assert other.snapshot is not None
    assert other.snapshot[3] == snapshot.state


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_held_rows_digest_covers_every_column_the_read_returns_but_the_head() -> None:
    """A column the read returns that the digest left out could change unseen under a held
    row; the head is left out on purpose (the try function compares it itself). The read
    and the try function take the same digest."""
    from tournaments import appendsql

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT proname, prosrc FROM pg_proc "
            "WHERE proname IN ('tournaments_append_read', 'tournaments_append_try')"
        )
        sources = dict(cursor.fetchall())
    digests = {
        name: re.findall(r"md5\(ROW\((.*?)\)::text\)", source, re.DOTALL)
        for name, source in sources.items()
    }
    assert [len(found) for found in digests.values()] == [1, 1], digests
    read, tried = (" ".join(found[0].split()) for found in digests.values())
    assert read == tried
    covered = set(re.findall(r"\b([mt])\.(\w+)", read))
    head = {"last_seq", "last_hash", "status"}
    expected = {("m", name) for name in appendsql.MATCH_FIELDS if name not in head}
    expected |= {("t", name) for name in appendsql.TOURNAMENT_FIELDS}
    assert covered == expected, covered ^ expected


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_health_check_statement_the_server_ended_is_run_again_though_not_yet_broken() -> None:
    """The statement raced the server's ending of its session: the answer is the server's
    "terminating connection" (SQLSTATE 57P01) before psycopg calls the connection broken.
    Nothing was committed; it is run again on a new connection, once."""
    from django.db import OperationalError, connection

    from tournaments.rawsql import as_health_check

    class Ended(Exception):
        sqlstate = "57P01"

    connection.ensure_connection()
    connection.health_check_enabled = True
    connection.health_check_done = False
    calls: list[int] = []

    def run() -> str:
        calls.append(1)
        if len(calls) == 1:
            try:
                raise Ended("terminating connection due to administrator command")
            except Ended as cause:
                raise OperationalError("terminating connection") from cause
        return "written"

    assert as_health_check(run) == "written"
    assert len(calls) == 2
    # any other error of the statement is its own: raised, never run twice
    connection.ensure_connection()
    connection.health_check_done = False
    calls.clear()

    def fails() -> str:
        calls.append(1)
        raise OperationalError("a statement's own error")

    with pytest.raises(OperationalError):
        as_health_check(fails)
    assert len(calls) == 1
