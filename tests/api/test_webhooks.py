"""Webhooks: a subscription gets each happening of its kinds, signed (HMAC-SHA256 over the time
and the body), retried with backoff until the receiver takes it, every attempt readable."""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from api import tasks, webhooks
from api.models import WebhookDelivery
from competition import demo
from tests.scoring.helpers import committed

from .conftest import League

pytestmark = pytest.mark.django_db


class Receiver:
    """A local HTTP server that records what it is sent, failing the first ``fail`` posts."""

    def __init__(self, fail: int = 0) -> None:
        self.fail = fail
        self.received: list[tuple[dict[str, str], bytes]] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.received.append((dict(self.headers), body))
                status = 503 if receiver.fail > 0 else 204
                receiver.fail -= 1
                self.send_response(status)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> Receiver:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver(settings: Any) -> Iterator[Receiver]:
    settings.WEBHOOKS_ALLOW_PRIVATE_NETWORKS = True
    with Receiver() as r:
        yield r


def subscribe(league: League, url: str, kinds: list[str]) -> dict[str, Any]:
    made = league.client("organizer_a").post(
        "/api/v1/webhooks/", {"tournament": league.a.pk, "url": url, "kinds": kinds}, format="json"
    )
    assert made.status_code == 201, made.content
    return made.json()


def finish_score_match(league: League) -> None:
    with committed():
        demo.play(league.score, random.Random(5))


def test_each_subscribed_happening_is_delivered_signed(league: League, receiver: Receiver) -> None:
    hook = subscribe(league, receiver.url, ["match.completed", "deal.recorded"])
    finish_score_match(league)
    kinds = [headers["Seep-Event"] for headers, _ in receiver.received]
    assert kinds.count("match.completed") == 1 and kinds.count("deal.recorded") >= 1
    for headers, body in receiver.received:
        assert webhooks.verify(hook["secret"], headers["Seep-Signature"], body)
        assert not webhooks.verify("another secret", headers["Seep-Signature"], body)
        assert not webhooks.verify(hook["secret"], headers["Seep-Signature"], body + b" ")
    completed = json.loads(
        next(b for h, b in receiver.received if h["Seep-Event"] == "match.completed")
    )
    assert completed["match"] == league.score.pk and completed["tournament"] == league.a.pk
    assert completed["winner"] in (league.teams_a[2].pk, league.teams_a[3].pk, None)


def test_a_kind_not_subscribed_is_not_sent(league: League, receiver: Receiver) -> None:
    subscribe(league, receiver.url, ["round.published"])
    finish_score_match(league)
    assert receiver.received == []


def test_a_failing_receiver_is_retried_with_backoff_and_each_attempt_is_logged(
    league: League, settings: Any
) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE_NETWORKS = True
    with Receiver(fail=2) as receiver:
        hook = subscribe(league, receiver.url, ["match.completed"])
        finish_score_match(league)
        delivery = WebhookDelivery.objects.get(webhook_id=hook["id"])
        assert (delivery.status, delivery.attempts) == ("pending", 1)
        assert delivery.next_attempt_at is not None
        assert tasks.backoff(1) == 2 and tasks.backoff(2) == 4 and tasks.backoff(20) == 3600
        assert tasks.attempt(delivery.pk) is None  # not due yet: an early copy posts nothing
        WebhookDelivery.objects.filter(pk=delivery.pk).update(next_attempt_at=None)
        assert tasks.attempt(delivery.pk) is False  # the second failure
        WebhookDelivery.objects.filter(pk=delivery.pk).update(next_attempt_at=None)
        assert tasks.attempt(delivery.pk) is True
        assert tasks.attempt(delivery.pk) is None  # delivered: never posted again
    log = league.client("organizer_a").get(f"/api/v1/webhooks/{hook['id']}/deliveries/").json()
    (shown,) = log["results"]
    assert shown["status"] == "succeeded" and shown["attempts"] == 3
    assert [a["status_code"] for a in shown["attempt_log"]] == [503, 503, 204]
    assert len(receiver.received) == 3


