"""Shared test set-up: the small world, the service markers, eager tasks, and the flush.

Markers: ``@pytest.mark.postgres`` and ``@pytest.mark.redis`` skip a test (with the reason)
when the service is not there, except under ``SEEP_CI=1`` (.ci/run), where a missing
service fails the test: CI must exercise the real database and broker.

Transactional tests (``django_db(transaction=True)``) end with Django's flush, which empties
every table with DELETE (SQLite) or TRUNCATE (PostgreSQL), and the event table's triggers
refuse both. The session fixture below suspends the triggers for the flush only, and puts
them back at once; the production triggers are never changed.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.management.commands import flush
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import translation
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from deploy.celery import app as celery_app

from . import shared

EVENT_TABLE = "tournaments_matchevent"

# Hypothesis judges nothing by the clock: no deadline, no health check of how fast inputs are
# drawn. Both are timings, and on a shared, busy machine a draw that stalls for two seconds
# (another process had the core) failed a test whose code was right. A test may still set
# its own settings; these are the defaults under them.
hypothesis_settings.register_profile(
    "seep", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.load_profile("seep")


# --- Which services are here ------------------------------------------------------------


def on_postgresql() -> bool:
    """Return whether the test database is PostgreSQL."""
    return connections["default"].vendor == "postgresql"


@functools.cache
def redis_reachable() -> bool:
    """Return whether a Redis server answers at REDIS_URL (False when REDIS_URL is unset)."""
    url = os.environ.get("REDIS_URL", "").strip()
    if not url:
        return False
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except (redis.RedisError, OSError, ValueError):
        return False


SERVICES = {
    "postgres": (on_postgresql, "needs PostgreSQL: set DATABASE_URL=postgres://…"),
    "redis": (redis_reachable, "needs Redis at REDIS_URL"),
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``browser`` every test that drives Chromium (each asks for a ``browser``)."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    shared.current_item[:] = [item]
    if shared.is_transactional(item):
        shared.before_transactional()
    for marker, (available, reason) in SERVICES.items():
        if item.get_closest_marker(marker) is None or available():
            continue
        if os.environ.get("SEEP_CI") == "1":
            pytest.fail(f"SEEP_CI=1 and the test {reason}", pytrace=False)
        pytest.skip(reason)


@pytest.fixture
def is_postgresql() -> bool:
    """Whether the test database is PostgreSQL."""
    return on_postgresql()


@pytest.fixture
def redis_available() -> bool:
    """Whether Redis answers at REDIS_URL."""
    return redis_reachable()


# --- Static files -----------------------------------------------------------------------


@pytest.fixture(autouse=True, scope="session")
def _static_files_without_collectstatic(
    django_test_environment: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[None]:
    """Render pages without a collectstatic first: the plain storage instead of the manifest.

    Production's storage (hashed names from the manifest that collectstatic writes) is
    tested where it is collected: tests/test_deploy.py and the stack test. STATIC_ROOT is
    an empty directory, so WhiteNoise finds nothing and warns about nothing.
    """
    from django.conf import settings
    from django.test.utils import override_settings

    storages = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    with override_settings(STORAGES=storages, STATIC_ROOT=tmp_path_factory.mktemp("static")):
        yield


# --- Tasks ------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _site_language() -> Iterator[None]:
    """Each test starts and ends in the site's language: a request through the test client
    leaves its language (the LocaleMiddleware's) active in the thread, and a later test of
    the same worker rendered its parts in Hindi where the push process rendered English."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _no_kept_states() -> None:
    """Each test starts with no match state kept in this process (``snapshots.recent``): a
    rolled-back test gives its match ids again, and a state kept of an earlier test's match
    of the same id, at a higher seq, made the next test's reads miss (one query more)."""
    from tournaments.snapshots import recent

    recent.clear()


@pytest.fixture(autouse=True)
def _no_remembered_tokens() -> None:
    """Each test starts with no API token remembered as verified in this process
    (``api.auth``): a module's shared data (tests/shared.py) gives every test the same token
    keys, and one verified in an earlier test, then made expired by a queryset's update
    (around the signals that forget it), was still trusted in the next."""
    from api.auth import forget_verified

    forget_verified()


@pytest.fixture(autouse=True)
def _eager_tasks(request: pytest.FixtureRequest) -> Iterator[None]:
    """Run Celery tasks in-process, as the embedded default does, unless the test is `redis`.

    With REDIS_URL set (as in CI) the app would otherwise send tasks to a broker that no
    worker of the test run reads; `redis` tests exercise the broker on purpose.
    """
    if request.node.get_closest_marker("redis") is not None:
        yield
        return
    saved = celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    try:
        yield
    finally:
        celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = saved


# --- A connection the server ended ------------------------------------------------------


def dropped_by_the_server() -> int:
    """End the default connection's server process (as a server restart would); return its
    pid. The connection object stays, broken: its next statement fails."""
    from django.db import connection, connections

    backend = connection.connection.info.backend_pid
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [backend])
    finally:
        other.close()
    return int(backend)


