"""Sends the broker refused, kept and tried again (scoring.resend), and the projection's send
that uses it (``tasks.schedule_projection``): nothing an append sends during an outage is
lost or left to the catch-up, and one message a match goes out once the broker is back."""

from __future__ import annotations

import json
import os
import threading
import time
from typing import Any

import pytest
import redis

from deploy import logs
from deploy.celery import app as celery_app
from scoring import resend, tasks
from tests.scoring.worker import free_port


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Broker:
    """A fake send's broker: refuses while ``down``; records what went out."""

    def __init__(self) -> None:
        self.down = True
        self.tries = 0
        self.out: list[Any] = []

    def send(self, what: Any) -> resend.Send:
        def go() -> None:
            self.tries += 1
            if self.down:
                raise ConnectionError("refused")
            self.out.append(what)

        return go


def a_resender(clock: Clock, draw: float = 0.999999, **options: Any) -> resend.Resender:
    return resend.Resender(clock=clock, draw=lambda: draw, run=False, **options)


def test_a_refused_send_is_tried_again_after_0_2_s_then_twice_as_long_up_to_1_s() -> None:
    clock, broker = Clock(), Broker()
    held = a_resender(clock)
    assert held.due() is None and not held.holding()
    held.keep(("project", 1), broker.send(1))
    assert held.holding()
    waits = []
    for _ in range(6):
        wait = held.due()
        assert wait is not None
        waits.append(round(wait, 3))
        clock.now += wait
        assert held.attempt() == 0
    assert waits == [0.2, 0.4, 0.8, 1.0, 1.0, 1.0]
    assert held.held() == [("project", 1)] and broker.out == []

    broker.down = False  # back: the next try, at most 1 s away, sends it
    wait = held.due()
    assert wait is not None and wait <= 1.0
    clock.now += wait
    assert held.attempt() == 1
    assert broker.out == [1] and held.held() == [] and held.due() is None
    assert held.resent == 1

    broker.down = True  # a second outage starts again at 0.2 s
    held.keep(("project", 2), broker.send(2))
    assert held.due() == pytest.approx(0.2)


def test_the_waits_are_drawn_between_half_and_all_of_the_step() -> None:
    clock, broker = Clock(), Broker()
    held = a_resender(clock, draw=0.0)
    held.keep("k", broker.send("k"))
    assert held.due() == pytest.approx(0.1)
    clock.now += 0.1
    held.attempt()
    assert held.due() == pytest.approx(0.2)


def test_a_match_sent_again_while_held_is_one_send_and_the_last() -> None:
    clock, broker = Clock(), Broker()
    held = a_resender(clock)
    for n in range(50):
        held.keep(("project", 7), broker.send(("seven", n)))
        held.keep(("project", 8), broker.send(("eight", n)))
    assert held.held() == [("project", 7), ("project", 8)]
    broker.down = False
    clock.now += 1
    assert held.attempt() == 2
    assert broker.out == [("seven", 49), ("eight", 49)]


def test_a_try_stops_at_the_first_refusal_and_sends_the_rest_in_order_when_back() -> None:
    clock, broker = Clock(), Broker()
    held = a_resender(clock)
    for n in range(5):
        held.keep(n, broker.send(n))
    clock.now += 1
    assert held.attempt() == 0
    assert broker.tries == 1, "one refusal says the broker is away: the others wait"
    broker.down = False
    clock.now += 1
    assert held.attempt() == 5
    assert broker.out == [0, 1, 2, 3, 4]


def test_what_is_held_is_bounded_the_oldest_let_go() -> None:
    clock, broker = Clock(), Broker()
    held = a_resender(clock, limit=3)
    for n in range(5):
        held.keep(n, broker.send(n))
    assert held.held() == [2, 3, 4] and held.dropped == 2


