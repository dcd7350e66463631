"""Webhooks without a broker (``make run``): a delivery is sent by the process's sender thread
after the response, never inside the API request, and a failed one is tried again with the
stack's backoff, its attempts counted as a worker counts them."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from api import background, tasks, webhooks
from api.models import WebhookDelivery
from tournaments import happenings
from tournaments.models import Match

from .conftest import League

pytestmark = pytest.mark.django_db(transaction=True)

#: how long the receiver takes over each post
SLOW = 1.5


class SlowReceiver:
    """A local HTTP server that answers each post after ``SLOW`` seconds, failing the first."""

    def __init__(self) -> None:
        self.received: list[tuple[float, dict[str, str], bytes]] = []
        self.statuses = [503]
        self.answered = 0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.received.append((time.monotonic(), dict(self.headers), body))
                time.sleep(SLOW)
                self.send_response(receiver.statuses.pop(0) if receiver.statuses else 204)
                self.end_headers()
                receiver.answered += 1

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)


@pytest.fixture
def receiver(settings: Any) -> Iterator[SlowReceiver]:
    settings.WEBHOOKS_ALLOW_PRIVATE_NETWORKS = True
    settings.WEBHOOKS_IN_BACKGROUND = True  # the embedded default (the suite turns it off)
    settings.WEBHOOK_BACKOFF_SECONDS = 1
    r = SlowReceiver()
    r.thread.start()
    try:
        yield r
    finally:
        background.sender.stop()  # no sender thread outlives the test
        r.server.shutdown()
        r.server.server_close()


def wait_for_answers(receiver: SlowReceiver, count: int, seconds: float = 20.0) -> None:
    """Wait until the receiver has answered ``count`` posts, and the sender has recorded the
    last (watching the receiver, not the database: SQLite's shared in-memory test database
    refuses a write while another connection reads, instead of waiting)."""
    deadline = time.monotonic() + seconds
    while receiver.answered < count:
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)
    time.sleep(0.5)


def test_a_delivery_is_sent_after_the_response_and_retried_with_backoff(
    league: League, receiver: SlowReceiver
) -> None:
    organizer = league.client("organizer_a")
    hook = organizer.post(
        "/api/v1/webhooks/",
        {"tournament": league.a.pk, "url": receiver.url, "kinds": ["match.completed"]},
        format="json",
    ).json()
    match = Match.objects.get(pk=league.score.pk)
    began = time.monotonic()
    for _ in range(3):  # the match is 3 bazzis: three deals of 100 to 0 end it
        match.refresh_from_db()
        answer = organizer.post(
            f"/api/v1/matches/{match.pk}/events/",
            {"expected_seq": match.last_seq, "kind": "deal_ended",
             "payload": {"points": [100, 0], "sweeps": [[], []]}},
            format="json",
        )  # fmt: skip
        assert answer.status_code == 201, answer.content[:300]
    answered = time.monotonic() - began
    assert answered < SLOW, "the request waited for the receiver"

    wait_for_answers(receiver, 2)
    delivery = WebhookDelivery.objects.get(webhook_id=hook["id"])
    # the first attempt failed (503); the second, after the backoff, succeeded
    assert delivery.status == "succeeded" and delivery.attempts == 2
    (first, _, body), (second, headers, again) = receiver.received
    assert second - first >= SLOW + 1  # the first attempt's answer, then the backoff (1 s)
    assert body == again == webhooks.body_bytes(delivery)
    assert webhooks.verify(hook["secret"], headers["Seep-Signature"], body)
    assert json.loads(body) == delivery.body  # the stored body is the signed body
    assert background.sender.held() == []


def test_a_pending_delivery_left_by_an_earlier_run_is_sent_by_the_catch_up(
    league: League, receiver: SlowReceiver, settings: Any
) -> None:
    receiver.statuses = []
    settings.SCORING_CATCH_UP_SECONDS = 1
    hook = (
        league.client("organizer_a")
        .post(
            "/api/v1/webhooks/",
            {"tournament": league.a.pk, "url": receiver.url, "kinds": ["match.completed"]},
            format="json",
        )
        .json()
    )
    # made by an earlier run of the process, which stopped before its attempt
    delivery = WebhookDelivery.objects.create(
        webhook_id=hook["id"], kind="match.completed", body={"match": league.score.pk},
        created_at=timezone.now() - timedelta(minutes=5),
    )  # fmt: skip
    background.sender.submit(-1)  # wakes the thread (no such delivery: nothing to do)
    wait_for_answers(receiver, 1)
    delivery.refresh_from_db()
    assert delivery.status == "succeeded" and delivery.attempts == 1
    assert tasks.attempt(delivery.pk) is None  # delivered: never sent again


def test_a_happening_whose_kick_was_lost_is_delivered_after_the_next_commit_anywhere(
    league: League, receiver: SlowReceiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a broker the sender thread is the catch-up. A process killed between a
    commit and its kick left a happening with no delivery; after a restart, the first
    commit of any tournament starts the thread, whose first catch-up makes and sends it."""
    receiver.statuses = []
    hook = (
        league.client("organizer_a")
        .post(
            "/api/v1/webhooks/",
            {"tournament": league.a.pk, "url": receiver.url, "kinds": ["round.unpublished"]},
            format="json",
        )
        .json()
    )
    body = {"stage": 0, "round": 1, "name": "round 1", "called_off": []}
    with monkeypatch.context() as killed:  # the kick is lost with the process
        killed.setattr(happenings, "_consumers", [])
        with transaction.atomic():
            happenings.write(
                tournament_id=league.a.pk, kind=happenings.ROUND_UNPUBLISHED, body=body
            )
    assert not WebhookDelivery.objects.filter(webhook_id=hook["id"]).exists()
    background.sender.stop()  # the process restarted: no thread yet
    with transaction.atomic():  # the next commit, of another tournament
        happenings.write(tournament_id=league.b.pk, kind=happenings.ROUND_UNPUBLISHED, body=body)
    wait_for_answers(receiver, 1)
    (_headers, sent), *_ = [(h, b) for _t, h, b in receiver.received]
    assert json.loads(sent)["kind"] == "round.unpublished"
