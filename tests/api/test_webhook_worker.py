"""Real workers: webhook deliveries to receivers that trickle never hold up another
tournament's scoring (issue 27, finding 1).

A scoring worker (2 processes, the run's queue) and a webhooks worker (``--queues`` the run's
webhook queue, as deploy/Procfile starts them), on the test database and the shared Redis.
Four subscriptions of one tournament point at a receiver on loopback that answers a byte
every 2 seconds; while it trickles, a deal of another tournament is scored within 1 s.
"""

from __future__ import annotations

import os
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import redis
from django.conf import settings
from django.db import connection

from api import services
from deploy.celery import app as celery_app
from tests.scoring.helpers import enter, new_match, start
from tests.scoring.test_worker import is_projected
from tests.scoring.worker import Worker, database_url, forget_queue, wait_until
from tournaments.models import Team, Tournament

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.process,
    pytest.mark.django_db(transaction=True),
]


class Trickler:
    """A server on loopback that takes each connection and answers one byte every 2 s."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.open = 0
        self.stopped = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.stopped.is_set():
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._trickle, args=(conn,), daemon=True).start()

    def _trickle(self, conn: socket.socket) -> None:
        self.open += 1
        try:
            for byte in b"HTTP/1.1 200 OK\r\nX-Slow: " + b"." * 100:
                if self.stopped.wait(2):
                    return
                conn.sendall(bytes([byte]))
        except OSError:
            return
        finally:
            self.open -= 1
            conn.close()

    def close(self) -> None:
        self.stopped.set()
        self.listener.close()


@pytest.fixture
def queues(transactional_db: None) -> Iterator[tuple[str, str]]:
    """The run's scoring queue and its webhook queue; this process sends to them."""
    name = f"seep-test-hooks-{uuid.uuid4().hex[:12]}"
    hooks = f"{name}-webhooks"
    conf = celery_app.conf
    saved = conf.task_default_queue, conf.task_routes
    conf.task_default_queue = name
    # the deployment's own routes (settings.CELERY_TASK_ROUTES), onto this test's queue names
    conf.task_routes = {task: {"queue": hooks} for task in settings.CELERY_TASK_ROUTES}
    try:
        yield name, hooks
    finally:
        conf.task_default_queue, conf.task_routes = saved
        client = redis.Redis.from_url(os.environ["REDIS_URL"])
        try:
            forget_queue(client, name)
        finally:
            client.close()


def test_trickling_receivers_never_delay_another_tournament_s_scoring(
    world: Any, queues: tuple[str, str], tmp_path: Path, settings: Any
) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE_NETWORKS = True
    scoring_queue, hooks_queue = queues
    env = {"WEBHOOKS_ALLOW_PRIVATE_NETWORKS": "1", "WEBHOOK_TIMEOUT_SECONDS": "20"}
    common = {
        "queue": scoring_queue,
        "database_url": database_url(connection.settings_dict),
        "redis_url": os.environ["REDIS_URL"],
        "log_dir": tmp_path,
        "concurrency": 2,
        "env": env,
    }
    workers = [
        Worker(name=f"{scoring_queue}-scoring", **common),
        Worker(name=f"{scoring_queue}-hooks", queues=hooks_queue, **common),
    ]
    trickler = Trickler()
    try:
        for worker in workers:
            worker.start()
        other = Tournament.objects.create(
            name="Other Cup", slug="other-cup", organizer=world.organizer
        )
        teams = [
            Team.objects.create(
                tournament=other,
                name=f"Other {n}",
                first_player=world.players[2 * n],
                second_player=world.players[2 * n + 1],
            )
            for n in range(2)
        ]
        theirs = new_match(SimpleNamespace(tournament=other, teams=teams))
        start(theirs)
        wait_until(lambda: is_projected(theirs), 30, "the other tournament's match to start")

        for n in range(4):
            services.webhook_create(
                actor=world.organizer,
                tournament=world.tournament,
                url=f"http://127.0.0.1:{trickler.port}/hook/{n}",
                kinds=["deal.recorded"],
            )
        ours = new_match(world, fmt={"bazzis": 3}, teams=(2, 3))
        start(ours)
        for points in ([70, 30], [40, 60]):
            enter(ours, points)
        wait_until(lambda: trickler.open >= 2, 30, "the receiver to be trickling to deliveries")

        began = time.monotonic()
        enter(theirs, [60, 40])
        wait_until(lambda: is_projected(theirs), 10, "the other tournament's deal to be scored")
        took = time.monotonic() - began
        print(f"the other tournament's deal scored in {took:.3f} s; trickling: {trickler.open}")
        assert trickler.open >= 2, "the receiver was still trickling"
        assert took < 1.0, f"scored {took:.2f} s after it was recorded"
    finally:
        trickler.close()
        for worker in workers:
            worker.stop()
        for worker in workers:
            print(f"--- {worker.name} ---\n{worker.output()[-4000:]}")
