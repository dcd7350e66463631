"""Every change told reaches a webhook receiver: a corrected deal (with what it replaced), the
match a voided deal reopens, and a bracket's later match made once both its teams are known,
each posted to a real HTTP receiver on loopback, signed, with the results log's seq of the
same happening (a receiver drops a repeat by it)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from api import results, webhooks
from api.models import Webhook
from competition import services
from competition.models import Fixture
from tests.api.test_webhooks import Receiver

from .helpers import Club, make_club
from .test_corrections import correct, flip, score, void

pytestmark = pytest.mark.django_db

SECRET = "loopback-secret"


@pytest.fixture
def hooked(settings: Any) -> Iterator[Receiver]:
    """A webhook receiver on loopback (which the site refuses unless told)."""
    settings.WEBHOOKS_ALLOW_PRIVATE_NETWORKS = True
    with Receiver() as receiver:
        yield receiver


def told(receiver: Receiver, kind: str) -> list[dict[str, Any]]:
    """The bodies ``receiver`` was posted of one kind, each checked to carry the signature."""
    bodies = []
    for headers, body in receiver.received:
        assert webhooks.verify(SECRET, headers["Seep-Signature"], body)
        parsed = json.loads(body)
        if parsed.get("kind", headers.get("Seep-Event")) == kind:
            bodies.append(parsed)
    return bodies


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


def test_a_corrected_deal_and_a_reopened_match_reach_the_receiver(hooked: Receiver) -> None:
    club = make_club(4, slug="received-cup")
    match = first_match(club)
    subscribe(club, hooked.url, "deal.corrected", "deal.voided", "match.reopened")
    score(match, 60, 70)
    correct(club, match, flip(2, 80))  # a bigger win: the same winner
    [corrected] = told(hooked, "deal.corrected")
    assert corrected["match"] == match.pk and corrected["deal"] == 2
    assert corrected["points"] == [80, 20] and corrected["replaced"]["points"] == [70, 30]
    assert corrected["seq"] == logged(club, "deal.corrected")[0]["seq"]

    void(club, match, 2)
    [reopened] = told(hooked, "match.reopened")
    assert reopened["match"] == match.pk and reopened["deals"] == 1
    assert reopened["seq"] == logged(club, "match.reopened")[0]["seq"]
    [voided] = told(hooked, "deal.voided")
    assert voided["replaced"]["points"] == [80, 20]


def test_a_brackets_later_match_reaches_the_receiver_when_it_is_made(
    hooked: Receiver,
) -> None:
    club = make_club(4, slug="received-bracket")
    stage = club.start(club.stage(format="single_elimination", start_matches=False))
    first = stage.round_set.order_by("number").first()
    assert first is not None
    club.publish(first)
    subscribe(club, hooked.url, "match.made", "fixture.filled")
    final = Fixture.objects.filter(stage=stage).order_by("-round__number").first()
    assert final is not None and final.match is None
    for semi in Fixture.objects.filter(round=first).order_by("key"):
        assert semi.match is not None
        assert told(hooked, "match.made") == []  # nothing is made before both are known
        score(semi.match, 60, 70)
    final.refresh_from_db()
    assert final.match is not None
    [made] = told(hooked, "match.made")
    assert made["match"] == final.match.pk and made["key"] == final.key
    assert [side["id"] for side in made["sides"]] == [final.team_a_id, final.team_b_id]
    filled = told(hooked, "fixture.filled")
    assert filled and all(body["fixture"] == final.pk for body in filled)
    assert {b["seq"] for b in [*filled, made]} <= {
        e["seq"] for e in results.entries(club.tournament.pk, 0, 1000)
    }


def test_the_receiver_gets_nothing_of_a_subscription_it_does_not_hold(hooked: Receiver) -> None:
    club = make_club(4, slug="received-other")
    match = first_match(club)
    other = get_user_model().objects.create_user("other-director")
    elsewhere = make_club(4, slug="received-elsewhere")
    Webhook.objects.create(
        tournament=elsewhere.tournament, url=hooked.url, kinds=["deal.corrected"],
        secret=SECRET, created_by=other,
    )  # fmt: skip
    score(match, 60, 70)
    correct(club, match, flip(2, 80))
    assert logged(club, "deal.corrected") and hooked.received == []
