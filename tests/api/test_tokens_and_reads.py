"""Tokens (made, listed, revoked; stored hashed; scoped; expiring), pagination, filters, ETags."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from api.models import ApiToken
from competition import demo
from tests.scoring.helpers import committed

from .conftest import League

pytestmark = pytest.mark.django_db


def test_a_token_is_made_shown_once_stored_hashed_and_revoked(league: League) -> None:
    owner = league.client("a00")  # a player may make a token to play through a bot
    made = owner.post(
        "/api/v1/tokens/",
        {"name": "my bot", "tournament": league.a.pk, "write": True, "expires_in_days": 7},
        format="json",
    )
    assert made.status_code == 201, made.content
    text = made.json()["token"]
    stored = ApiToken.objects.get(pk=made.json()["id"])
    assert text not in (stored.digest, stored.token_key) and text.startswith(stored.token_key)
    assert stored.expiry - timezone.now() > timedelta(days=6)
    listed = owner.get("/api/v1/tokens/").json()["results"]
    assert [t["id"] for t in listed] == [stored.pk] and not listed[0].get("token")
    bot = league.client()
    bot.credentials(HTTP_AUTHORIZATION=f"Bearer {text}")
    assert bot.get(f"/api/v1/matches/{league.digital.pk}/state/").json()["seat"] == 0
    assert owner.delete(f"/api/v1/tokens/{stored.pk}/").status_code == 204
    assert bot.get("/api/v1/tournaments/").status_code == 401
    assert league.client("outsider").delete(f"/api/v1/tokens/{stored.pk}/").status_code == 404


def test_a_token_for_a_tournament_one_cannot_see_is_refused_as_one_that_is_not(
    league: League,
) -> None:
    """A private tournament's id and an id that names none get the same answer."""
    answers = [
        league.client("outsider").post(
            "/api/v1/tokens/", {"name": "x", "tournament": pk}, format="json"
        )
        for pk in (league.b.pk, 987654)
    ]
    assert [a.status_code for a in answers] == [400, 400]
    assert answers[0].json()["errors"] == answers[1].json()["errors"]
    assert answers[0].json()["errors"] == {"tournament": ["no such tournament"]}


def test_an_expired_token_no_longer_works(league: League) -> None:
    ApiToken.objects.filter(name="a_write").update(expiry=timezone.now() - timedelta(seconds=1))
    assert league.client(token="a_write").get("/api/v1/tournaments/").status_code == 401


def test_a_read_only_token_reads_but_never_writes(league: League) -> None:
    reader = league.client(token="a_read")
    assert reader.get(f"/api/v1/tournaments/{league.a.pk}/").status_code == 200
    response = reader.patch(f"/api/v1/tournaments/{league.a.pk}/", {"name": "X"}, format="json")
    assert response.status_code == 403 and response.json()["code"] == "token_read_only"


def test_lists_are_paged_with_a_maximum_page_size(league: League) -> None:
    c = league.client("organizer_a")
    page = c.get(f"/api/v1/tournaments/{league.a.pk}/teams/?page_size=3").json()
    assert (page["count"], len(page["results"])) == (4, 3) and page["next"]
    assert (
        len(c.get(f"/api/v1/tournaments/{league.a.pk}/teams/?page_size=9999").json()["results"])
        == 4
    )
    assert c.get(f"/api/v1/tournaments/{league.a.pk}/teams/?page=99").status_code == 404


def test_matches_are_filtered_by_team_and_status(league: League) -> None:
    c = league.client("organizer_a")
    team = league.teams_a[2].pk
    found = c.get(f"/api/v1/matches/?team={team}").json()["results"]
    assert [m["id"] for m in found] == [league.score.pk]
    assert c.get("/api/v1/matches/?status=finished").json()["count"] == 0
    assert c.get("/api/v1/matches/?status=bogus").status_code == 400


def test_the_event_feed_pages_by_seq(league: League) -> None:
    with committed():
        demo.play(league.digital, random.Random(3), moves=25)
    c = league.client()
    first = c.get(f"/api/v1/matches/{league.digital.pk}/events/?limit=10").json()
    assert [e["seq"] for e in first["results"]] == list(range(1, 11))
    rest = c.get(first["next"]).json()
    assert rest["results"][0]["seq"] == 11
    assert c.get(f"/api/v1/matches/{league.digital.pk}/events/?after=abc").status_code == 400


def test_polling_the_state_with_its_etag_gets_304_until_something_happens(league: League) -> None:
    c = league.client("a00")
    url = f"/api/v1/matches/{league.digital.pk}/state/"
    first = c.get(url)
    assert first.status_code == 200 and first["ETag"]
    assert c.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert league.client("a10").get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200
    with committed():
        demo.play(league.digital, random.Random(4), moves=1)
    assert c.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


def test_standings_and_brackets_carry_etags(league: League) -> None:
    from competition import services

    organizer = league.users["organizer_a"]
    stage = services.stage_create(
        actor=organizer,
        tournament=league.a,
        name="KO",
        format="single_elimination",
        mode="score",
        match_format={"bazzis": 1, "deal_cap": 1},
        review_draw=True,
    )
    with committed():
        services.stage_start(actor=organizer, stage=stage)
    c = league.client()
    bracket = c.get(f"/api/v1/stages/{stage.pk}/bracket/")
    assert bracket.status_code == 200 and not bracket.json()["rounds"]  # a draft: not public yet
    director = league.client("organizer_a")
    assert director.get(f"/api/v1/stages/{stage.pk}/bracket/").json()["rounds"]
    first = stage.round_set.order_by("number").first()
    publish = director.post(f"/api/v1/rounds/{first.pk}/publish/")
    assert publish.status_code == 200
    seen = c.get(f"/api/v1/stages/{stage.pk}/bracket/")
    assert (
        c.get(f"/api/v1/stages/{stage.pk}/bracket/", HTTP_IF_NONE_MATCH=seen["ETag"]).status_code
        == 304
    )
    table = c.get(f"/api/v1/stages/{stage.pk}/standings/")
    assert table.status_code == 200
    assert (
        c.get(f"/api/v1/stages/{stage.pk}/standings/", HTTP_IF_NONE_MATCH=table["ETag"]).status_code
        == 304
    )
    assert c.get(f"/api/v1/stages/{stage.pk}/standings/?round=x").status_code == 400


def test_the_docs_and_the_schema_are_served_by_the_project(league: League) -> None:
    c = league.client()
    page = c.get("/api/docs/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "cdn" not in html.lower() and "unpkg" not in html.lower()
    schema = c.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    spec: Any = schema.json()
    assert spec["openapi"].startswith("3.1")
    command = spec["components"]["schemas"]["MatchCommandRequest"]
    assert command["discriminator"]["propertyName"] == "kind"
