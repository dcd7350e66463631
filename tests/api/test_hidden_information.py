"""No response shows anyone a card in another seat's hand, or the stock, before the deal is over.

Digital deals are played through the API alone, each move sent by the player whose seat it is,
and every response any seat (and the public, and a webhook receiver) gets is scanned for the
cards that seat may not see at that moment. Directors see everything.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import seep_core as sc
from api.models import WebhookDelivery
from tests.matches import deal_in_play
from tournaments.models import Match

from .conftest import League

pytestmark = pytest.mark.django_db


def secret_for(deal: sc.Deal, seat: int | None) -> set[str]:
    """The cards ``seat`` may not see in the deal in play: other hands and the stock."""
    hidden = {card for s in range(4) if s != seat for card in deal.hand(s)}
    return hidden | set(deal.to_dict()["stock"])


def shown(response: Any) -> str:
    return response.content.decode()


def leaks(text: str, cards: set[str]) -> list[str]:
    return sorted(card for card in cards if f'"{card}"' in text)


@pytest.mark.slow  # every response of two whole matches, read by every seat
@pytest.mark.parametrize("seed", [1, 2])
def test_every_response_to_every_seat_shows_only_what_that_seat_may_see(
    league: League, seed: int, settings: Any
) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE_NETWORKS = True
    director = league.client("organizer_a")
    hooked = director.post(
        "/api/v1/webhooks/",
        {
            "tournament": league.a.pk,
            "url": "http://127.0.0.1:9/unreachable",
            "kinds": ["match.completed", "deal.recorded", "round.published", "standings.changed"],
        },
        format="json",
    )
    assert hooked.status_code == 201
    match: Match = league.digital
    seats = {seat: player.user.username for seat, player in enumerate(match.seat_players())}
    clients = {seat: league.client(name) for seat, name in seats.items()}
    public = league.client()
    rng = random.Random(seed)
    url = f"/api/v1/matches/{match.pk}"
    checked = 0
    for turn in range(70):  # into the second deal: its deck is the new secret
        match.refresh_from_db()
        if match.status != "in_progress":
            break
        deal = deal_in_play(match)
        # what each seat and the public may read now
        for seat, client in [*clients.items(), (None, public)]:
            cards = secret_for(deal, seat)
            paths = ["state/"] if turn % 6 else ["state/", "events/?limit=500", "deals/", ""]
            for path in paths:
                response = client.get(f"{url}/{path}")
                assert response.status_code == 200
                text = shown(response)
                if path.startswith("events/"):  # the deals before are over: their cards are public
                    events = response.json()["results"]
                    start = max(i for i, e in enumerate(events) if e["kind"] == "deal_started")
                    text = json.dumps(events[start:])
                assert not leaks(text, cards), (seat, path, leaks(text, cards))
                checked += 1
        state = clients[deal.to_play].get(f"{url}/state/").json()
        assert state["seat"] == deal.to_play and state["legal_moves"]
        for seat, client in clients.items():
            if seat != deal.to_play:
                assert client.get(f"{url}/state/").json()["legal_moves"] is None
        move = rng.choice(state["legal_moves"])
        response = clients[deal.to_play].post(
            f"{url}/events/",
            {"expected_seq": match.last_seq, "kind": "move_played", "payload": {"move": move}},
            format="json",
        )
        assert response.status_code == 201, response.content
        match.refresh_from_db()
        after = deal_in_play(match) if match.status == "in_progress" else None
        # the mover's own answer shows no card of the deal now in play that it may not see (a
        # new deal: only its deal_started is of it; the events before are the last deal's)
        if after is not None:
            events = response.json()["events"]
            new_deal = events[-1]["kind"] == "deal_started"
            of_now = json.dumps(events[-1] if new_deal else events)
            assert not leaks(of_now, secret_for(after, deal.to_play))
        # an error names no card either
        wrong = clients[(deal.to_play + 1) % 4].post(
            f"{url}/events/",
            {"expected_seq": match.last_seq, "kind": "move_played", "payload": {"move": move}},
            format="json",
        )
        assert wrong.status_code in (403, 409, 422)
    assert checked > 300
    full = director.get(f"{url}/events/").json()["results"]
    assert any(e["kind"] == "deal_started" and e["payload"]["deck"] for e in full)  # directors
    for delivery in WebhookDelivery.objects.all():
        body = json.dumps(delivery.body)
        match.refresh_from_db()
        if match.status == "in_progress":
            deal = deal_in_play(match)
            assert not leaks(body, secret_for(deal, None))
