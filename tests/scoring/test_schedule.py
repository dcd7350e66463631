"""The append's projection message, on the real broker, with no worker to take it: appends
while their match's task waits in the queue send no message of their own; the task taking its
flag down (as it starts) lets the next append send again; a flag outlives no lost message for
long; Redis failing on the flag holds one send for the match until it answers
(scoring.resend).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any
from unittest import mock

import kombu.exceptions
import pytest
import redis

from scoring import resend, tasks

from .helpers import enter
from .test_worker import a_score_match, is_projected

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]


class _Queued:
    """Called: how many messages wait in the queue; ``client``: the Redis they wait in."""

    def __init__(self, client: redis.Redis, queue: str) -> None:
        self.client, self.queue = client, queue

    def __call__(self) -> int:
        return int(self.client.llen(self.queue))


@pytest.fixture
def queued(broker: str) -> Iterator[_Queued]:
    """How many messages wait in the run's queue (nothing takes them: no worker runs)."""
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    try:
        yield _Queued(client, broker)
    finally:
        client.close()


def test_appends_while_the_task_waits_send_nothing_more(world: Any, queued: Any) -> None:
    match = a_score_match(world, (0, 1), [[60, 40], [5, 95]])  # three appends
    assert queued() == 1
    other = a_score_match(world, (2, 3), [[50, 50]])
    assert queued() == 2  # a match of its own: a message of its own
    enter(match, [30, 70])
    enter(other, [30, 70])
    assert queued() == 2


def test_the_task_starting_lets_the_next_append_send_again(world: Any, queued: Any) -> None:
    match = a_score_match(world, (0, 1), [[60, 40]])
    assert queued() == 1
    tasks.project_match(match.pk)  # the task's body, here: it takes the flag down first
    assert is_projected(match)
    enter(match, [30, 70])  # committed after the task read the log: it needs a task of its own
    assert queued() == 2
    enter(match, [45, 55])
    assert queued() == 2


def test_a_flag_whose_message_was_lost_expires(world: Any, queued: Any) -> None:
    with mock.patch.object(tasks, "PENDING_SECONDS", 1):
        match = a_score_match(world, (0, 1), [[60, 40]])
        queued.client.delete(queued.queue)  # the message is lost
        enter(match, [30, 70])
        assert queued() == 0  # the flag still stands for the lost message
        time.sleep(1.2)
        enter(match, [45, 55])
        assert queued() == 1


def test_redis_failing_on_the_flag_holds_one_send_that_goes_out_once_it_answers(
    world: Any, queued: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    held = resend.Resender(run=False)  # tried by hand here, not by a thread
    monkeypatch.setattr(resend, "held", held)
    with mock.patch.object(redis.Redis, "set", side_effect=redis.ConnectionError("down")):
        match = a_score_match(world, (0, 1), [[60, 40], [5, 95]])  # three appends
        assert queued() == 0
        assert held.held() == [("project", match.pk)]
        assert held.attempt() == 0  # still failing
    assert held.attempt() == 1
    assert queued() == 1 and held.held() == []


def test_a_standings_send_the_broker_refuses_is_held_and_goes_out_once_it_answers(
    world: Any, queued: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from competition.signals import standings_due
    from competition.tasks import update_standings

    held = resend.Resender(run=False)  # tried by hand here, not by a thread
    monkeypatch.setattr(resend, "held", held)
    down = kombu.exceptions.OperationalError("down")
    with mock.patch.object(update_standings, "delay", side_effect=down):
        for _ in range(3):  # three changes of one stage while the broker is away
            standings_due.send(sender=None, stage_id=41)
        assert queued() == 0 and held.held() == [("standings", 41)]
        assert held.attempt() == 0  # still refused
    assert held.attempt() == 1
    assert queued() == 1 and held.held() == []