# --- Flushing past the append-only triggers ---------------------------------------------


@contextlib.contextmanager
def append_only_triggers_suspended(connection: BaseDatabaseWrapper) -> Iterator[None]:
    """Lift the event table's triggers for the block, then reinstate exactly what was there."""
    if connection.vendor == "postgresql":
        # ALTER TABLE is transactional and each xdist worker has its own test database, so
        # no other test can see the table without its triggers.
        with connection.cursor() as cursor:
            cursor.execute(f"ALTER TABLE {EVENT_TABLE} DISABLE TRIGGER USER")
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute(f"ALTER TABLE {EVENT_TABLE} ENABLE TRIGGER USER")
        return
    if connection.vendor == "sqlite":
        # SQLite cannot disable a trigger: drop them and recreate them from their own SQL.
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = %s",
                [EVENT_TABLE],
            )
            triggers = cursor.fetchall()
            for name, _sql in triggers:
                cursor.execute(f'DROP TRIGGER "{name}"')
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                for _name, sql in triggers:
                    cursor.execute(sql)
        return
    raise NotImplementedError(f"no way to flush past the triggers on {connection.vendor}")


@pytest.fixture(autouse=True, scope="session")
def _flush_past_append_only_triggers() -> Iterator[None]:
    """Let Django's flush (the end of every transactional test) empty the event table."""
    original = flush.Command.handle

    def handle(self: flush.Command, **options: Any) -> Any:
        with append_only_triggers_suspended(connections[options["database"]]):
            return original(self, **options)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(flush.Command, "handle", handle)
        yield


# --- The demo, smaller ------------------------------------------------------------------


@pytest.fixture
def small_demo(monkeypatch: pytest.MonkeyPatch) -> None:
    """``seed_demo`` with its club evening made smaller (a Swiss of 1 round, then the top 2:
    the final, played part-way and left in progress), for a test that needs the demo's kinds
    of data, not its size: score matches played, a digital match, the ladder's, the online
    friendly's and the table's matches, the whole roster; 11 matches, not 35, and a tenth of
    the digital moves. tests/competition/test_seed_demo.py checks the demo at its full size."""
    import dataclasses

    from competition.management.commands import seed_demo

    monkeypatch.setattr(
        seed_demo, "EVENING", dataclasses.replace(seed_demo.EVENING, rounds=1, top=2)
    )


# --- The small world --------------------------------------------------------------------


@dataclass(frozen=True)
class World:
    """One tournament: its organizer, four teams of two players, a score-keeper, two matches."""

    organizer: Any
    scorekeeper: Any
    tournament: Any
    players: list[Any]
    teams: list[Any]
    digital_match: Any
    score_match: Any


def _build_world() -> World:
    """Return a small world: teams[0] v teams[1] in digital mode, teams[2] v teams[3] by score."""
    from django.contrib.auth import get_user_model

    from tournaments.models import Match, Player, Team, Tournament

    django_user_model = get_user_model()

    organizer = django_user_model.objects.create_user("organizer")
    scorekeeper = django_user_model.objects.create_user("scorekeeper")
    tournament = Tournament.objects.create(
        name="Club Championship", slug="club-championship", organizer=organizer
    )
    players = [
        Player.objects.create(
            name=f"Player {n}",
            user=django_user_model.objects.create_user(f"player{n}"),
        )
        for n in range(1, 9)
    ]
    teams = [
        Team.objects.create(
            tournament=tournament,
            name=f"Team {letter}",
            first_player=players[2 * i],
            second_player=players[2 * i + 1],
        )
        for i, letter in enumerate("ABCD")
    ]
    matches = [
        Match.objects.create(
            tournament=tournament,
            team0=team0,
            team1=team1,
            mode=mode,
            rules=tournament.rules,
            match_format=tournament.match_format,
        )
        for team0, team1, mode in (
            (teams[0], teams[1], Match.Mode.DIGITAL),
            (teams[2], teams[3], Match.Mode.SCORE),
        )
    ]
    for match in matches:
        match.scorekeepers.add(scorekeeper)
    return World(
        organizer=organizer,
        scorekeeper=scorekeeper,
        tournament=tournament,
        players=players,
        teams=teams,
        digital_match=matches[0],
        score_match=matches[1],
    )


@pytest.fixture(scope="module")
def _world_once(django_db_setup: None, django_db_blocker: Any) -> Iterator[shared.Shared[World]]:
    yield from shared.built_once(_build_world, django_db_blocker)


@pytest.fixture
def world(_world_once: shared.Shared[World], request: pytest.FixtureRequest, db: None) -> World:
    """Return a small world: teams[0] v teams[1] in digital mode, teams[2] v teams[3] by
    score; built once a module (tests/shared.py)."""
    return _world_once.for_test(request)
