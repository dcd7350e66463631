"""Test data built once per module and shared by its tests, as Django's ``setUpTestData``.

A fixture such as ``league`` made its rows anew for every test (a few hundred queries: 0.3 s
of a test that took 0.4). Built once, it lives in a transaction the module opens, under
every test's own (a savepoint, rolled back after the test as ever); at the module's end the
module's transaction is rolled back too, so no other module sees a row of it. Each test gets
its own deep copy of the objects (a test may change them), and the match states the build
kept in this process (``snapshots.recent``, cleared before every test) as the build left them.

A transactional test (``transaction=True``, ``transactional_db``, ``live_server``) commits, so
it cannot run inside the module's transaction: pytest-django runs every transactional test
after all the others, and a module's data first asked for by a transactional test is built
for that test alone, as before.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import pytest
from django.db import connections, transaction

T = TypeVar("T")

#: the test being set up (``pytest_runtest_setup`` in tests/conftest.py): a module's data is
#: built when its first test asks for it, and that test decides whether it can be shared
current_item: list[pytest.Item] = []


def is_transactional(item: pytest.Item) -> bool:
    """Return whether ``item`` commits (pytest-django's own reading of its marker and fixtures)."""
    marker = item.get_closest_marker("django_db")
    if marker is not None and (
        marker.kwargs.get("transaction")
        or marker.kwargs.get("reset_sequences")
        or (marker.args and marker.args[0])
    ):
        return True
    fixtures = getattr(item, "fixturenames", ())
    return "transactional_db" in fixtures or "live_server" in fixtures


@dataclass
class Shared(Generic[T]):
    """What a module built once (``data``), or None when its first test is transactional."""

    build: Callable[[], T]
    data: T | None
    recent: list[tuple[int, Any]]

    def for_test(self, request: pytest.FixtureRequest) -> T:
        """Return the data for the test of ``request``: a deep copy of the module's, or built
        for it alone when the test is transactional."""
        if self.data is None:
            return self.build()
        if is_transactional(request.node):
            pytest.fail(
                f"{request.node.nodeid} is transactional and runs inside its module's shared "
                "data (tests/shared.py): pytest-django runs transactional tests last",
                pytrace=False,
            )
        from tournaments.snapshots import recent

        for match_id, kept in self.recent:
            recent._put(match_id, kept)
        return copy.deepcopy(self.data)


#: the modules' shared builds whose transaction is open now: (its atomics, its data, the
#: database blocker it was made with)
_open: list[tuple[list[Any], Shared[Any], Any]] = []


def before_transactional() -> None:
    """A transactional test is next: roll back every module's shared build still open (its
    module's fixture outlives its tests; with only one module selected, its transactional
    tests ran inside the build's transaction, and one that reconnected left the rest a
    closed connection). The module's later tests build their data for themselves."""
    while _open:
        atomics, made, django_db_blocker = _open.pop()
        with django_db_blocker.unblock():
            _roll_back(atomics)
        made.data = None


def built_once(build: Callable[[], T], django_db_blocker: Any) -> Iterator[Shared[T]]:
    """Yield ``build()``'s data made once inside a transaction, rolled back at the end; for the
    body of a module-scoped fixture (set up before any test's own transaction)."""
    if current_item and is_transactional(current_item[-1]):
        yield Shared(build, None, [])
        return
    from tournaments.snapshots import recent

    with django_db_blocker.unblock():
        atomics = [transaction.atomic(using=name) for name in connections]
        for atomic in atomics:
            atomic.__enter__()
        try:
            recent.clear()
            data = build()
            with recent._lock:
                kept = list(recent._kept.items())
        except BaseException:
            _roll_back(atomics)
            raise
    made = Shared(build, data, kept)
    _open.append((atomics, made, django_db_blocker))
    try:
        yield made
    finally:
        if any(entry[0] is atomics for entry in _open):  # not rolled back before a test
            _open[:] = [entry for entry in _open if entry[0] is not atomics]
            with django_db_blocker.unblock():
                _roll_back(atomics)


def _roll_back(atomics: list[Any]) -> None:
    for name, atomic in reversed(list(zip(connections, atomics, strict=True))):
        transaction.set_rollback(True, using=name)
        atomic.__exit__(None, None, None)
