"""docs/events.md's hash-chain recipe, run exactly as the docs print it, against the event feed.

The logs hold what the chain hashes in every way: commands with and without an
Idempotency-Key (through the API: ``via`` and ``request_digest`` set), derived events, the
server's own events, an entry and an answer made through a team's link, a director's
correction, and a digital deal whose deck is hidden from the public while it is in play.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import TestCase
from rest_framework.test import APIClient

from competition import demo
from tests.scoring.helpers import committed, new_match
from tournaments import links
from tournaments.access import SYSTEM
from tournaments.models import Match, Tournament
from tournaments.services import match_append_event

pytestmark = pytest.mark.django_db

DOCS = Path(__file__).resolve().parents[2] / "docs" / "events.md"


def recipe() -> dict[str, Any]:
    """Return the names the docs' recipe defines (its one Python block under the chain)."""
    text = DOCS.read_text()
    section = text[text.index("## The hash chain") :]
    found = re.search(r"```python\n(.*?)```", section, re.S)
    assert found is not None, "docs/events.md: the hash chain has no Python recipe"
    names: dict[str, Any] = {}
    exec(compile(found.group(1), str(DOCS), "exec"), names)  # our own docs
    return names


class Committing(APIClient):
    def request(self, *args: Any, **kwargs: Any) -> Any:
        with TestCase.captureOnCommitCallbacks(execute=True):
            return super().request(*args, **kwargs)


def client(user: Any = None) -> Committing:
    c = Committing()
    if user is not None:
        c.force_login(user)
    return c


def feed(match: Match, user: Any = None, path: str = "events") -> list[dict[str, Any]]:
    """Return the match's whole feed as ``user`` reads it, page by page (3 events a page)."""
    events: list[dict[str, Any]] = []
    url: str | None = f"/api/v1/matches/{match.pk}/{path}/?limit=3"
    while url:
        page = client(user).get(url)
        assert page.status_code == 200, page.content[:300]
        events += page.json()["results"]
        url = page.json()["next"]
    return events


def append(
    match: Match, user: Any, kind: str, payload: dict[str, Any], key: str | None = None
) -> None:
    match.refresh_from_db()
    headers = {} if key is None else {"HTTP_IDEMPOTENCY_KEY": key}
    answer = client(user).post(
        f"/api/v1/matches/{match.pk}/events/",
        {"expected_seq": match.last_seq, "kind": kind, "payload": payload},
        format="json",
        **headers,
    )
    assert answer.status_code == 201, answer.content[:300]


@pytest.fixture
def published(world: Any) -> Any:
    Tournament.objects.filter(pk=world.tournament.pk).update(published=True)
    return world


def test_the_docs_recipe_checks_every_event_of_a_score_match(published: Any) -> None:
    world = published
    check = recipe()["check_chain"]
    match = new_match(world, mode="score", teams=(2, 3), fmt={"bazzis": 3})
    Match.objects.filter(pk=match.pk).update(confirmation="other_team")
    with committed():  # the server's own: no actor, no key, no via
        match_append_event(
            match=match, expected_seq=0, kind="match_started", payload={"first_dealer": 1},
            actor=SYSTEM,
        )  # fmt: skip
    deal = {"points": [62, 38], "sweeps": [[], []]}
    append(match, world.players[4].user, "deal_entered", deal, key="entry-1")  # keyed
    link, _ = links.team_link(actor=world.organizer, team=world.teams[3])
    match.refresh_from_db()
    with committed():  # through team 3's link: via team-link:1:<id>, the deal_ended derived
        match_append_event(
            match=match, expected_seq=match.last_seq, kind="deal_confirmed",
            payload={"entry": 1}, actor=links.actor_for(link),
        )  # fmt: skip
    append(match, world.players[6].user, "deal_entered", deal)  # unkeyed, by session
    append(match, world.players[4].user, "deal_confirmed", {"entry": 1}, key="answer-2")
    correction = {"deal": 1, "points": [48, 52], "sweeps": [[], []],
                  "reason": "miscounted: Zoë saw it"}  # fmt: skip
    append(match, world.organizer, "deal_corrected", correction, key="fix-1")
    append(match, world.organizer, "score_adjusted",
           {"team": 0, "points": -5, "reason": "late"})  # fmt: skip

    match.refresh_from_db()
    public = feed(match)
    vias = {e["via"].split(":", 1)[0] for e in public}
    assert vias == {"", "session", "team-link"}
    assert {bool(e["idempotency_key"]) for e in public} == {True, False}
    assert any(e["request_digest"] for e in public) and any(e["caused_by"] for e in public)
    assert all(e["recorded_at"].endswith("+00:00") for e in public)
    assert check(public) == []
    assert public[-1]["hash"] == match.last_hash
    history = feed(match, world.organizer, "history")
    assert check(history) == []
    assert [e["hash"] for e in history] == [e["hash"] for e in public]


def test_a_hidden_deck_is_left_unchecked_until_its_deal_is_over(published: Any) -> None:
    world = published
    check = recipe()["check_chain"]
    match = new_match(world, mode="digital", fmt={"bazzis": 1, "deal_cap": 1})
    with committed():
        match_append_event(
            match=match, expected_seq=0, kind="match_started", payload={}, actor=SYSTEM,
            idempotency_key="start",
        )  # fmt: skip
    with committed():
        demo.play(match, random.Random(3), moves=5)

    public = feed(match)
    hidden = [e for e in public if e.get("hidden")]
    assert [e["kind"] for e in hidden] == ["deal_started"] and hidden[0]["payload"]["deck"] is None
    assert check(public) == [hidden[0]["seq"]]  # everything else checks out
    assert check(feed(match, world.organizer)) == []  # a director sees the deck

    with committed():
        demo.play(match, random.Random(3))  # to the end: the deal is over
    match.refresh_from_db()
    assert match.status == "finished"
    public = feed(match)
    assert check(public) == [] and public[-1]["hash"] == match.last_hash


def test_a_tampered_event_is_found(published: Any) -> None:
    names = recipe()
    world = published
    match = new_match(world, mode="score", teams=(2, 3))
    with committed():
        match_append_event(
            match=match, expected_seq=0, kind="match_started", payload={"first_dealer": 0},
            actor=SYSTEM,
        )  # fmt: skip
    append(match, world.organizer, "deal_ended", {"points": [70, 30], "sweeps": [[], []]}, "k")
    events = feed(match)
    assert names["check_chain"](events) == []
    events[1]["via"] = "session" if events[1]["via"] != "session" else "admin"
    with pytest.raises(ValueError, match="does not hash"):
        names["check_chain"](events)