def test_a_send_kept_while_others_go_out_is_tried_at_once() -> None:
    clock, broker = Clock(), Broker()
    held = a_resender(clock)

    def first_then_another() -> None:
        broker.out.append("first")
        held.keep("late", broker.send("late"))  # another request's send, meanwhile

    held.keep("first", first_then_another)
    broker.down = False
    clock.now += 1
    assert held.attempt() == 1
    assert held.due() == 0
    assert held.attempt() == 1
    assert broker.out == ["first", "late"]


def test_the_thread_sends_what_was_held_within_a_second_of_the_broker_coming_back() -> None:
    broker = Broker()
    held = resend.Resender()  # the real clock, the real thread
    went = threading.Event()
    send = broker.send("x")

    def go() -> None:
        send()
        went.set()

    held.keep("x", go)
    time.sleep(2.5)  # down long enough for the waits to reach their longest
    assert broker.tries >= 4 and broker.out == []
    back = time.monotonic()
    broker.down = False
    assert went.wait(3)
    assert time.monotonic() - back <= 1.05
    assert held.held() == [] and not held.holding()


# --- The projection's send -------------------------------------------------------------------


def _queued(client: redis.Redis, queue: str) -> list[int]:
    """The match of every message on ``queue``, oldest first."""
    import base64

    raw = reversed(client.lrange(queue, 0, -1))
    return [json.loads(base64.b64decode(json.loads(m)["body"]))[0][0] for m in raw]


def _request_ids(client: redis.Redis, queue: str) -> list[str]:
    raw = reversed(client.lrange(queue, 0, -1))
    return [json.loads(m)["headers"].get(logs.HEADER) for m in raw]


@pytest.mark.redis
def test_the_projection_s_sends_during_an_outage_go_out_once_a_match_when_back(
    broker: str, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.SCORING_COALESCE_MS = 0
    clock = Clock()
    held = a_resender(clock)
    monkeypatch.setattr(resend, "held", held)
    conf = celery_app.conf
    working = conf.broker_url
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    try:
        conf.broker_url = f"redis://127.0.0.1:{free_port()}/0"  # nobody listens: refused
        began = time.monotonic()
        for n, match_id in enumerate((21, 22, 21, 21, 23, 22)):  # appends meanwhile
            with logs.bound(f"append-{n}"):
                tasks.schedule_projection(match_id)
        assert time.monotonic() - began < 1.0, "an append does not wait on the broker"
        assert held.held() == [("project", 21), ("project", 22), ("project", 23)]
        clock.now += 1
        assert held.attempt() == 0  # still away
        assert _queued(client, broker) == []

        conf.broker_url = working  # back
        clock.now += 1
        assert held.attempt() == 3
        assert _queued(client, broker) == [21, 22, 23]
        # each carries the request id of the last append that kept it
        assert _request_ids(client, broker) == ["append-3", "append-5", "append-4"]
        # each with its flag up: the next append's send waits on that message
        tasks.schedule_projection(21)
        assert _queued(client, broker) == [21, 22, 23]
        assert held.held() == []
    finally:
        conf.broker_url = working
        client.close()


@pytest.mark.redis
def test_a_kept_send_goes_out_though_its_own_first_try_put_the_flag_up(
    broker: str, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The flag went up and the push failed (Redis went between the two): the kept send must
    not take that flag for a message that waits."""
    settings.SCORING_COALESCE_MS = 0
    clock = Clock()
    held = a_resender(clock)
    monkeypatch.setattr(resend, "held", held)
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    pushes = 0
    real_send = tasks.broker.send

    def failing_once(*args: Any, **kwargs: Any) -> None:
        nonlocal pushes
        pushes += 1
        if pushes == 1:
            raise redis.ConnectionError("gone between the flag and the push")
        real_send(*args, **kwargs)

    monkeypatch.setattr(tasks.broker, "send", failing_once)
    try:
        tasks.schedule_projection(31)
        assert held.held() == [("project", 31)]
        assert client.exists(f"{tasks.PENDING_PREFIX}:{broker}:31")
        clock.now += 1
        assert held.attempt() == 1
        assert _queued(client, broker) == [31]
    finally:
        client.close()
