"""What an integrator finds (issue 28): defaults that match the docs, answers that agree.

A knockout plays to a winner whatever format it came from; its draw is published at the start
unless the stage says to review it; standings list every team from the start; a match's
result says how far it has folded the log, and a client can wait for it; the drawn dealer
shows; a standings webhook carries the table, and a stored delivery its signed body.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from api import webhooks
from api.models import WebhookDelivery
from competition import demo
from competition.models import Stage
from scoring.models import MatchResult
from tests.scoring.helpers import committed

from .conftest import League

pytestmark = pytest.mark.django_db

FORMAT = {"bazzis": 1, "deal_cap": 2}


def stages_url(league: League) -> str:
    return f"/api/v1/tournaments/{league.a.pk}/stages/"


def make_stage(league: League, **settings: Any) -> dict[str, Any]:
    made = league.client("organizer_a").post(
        stages_url(league), {"name": "Stage", "mode": "score", **settings}, format="json"
    )
    assert made.status_code == 201, made.content[:500]
    return dict(made.json())


def test_a_swiss_stage_turned_into_a_knockout_plays_on_to_a_winner(league: League) -> None:
    """Its own format (the tournament's, drawable) becomes one that never draws."""
    stage = make_stage(league, format="swiss", rounds=2)
    assert stage["match_format"]["draws"] is True
    changed = league.client("organizer_a").patch(
        f"/api/v1/stages/{stage['id']}/", {"format": "single_elimination"}, format="json"
    )
    assert changed.status_code == 200, changed.content[:500]
    assert changed.json()["match_format"] == {**stage["match_format"], "draws": False}
    refused = league.client("organizer_a").patch(
        f"/api/v1/stages/{stage['id']}/",
        {"match_format": {**stage["match_format"], "draws": True}},
        format="json",
    )
    assert refused.status_code == 422 and refused.json()["code"] == "bad_format"
    assert "cannot end drawn" in refused.json()["errors"]["match_format"][0]


def test_a_started_knockout_is_published_at_once_unless_its_draw_is_reviewed(
    league: League,
) -> None:
    organizer = league.client("organizer_a")
    ko = make_stage(league, format="single_elimination", match_format=FORMAT)
    assert ko["review_draw"] is False
    assert organizer.post(f"/api/v1/stages/{ko['id']}/start/").status_code == 200
    rounds = league.client().get(f"/api/v1/stages/{ko['id']}/rounds/").json()["results"]
    assert [r["status"] for r in rounds] == ["published", "published"]  # seen by everyone
    first = league.client().get(f"/api/v1/rounds/{rounds[0]['id']}/").json()
    assert all(f["match"] is not None for f in first["fixtures"])  # its matches are made


def test_a_knockout_whose_draw_is_reviewed_starts_as_a_draft(league: League) -> None:
    organizer = league.client("organizer_a")
    ko = make_stage(league, format="single_elimination", match_format=FORMAT, review_draw=True)
    assert organizer.post(f"/api/v1/stages/{ko['id']}/start/").status_code == 200
    assert league.client().get(f"/api/v1/stages/{ko['id']}/rounds/").json()["results"] == []
    (draft, *_) = organizer.get(f"/api/v1/stages/{ko['id']}/rounds/").json()["results"]
    assert draft["status"] == "draft"
    assert organizer.post(f"/api/v1/rounds/{draft['id']}/publish/").status_code == 200


def test_standings_list_every_team_from_the_start_by_seed(league: League) -> None:
    stage = make_stage(league, format="swiss", rounds=2, match_format=FORMAT)
    url = f"/api/v1/stages/{stage['id']}/standings/"
    assert league.client().get(url).json()["rows"] == []  # pending: no team has entered yet
    started = league.client("organizer_a").post(f"/api/v1/stages/{stage['id']}/start/")
    assert started.status_code == 200, started.content
    table = league.client().get(url).json()
    assert table["as_of_round"] == 0
    seeds = list(
        Stage.objects.get(pk=stage["id"]).entries.order_by("seed").values_list("team", flat=True)
    )
    assert [row["team"]["id"] for row in table["rows"]] == seeds == [t.pk for t in league.teams_a]
    assert [row["rank"] for row in table["rows"]] == [1, 2, 3, 4]
    assert {(r["points"], r["played"], r["won"], r["byes"]) for r in table["rows"]} == {
        (0, 0, 0, 0)
    }
    page = league.client().get(f"/t/{league.a.slug}/").content.decode()
    assert all(team.name in page for team in league.teams_a)


def test_a_match_says_how_far_its_result_has_folded_and_waits_for_it(
    league: League, settings: Any
) -> None:
    settings.API_WAIT_FOR_SEQ_SECONDS = 1
    url = f"/api/v1/matches/{league.score.pk}/"
    with committed():
        demo.play(league.score, random.Random(5))
    league.score.refresh_from_db()
    head = league.score.last_seq
    answer = league.client().get(url).json()
    assert answer["status"] == "finished" and answer["result"]["seq"] == head
    assert answer["result"]["over"] is True
    # as on the stack, a moment before the projection has run: the result says so
    MatchResult.objects.filter(match=league.score).update(seq=head - 1, over=False)
    behind = league.client().get(f"{url}?wait_for_seq={head}").json()  # waits its bound
    assert behind["last_seq"] == head and behind["result"]["seq"] == head - 1
    MatchResult.objects.filter(match=league.score).update(seq=head, over=True)
    caught_up = league.client().get(f"{url}?wait_for_seq={head + 10}").json()  # the head
    assert caught_up["result"]["seq"] == head and caught_up["result"]["over"] is True
    assert league.client().get(f"{url}?wait_for_seq=x").status_code == 400


def test_a_match_shows_the_dealer_its_log_drew(league: League) -> None:
    answer = league.client().get(f"/api/v1/matches/{league.digital.pk}/").json()
    assert answer["first_dealer"] == 3  # the league's matches are started with dealer 3
    listed = league.client().get(f"/api/v1/matches/?tournament={league.a.pk}").json()
    assert {m["first_dealer"] for m in listed["results"]} == {3}


def test_standings_changed_carries_the_table_and_a_delivery_keeps_its_signed_body(
    league: League, settings: Any
) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE_NETWORKS = True
    organizer = league.client("organizer_a")
    made = organizer.post(
        "/api/v1/webhooks/",
        {"tournament": league.a.pk, "url": "http://127.0.0.1:9/seep",
         "kinds": ["standings.changed"]},
        format="json",
    )  # fmt: skip
    assert made.status_code == 201, made.content[:300]
    hook = made.json()
    WebhookDelivery.objects.filter(webhook_id=hook["id"]).delete()
    stage = make_stage(league, format="swiss", rounds=2, match_format=FORMAT)
    organizer.post(f"/api/v1/stages/{stage['id']}/start/")
    delivery = WebhookDelivery.objects.filter(webhook_id=hook["id"]).latest("pk")
    body = delivery.body
    assert body["kind"] == "standings.changed" and body["as_of_round"] == 0
    table = league.client().get(f"/api/v1/stages/{stage['id']}/standings/").json()
    assert body["rows"] == table["rows"] and len(body["rows"]) == 4
    # the stored body is the signed one: id and created_at included, the bytes the same
    assert body["id"] == delivery.pk and body["created_at"] == delivery.created_at.isoformat()
    shown = organizer.get(f"/api/v1/webhooks/{hook['id']}/deliveries/").json()["results"][0]
    sent = webhooks.body_bytes(delivery)
    assert json.dumps(shown["body"], sort_keys=True, separators=(",", ":")).encode() == sent
    header = webhooks.sign(hook["secret"], 1_900_000_000, sent)
    assert webhooks.verify(hook["secret"], header, sent, tolerance=10**10)
