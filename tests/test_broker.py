"""The broker's transport (deploy/broker.py): kombu's Redis transport, one client per channel."""

from __future__ import annotations

import os
import uuid
from unittest import mock

import pytest
from kombu import Connection
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
