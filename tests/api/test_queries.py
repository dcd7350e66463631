"""What a request costs in SQL: a standings read and an append through the API, counted.

The counts are the API's own (bench/api.py measures the seconds): a regression that adds a
query to every request fails here. An append's queries are split at the service call
(``match_append_event``), so the store may change its own without touching these.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

import seep_core as sc
from api.models import ApiToken
from api.views import events, standings
from competition import demo
from competition import services as competition
from competition.models import Fixture, Stage
from competition.standings import update_stage_standings
from tests.scoring.helpers import committed
from tournaments.selectors import match_state

from .conftest import League

pytestmark = pytest.mark.django_db


def _played_stage(league: League) -> Stage:
    """A round robin of tournament A's four teams, its first round played and projected."""
    organizer = league.users["organizer_a"]
    stage = competition.stage_create(
        actor=organizer,
        tournament=league.a,
        name="League",
        format="round_robin",
        mode="score",
        match_format={"bazzis": 1, "deal_cap": 1},
    )
    with committed():
        competition.stage_start(actor=organizer, stage=stage)
    round_ = competition.round_pair(actor=organizer, stage=stage)
    with committed():
        competition.round_publish(actor=organizer, round=round_)
    for fixture in Fixture.objects.filter(round=round_, match__isnull=False):
        with committed():
            demo.play(fixture.match, random.Random(fixture.pk))
    assert stage.standing_rows.filter(as_of_round=1).count() == 4
    return stage


def _counted(client: Any, url: str, **headers: Any) -> tuple[Any, int]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, **headers)
    return response, len(queries)


