"""Every change told reaches a webhook receiver: a corrected deal (with what it replaced), the
match a voided deal reopens, and a bracket's later match made once both its teams are known,
each posted to a real HTTP receiver on loopback, signed, with the results log's seq of the
same happening (a receiver drops a repeat by it)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from api import results, webhooks
from api.models import Webhook
from competition import services
from competition.corrections import apply_correction
from competition.models import Fixture
from tests.scoring.helpers import committed

from .helpers import Club, make_club
from .test_corrections import correct, flip, score

pytestmark = pytest.mark.django_db

SECRET = "loopback-secret"


class Receiver:
    """A local HTTP server keeping each post's headers and body; it answers 204."""

    def __init__(self) -> None:
        self.posts: list[tuple[dict[str, str], bytes]] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.posts.append((dict(self.headers), body))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def told(self, kind: str) -> list[dict[str, Any]]:
        """The bodies posted of one kind, each checked to carry the webhook's signature."""
        bodies = []
        for headers, body in self.posts:
            assert webhooks.verify(SECRET, headers["Seep-Signature"], body)
            parsed = json.loads(body)
            if parsed.get("kind", headers.get("Seep-Event")) == kind:
                bodies.append(parsed)
        return bodies


@pytest.fixture
def receiver(settings: Any) -> Iterator[Receiver]:
    settings.WEBHOOKS_ALLOW_PRIVATE_NETWORKS = True  # the receiver is on loopback
    r = Receiver()
    r.thread.start()
    try:
        yield r
    finally:
        r.server.shutdown()
        r.server.server_close()


def subscribe(club: Club, url: str, *kinds: str) -> Webhook:
    return Webhook.objects.create(
        tournament=club.tournament, url=url, kinds=list(kinds), secret=SECRET,
        created_by=club.organizer,
    )  # fmt: skip


def logged(club: Club, kind: str) -> list[dict[str, Any]]:
    return [e for e in results.entries(club.tournament.pk, 0, 1000) if e["kind"] == kind]


def first_match(club: Club) -> Any:
    stage = club.start(club.stage(format="swiss", rounds=3))
    first = club.publish(services.round_pair(actor=club.organizer, stage=stage))
    fixture = Fixture.objects.filter(round=first).order_by("table").first()
    assert fixture is not None and fixture.match is not None
    return fixture.match


def test_a_corrected_deal_and_a_reopened_match_reach_the_receiver(receiver: Receiver) -> None:
    club = make_club(4, slug="received-cup")
    match = first_match(club)
    subscribe(club, receiver.url, "deal.corrected", "deal.voided", "match.reopened")
    score(match, 60, 70)
    correct(club, match, flip(2, 80))  # a bigger win: the same winner
    [corrected] = receiver.told("deal.corrected")
    assert corrected["match"] == match.pk and corrected["deal"] == 2
    assert corrected["points"] == [80, 20] and corrected["replaced"]["points"] == [70, 30]
    assert corrected["seq"] == logged(club, "deal.corrected")[0]["seq"]

    match.refresh_from_db()
    with committed():
        apply_correction(
            actor=club.organizer, match=match, kind="deal_voided",
            payload={"deal": 2, "reason": "played with a short deck"},
            expected_seq=match.last_seq,
        )  # fmt: skip
    [reopened] = receiver.told("match.reopened")
    assert reopened["match"] == match.pk and reopened["deals"] == 1
    assert reopened["seq"] == logged(club, "match.reopened")[0]["seq"]
    [voided] = receiver.told("deal.voided")
    assert voided["replaced"]["points"] == [80, 20]


def test_a_brackets_later_match_reaches_the_receiver_when_it_is_made(
    receiver: Receiver,
) -> None:
    club = make_club(4, slug="received-bracket")
    stage = club.start(club.stage(format="single_elimination", start_matches=False))
    first = stage.round_set.order_by("number").first()
    assert first is not None
    club.publish(first)
    subscribe(club, receiver.url, "match.made", "fixture.filled")
    final = Fixture.objects.filter(stage=stage).order_by("-round__number").first()
    assert final is not None and final.match is None
    for semi in Fixture.objects.filter(round=first).order_by("key"):
        assert semi.match is not None
        assert receiver.told("match.made") == []  # nothing is made before both are known
        score(semi.match, 60, 70)
    final.refresh_from_db()
    assert final.match is not None
    [made] = receiver.told("match.made")
    assert made["match"] == final.match.pk and made["key"] == final.key
    assert [side["id"] for side in made["sides"]] == [final.team_a_id, final.team_b_id]
    filled = receiver.told("fixture.filled")
    assert filled and all(body["fixture"] == final.pk for body in filled)
    assert {b["seq"] for b in [*filled, made]} <= {
        e["seq"] for e in results.entries(club.tournament.pk, 0, 1000)
    }


def test_the_receiver_gets_nothing_of_a_subscription_it_does_not_hold(receiver: Receiver) -> None:
    club = make_club(4, slug="received-other")
    match = first_match(club)
    other = get_user_model().objects.create_user("other-director")
    elsewhere = make_club(4, slug="received-elsewhere")
    Webhook.objects.create(
        tournament=elsewhere.tournament, url=receiver.url, kinds=["deal.corrected"],
        secret=SECRET, created_by=other,
    )  # fmt: skip
    score(match, 60, 70)
    correct(club, match, flip(2, 80))
    assert logged(club, "deal.corrected") and receiver.posts == []
