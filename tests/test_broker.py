"""The broker's transport (deploy/broker.py): kombu's Redis transport, one client per channel."""

from __future__ import annotations

import os
import uuid
from unittest import mock

import pytest
from kombu import Connection
from kombu.exceptions import OperationalError
from kombu.transport import redis

pytestmark = pytest.mark.redis


def test_a_channel_sends_every_message_with_one_client() -> None:
    name = f"seep-test-broker-{uuid.uuid4().hex[:8]}"
    original = redis.Channel._create_client
    with (
        mock.patch.object(
            redis.Channel, "_create_client", autospec=True, side_effect=original
        ) as create,
        Connection(os.environ["REDIS_URL"], transport="deploy.broker:Transport") as conn,
    ):
        queue = conn.SimpleQueue(name)
        try:
            queue.put({"n": 0})
            declared = create.call_count  # one client for each channel the queue opened
            for number in range(1, 5):
                queue.put({"n": number})
            assert queue.qsize() == 5
            made = create.call_count - declared
            received = []
            for _ in range(5):
                message = queue.get(timeout=5)
                received.append(message.payload["n"])
                message.ack()
            assert received == [0, 1, 2, 3, 4]
        finally:
            queue.clear()
            queue.close()
    assert declared <= 2
    assert made == 0  # four more sends and a size: no client more (kombu's: one each)


def test_kombu_s_own_channel_would_make_a_client_a_message() -> None:
    """Why deploy/broker.py exists (if kombu stops doing this, the module can go)."""
    name = f"seep-test-broker-{uuid.uuid4().hex[:8]}"
    with Connection(os.environ["REDIS_URL"], transport="redis") as conn:
        queue = conn.SimpleQueue(name)
        try:
            original = redis.Channel._create_client
            with mock.patch.object(
                redis.Channel, "_create_client", autospec=True, side_effect=original
            ) as create:
                for number in range(3):
                    queue.put({"n": number})
            assert create.call_count >= 3
        finally:
            queue.clear()
            queue.close()


def test_after_a_fork_the_channel_sends_with_a_client_of_its_new_pool() -> None:
    name = f"seep-test-broker-{uuid.uuid4().hex[:8]}"
    with Connection(os.environ["REDIS_URL"], transport="deploy.broker:Transport") as conn:
        queue = conn.SimpleQueue(name)
        try:
            queue.put({"n": 0})
            channel = queue.producer.channel
            before = channel._kept_client
            channel._disconnect_pools()  # what kombu does in a forked child
            queue.put({"n": 1})
            assert channel._kept_client is not before
            assert channel._kept_client.connection_pool is channel.pool
            assert queue.qsize() == 2
        finally:
            queue.clear()
            queue.close()


def test_a_channel_whose_connection_was_dropped_says_so_as_a_connection_error() -> None:
    """A worker that lost Redis holding a message not yet acknowledged closes its channel
    after its connection was dropped; the channel's restore of that message must fail as a
    connection error (which the closing code ignores), not kombu's AttributeError (which
    stopped the worker during a Redis outage, and it was back only seconds later)."""
    with Connection(os.environ["REDIS_URL"], transport="deploy.broker:Transport") as conn:
        channel = conn.default_channel
        channel.connection.client = None  # as the consumer's collect leaves it
        channel._disconnect_pools()
        with pytest.raises(conn.connection_errors), channel.conn_or_acquire():
            pass
        with pytest.raises(AttributeError):  # kombu's own
            redis.Channel.conn_or_acquire(channel).__enter__()


def test_a_worker_tries_a_lost_broker_again_every_second() -> None:
    """The workers' consumer (deploy/celery.py) waits at most a second between two tries to
    reach the broker (kombu's own waits 2 s, 4 s, 6 s...: a worker came back up to 4 s after
    Redis did, and the deals held meanwhile waited for it)."""
    from kombu.utils import functional

    from deploy.celery import Consumer, app
    from tests.scoring.worker import free_port

    consumer = Consumer.__new__(Consumer)  # only what ensure_connected reads
    consumer.app = app
    consumer.first_connection_attempt = False
    consumer.broker_connection_retry_attempt = 0
    slept: list[float] = []
    saved = app.conf.broker_connection_max_retries
    app.conf.broker_connection_max_retries = 5
    url = f"redis://127.0.0.1:{free_port()}/0"  # nobody listens
    try:
        with (
            mock.patch.object(functional, "sleep", side_effect=slept.append),
            Connection(url, transport="deploy.broker:Transport") as conn,
        ):
            with pytest.raises(OperationalError):  # kombu's, once the tries are spent
                consumer.ensure_connected(conn)
            assert "ensure_connection" not in vars(conn), "kombu's own again afterwards"
    finally:
        app.conf.broker_connection_max_retries = saved
    waits = [s for s in slept if s]
    assert len(waits) >= 5 and max(waits) <= 1.0, slept