def test_a_delivery_gives_up_after_the_last_attempt(league: League, settings: Any) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE_NETWORKS = True
    settings.WEBHOOK_MAX_ATTEMPTS = 2
    hook = subscribe(league, "http://127.0.0.1:9/nobody-listens", ["match.completed"])
    finish_score_match(league)
    delivery = WebhookDelivery.objects.get(webhook_id=hook["id"])
    WebhookDelivery.objects.filter(pk=delivery.pk).update(next_attempt_at=None)
    assert tasks.attempt(delivery.pk) is True  # done: given up
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("failed", 2)
    assert delivery.attempt_log.first().error


def test_a_webhook_into_a_private_network_is_refused_by_default(league: League) -> None:
    made = league.client("organizer_a").post(
        "/api/v1/webhooks/",
        {"tournament": league.a.pk, "url": "http://127.0.0.1:8000/x", "kinds": ["match.completed"]},
        format="json",
    )
    assert made.status_code == 422 and made.json()["code"] == "bad_webhook_url"
    made = league.client("organizer_a").post(
        "/api/v1/webhooks/",
        {"tournament": league.a.pk, "url": "ftp://example.org/x", "kinds": ["match.completed"]},
        format="json",
    )
    assert made.status_code in (400, 422)


def test_the_secret_is_shown_when_the_subscription_is_made_and_never_again(
    league: League, receiver: Receiver
) -> None:
    made = subscribe(league, receiver.url, ["match.completed"])
    assert len(made["secret"]) == 64
    for client in (
        league.client("organizer_a"),
        league.client("director_a"),
        league.client(token="a_read"),
    ):
        listed = client.get("/api/v1/webhooks/")
        assert listed.status_code == 200
        hooks = listed.json()["results"]
        assert [h["id"] for h in hooks] == [made["id"]]
        assert "secret" not in hooks[0] and made["secret"] not in listed.content.decode()


@pytest.mark.parametrize("who", [None, "outsider"])
def test_a_private_tournament_is_no_tournament_to_subscribe_to(
    league: League, receiver: Receiver, who: str | None
) -> None:
    answers = [
        league.client(who).post(
            "/api/v1/webhooks/",
            {"tournament": pk, "url": receiver.url, "kinds": ["match.completed"]},
            format="json",
        )
        for pk in (league.b.pk, 987654)
    ]
    if who is None:  # signed out: refused before the body is read
        assert [a.status_code for a in answers] == [401, 401]
        assert {a.json()["code"] for a in answers} == {"not_authenticated"}
    else:
        assert [a.status_code for a in answers] == [400, 400]
        assert answers[0].json()["errors"] == answers[1].json()["errors"]
        assert answers[0].json()["errors"] == {"tournament": ["no such tournament"]}


def test_a_round_taken_back_is_delivered_with_the_matches_it_called_off(
    receiver: Receiver,
) -> None:
    from tests.api.conftest import CommittingClient
    from tests.competition.helpers import make_club

    club = make_club(6)
    stage = club.start(club.stage(format="swiss", rounds=3))
    round_ = club.publish(club.pair(stage))
    matches = sorted(f.match_id for f in round_.fixtures.all() if f.match_id is not None)
    client = CommittingClient()
    client.force_login(club.organizer)
    made = client.post(
        "/api/v1/webhooks/",
        {"tournament": club.tournament.pk, "url": receiver.url, "kinds": ["round.unpublished"]},
        format="json",
    )
    assert made.status_code == 201, made.content

    taken_back = client.post(f"/api/v1/rounds/{round_.pk}/unpublish/")

    assert taken_back.status_code == 200, taken_back.content
    assert [h["Seep-Event"] for h, _ in receiver.received] == ["round.unpublished"]
    headers, body = receiver.received[0]
    assert webhooks.verify(made.json()["secret"], headers["Seep-Signature"], body)
    told = json.loads(body)
    assert (told["stage"], told["round"], told["called_off"]) == (stage.pk, 1, matches)
    assert len(matches) == 3
