"""A service's locks never hold up another transaction's foreign-key check (docs/architecture.md,
"Locks"): a happening, a standings row or a fixture refers to its tournament or stage, and
PostgreSQL checks that reference at the commit with a KEY SHARE lock, which a plain
``FOR UPDATE`` blocks. Pairing a round (the stage and its tournament locked, then the
standings' checkpoints) and a worker bringing the standings up to date (the checkpoints
locked, then a ``standings.changed`` happening, checked against the tournament at its
commit) deadlocked on the real workers. On PostgreSQL only: SQLite takes no row locks."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection, transaction

from competition.models import Stage
from competition.services import _common
from tournaments import happenings

from .helpers import make_club

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _in_thread(work: Any) -> BaseException | None:
    """Run ``work`` in a thread of its own (its own connection); return what it raised."""
    raised: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as exc:  # handed to the test
            raised.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)
    assert not thread.is_alive(), "the other transaction never finished"
    return raised[0] if raised else None


def test_a_happening_commits_while_a_director_holds_the_stage_and_its_tournament() -> None:
    club = make_club(4, slug="lock-cup")
    stage = club.start(club.stage(format="swiss", rounds=3))

    def tell() -> None:  # a worker's transaction: a happening of the same tournament
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '3s'")
            happenings.write(
                tournament_id=club.tournament.pk,
                kind=happenings.STANDINGS_CHANGED,
                body={"stage": stage.pk, "rounds": [0]},
            )

    with transaction.atomic():
        # as round_pair and every stage command lock it: the stage with its tournament
        held = _common.locked_stage(
            stage, status=Stage.Status.RUNNING, refusal="not running", code="stage_not_running"
        )
        assert held.tournament_id == club.tournament.pk
        failed = _in_thread(tell)
    assert failed is None, f"the happening waited for the director's lock: {failed!r}"
    assert happenings.head(club.tournament.pk) >= 1


def test_two_services_locking_one_stage_still_take_turns() -> None:
    club = make_club(4, slug="turns-cup")
    stage = club.start(club.stage(format="swiss", rounds=3))

    def lock_too() -> None:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '1s'")
            _common.locked_stage(
                stage, status=Stage.Status.RUNNING, refusal="not running", code="x"
            )

    with transaction.atomic():
        _common.locked_stage(stage, status=Stage.Status.RUNNING, refusal="not running", code="x")
        failed = _in_thread(lock_too)
    assert failed is not None and "lock timeout" in str(failed)