def test_a_standings_read_is_two_queries_once_rendered(league: League) -> None:
    stage = _played_stage(league)
    reader = league.client(token="a_read")
    url = f"/api/v1/stages/{stage.pk}/standings/"
    first, rendering = _counted(reader, url)
    assert first.status_code == 200 and len(first.json()["rows"]) == 4
    # the token (with its user); the stage with its round's checkpoint; the rows
    assert rendering == 3
    # From here the token is one query more, unless the cache is Redis's: then the process
    # remembers the token it verified (api.auth) and asks the database nothing for it.
    token = 0 if getattr(cache, "count_and_mark", None) else 1
    again, cached = _counted(reader, url)
    assert again.json() == first.json() and again["ETag"] == first["ETag"]
    assert cached == token + 1  # the stage with its checkpoint: the body is the cache's
    unchanged, polled = _counted(reader, url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert unchanged.status_code == 304 and polled == token + 1
    as_of, counted = _counted(reader, f"{url}?round=1")
    assert as_of.json() == first.json() and counted == token + 1  # the same table's entry
    assert _counted(reader, f"{url}?round=2")[0].json()["rows"] == []  # not yet played


def test_a_cached_table_follows_team_names_and_rebuilds(league: League) -> None:
    stage = _played_stage(league)
    reader = league.client()
    url = f"/api/v1/stages/{stage.pk}/standings/"
    first = reader.get(url)
    team = league.teams_a[0]
    team.name = "Renamed"
    with committed():
        team.save()
    renamed = reader.get(url)
    assert "Renamed" in {row["team"]["name"] for row in renamed.json()["rows"]}
    assert renamed["ETag"] != first["ETag"]
    assert reader.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200
    # a rebuild rewrites the rows under the same digest: the table is rendered again
    stage.standing_rows.update(points=99)
    update_stage_standings(stage_id=stage.pk, rebuild=True)
    rebuilt = reader.get(url)
    assert rebuilt.json() == renamed.json() and rebuilt["ETag"] != renamed["ETag"]
    # a rename past the model's signals (a queryset's update) is read with the stage
    type(team).objects.filter(pk=team.pk).update(name="Renamed again")
    again = reader.get(url)
    assert "Renamed again" in {row["team"]["name"] for row in again.json()["rows"]}
    assert again["ETag"] != rebuilt["ETag"]


def test_a_table_this_process_rendered_is_served_without_the_cache(
    league: League, monkeypatch: pytest.MonkeyPatch
) -> None:
    stage = _played_stage(league)
    reader = league.client()
    url = f"/api/v1/stages/{stage.pk}/standings/"
    first = reader.get(url)
    asked: list[Any] = []
    monkeypatch.setattr(standings.cache, "get", lambda *a, **k: asked.append(a))
    again = reader.get(url)
    assert again.content == first.content and again["ETag"] == first["ETag"]
    assert asked == []  # the body was this process's own
    standings._rendered.clear()  # as in another process: the cache's copy is read
    assert reader.get(url).status_code == 200 and len(asked) == 1


def test_an_append_through_the_api_adds_one_query_to_the_service(
    league: League, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = league.digital
    match.refresh_from_db()
    deal = match_state(match).deal
    assert deal is not None
    seat_users = match_state(match).users
    assert seat_users is not None
    player = next(u for u in league.users.values() if u.pk == seat_users[deal.to_play])
    _, text = ApiToken.objects.create(
        user=player, expiry=timedelta(days=1), name="bot", tournament=league.a, write=True
    )
    service = events.match_append_event
    inside: list[int] = []

    def counted_service(**kwargs: Any) -> Any:
        before = len(connection.queries)
        try:
            return service(**kwargs)
        finally:
            inside.append(len(connection.queries) - before)

    monkeypatch.setattr(events, "match_append_event", counted_service)
    client = APIClient()  # on-commit work (the projection, eager in tests) is not the request's
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {text}")
    body = {
        "expected_seq": match.last_seq,
        "kind": "move_played",
        "payload": {"move": sc.legal_moves(deal)[0]},
    }
    with CaptureQueriesContext(connection) as queries:
        response = client.post(f"/api/v1/matches/{match.pk}/events/", body, format="json")
    assert response.status_code == 201, response.content
    # the token (with its user) alone: whether the caller may see the match is decided on
    # the row the service locks (api.access.admit_to_append)
    assert len(queries) - inside[0] == 1, [q["sql"] for q in queries.captured_queries]


def test_a_users_expired_tokens_are_swept_when_they_manage_tokens(league: League) -> None:
    owner = league.users["organizer_a"]
    ApiToken.objects.filter(name="a_read").update(expiry=timezone.now() - timedelta(seconds=1))
    # presenting another token no longer sweeps them (one query a request) ...
    assert league.client(token="a_write").get("/api/v1/tournaments/").status_code == 200
    assert ApiToken.objects.filter(user=owner, name="a_read").exists()
    # ... the expired one is refused, and gone once its user lists their tokens
    assert league.client(token="a_read").get("/api/v1/tournaments/").status_code == 401
    ApiToken.objects.filter(name="a_write").update(expiry=timezone.now() - timedelta(seconds=1))
    listed = league.client("organizer_a").get("/api/v1/tokens/")
    assert listed.status_code == 200 and listed.json()["count"] == 0
    assert not ApiToken.objects.filter(user=owner).exists()


def test_a_state_read_knows_a_director_from_a_player_by_the_match_query(league: League) -> None:
    url = f"/api/v1/matches/{league.digital.pk}/state/"
    # a seated player, a director the organizer added, a player of another match
    expected = {"a00": [0], "director_a": [0, 1, 2, 3], "a20": []}
    for who, seats in expected.items():
        client = league.client(who)
        client.get(url)  # a warm-up: the content types
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200
        hands = response.json()["position"]["hands"]
        assert [seat for seat, hand in enumerate(hands) if isinstance(hand, list)] == seats, who
        # the session, its user; the match with whether the caller directs its tournament;
        # the head and the snapshot in one statement (no query asks who directs)
        assert len(queries) == 4, (who, [q["sql"][:100] for q in queries.captured_queries])


def test_an_event_feed_read_asks_no_more_to_hide_a_deck(league: League) -> None:
    url = f"/api/v1/matches/{league.digital.pk}/events/"
    for who, deck_shown in (("a00", False), ("director_a", True)):
        client = league.client(who)
        client.get(url)  # a warm-up: the content types
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        dealt = next(e for e in response.json()["results"] if e["kind"] == "deal_started")
        assert (dealt["payload"]["deck"] is not None) is deck_shown, who  # hidden: null
        # the session, its user; the match with whether the caller directs its tournament;
        # the page of events; the deal still in play (its deck is secret)
        assert len(queries) == 5, (who, [q["sql"][:100] for q in queries.captured_queries])
