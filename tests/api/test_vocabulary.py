"""One vocabulary for a fixture's two sides (docs/api.md, "One vocabulary: sides"): every shape
of a fixture or a match in the schema, the webhooks' bodies included, has ``sides`` (two
``Side``s) and names a winner by ``winner_side``; the old names are there, marked deprecated, as
docs/api-changelog.md lists them; and the answers agree with themselves."""

from __future__ import annotations

import re
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

from api.models import Webhook, WebhookDelivery

from .conftest import League

#: component -> its deprecated properties (docs/api-changelog.md's table)
DEPRECATED = {
    "Fixture": {"team_a", "team_b", "source_a", "source_b"},
    "BracketFixture": {"a", "b", "winner"},
    "Match": {"team0", "team1"},
    "PublishedFixture": {"a", "b"},
    "MatchCompletedBody": {"teams", "winner"},
    "MatchResult": {"winner"},
    "Champion": {"team"},
}
#: the shapes of a fixture or a match: each has sides
WITH_SIDES = ["Fixture", "BracketFixture", "Match", "PublishedFixture", "MatchCompletedBody"]
WITH_WINNER_SIDE = [*[n for n in WITH_SIDES if n != "Match"], "MatchResult"]


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-any-return]


def components(schema: dict[str, Any]) -> dict[str, Any]:
    return schema["components"]["schemas"]  # type: ignore[no-any-return]


def test_a_side_is_its_index_and_its_team(schema: dict[str, Any]) -> None:
    side = components(schema)["Side"]
    assert set(side["properties"]) == {"side", "id", "name", "source"}
    assert side["properties"]["side"]["minimum"] == 0
    assert side["properties"]["side"]["maximum"] == 1


@pytest.mark.parametrize("name", WITH_SIDES)
def test_every_fixture_and_match_shape_has_two_sides(schema: dict[str, Any], name: str) -> None:
    sides = components(schema)[name]["properties"]["sides"]
    assert sides["type"] == "array"
    assert sides["items"] == {"$ref": "#/components/schemas/Side"}
    assert sides["minItems"] == sides["maxItems"] == 2
    assert not sides.get("deprecated")


@pytest.mark.parametrize("name", WITH_WINNER_SIDE)
def test_a_winner_is_named_by_its_side(schema: dict[str, Any], name: str) -> None:
    winner_side = components(schema)[name]["properties"]["winner_side"]
    assert "integer" in winner_side["type"]
    assert not winner_side.get("deprecated")


@pytest.mark.parametrize(("name", "old"), sorted(DEPRECATED.items()))
def test_the_old_names_are_kept_and_marked_deprecated(
    schema: dict[str, Any], name: str, old: set[str]
) -> None:
    properties = components(schema)[name]["properties"]
    marked = {key for key, value in properties.items() if value.get("deprecated")}
    assert marked == old


def test_the_bracket_and_the_webhooks_are_described(schema: dict[str, Any]) -> None:
    bracket = schema["paths"]["/api/v1/stages/{id}/bracket/"]["get"]["responses"]["200"]
    assert bracket["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Bracket"
    }
    assert set(schema["webhooks"]) == set(Webhook.Kind.values)
    round_body = components(schema)["RoundPublishedBody"]["properties"]["fixtures"]
    assert round_body["items"] == {"$ref": "#/components/schemas/PublishedFixture"}


def test_a_published_round_says_its_sides_alike_in_answers_and_webhooks(league: League) -> None:
    director = league.client("organizer_a")
    Webhook.objects.create(
        tournament=league.a,
        url="https://example.com/h",
        kinds=["round.published"],
        secret="s",
        created_by=league.users["organizer_a"],
    )
    stage = director.post(
        f"/api/v1/tournaments/{league.a.pk}/stages/",
        {"name": "League", "format": "round_robin", "mode": "score"},
        format="json",
    ).json()
    assert director.post(f"/api/v1/stages/{stage['id']}/start/").status_code == 200
    draft = director.post(f"/api/v1/stages/{stage['id']}/rounds/").json()
    published = director.post(f"/api/v1/rounds/{draft['id']}/publish/").json()

    assert any(f["match"] for f in published["fixtures"])  # the checks below have matches
    for fixture in published["fixtures"]:
        sides = fixture["sides"]
        assert [s["side"] for s in sides] == [0, 1]
        assert sides[0]["id"] == (fixture["team_a"] or {}).get("id")
        assert sides[1]["id"] == (fixture["team_b"] or {}).get("id")
        if fixture["match"] is not None:
            match = director.get(f"/api/v1/matches/{fixture['match']}/").json()
            assert match["sides"] == sides
            assert [match["team0"]["id"], match["team1"]["id"]] == [s["id"] for s in sides]

    body = WebhookDelivery.objects.get(kind="round.published").body
    assert [f["sides"] for f in body["fixtures"]] == [f["sides"] for f in published["fixtures"]]
    assert [[f["a"], f["b"]] for f in body["fixtures"]] == [
        [s["id"] for s in f["sides"]] for f in published["fixtures"]
    ]


@pytest.mark.parametrize("format_", ["round_robin", "single_elimination"])
def test_a_fixtures_key_and_where_its_teams_go_read_alike_everywhere(
    league: League, format_: str
) -> None:
    """``key``, ``winner_to`` and ``loser_to``: null where there is none, in a round's answer
    as in ``round.published`` (the answer said ``""``); in a bracket, as the schema documents
    them ("R2-1:a": a later fixture's key, and the place there)."""
    director = league.client("organizer_a")
    Webhook.objects.create(
        tournament=league.a,
        url="https://example.com/h",
        kinds=["round.published"],
        secret="s",
        created_by=league.users["organizer_a"],
    )
    stage = director.post(
        f"/api/v1/tournaments/{league.a.pk}/stages/",
        {"name": "Stage", "format": format_, "mode": "score"},
        format="json",
    ).json()
    assert director.post(f"/api/v1/stages/{stage['id']}/start/").status_code == 200
    if format_ == "round_robin":
        draft = director.post(f"/api/v1/stages/{stage['id']}/rounds/").json()
        published = director.post(f"/api/v1/rounds/{draft['id']}/publish/").json()
    else:  # a bracket's first round is drawn and published at its start
        published = director.get(f"/api/v1/stages/{stage['id']}/rounds/").json()["results"][0]
    read = director.get(f"/api/v1/rounds/{published['id']}/").json()
    assert read["fixtures"] == published["fixtures"]
    (body,) = [
        d.body
        for d in WebhookDelivery.objects.filter(kind="round.published")
        if d.body["round"] == read["number"]
    ]
    assert [f["key"] for f in body["fixtures"]] == [f["key"] for f in read["fixtures"]]
    for fixture in read["fixtures"]:
        if format_ == "round_robin":
            assert fixture["key"] is None
            assert fixture["winner_to"] is None and fixture["loser_to"] is None
        else:
            assert re.fullmatch(r"R\d+-\d+", fixture["key"]), fixture
            assert re.fullmatch(r"R\d+-\d+:[ab]", fixture["winner_to"]), fixture
            assert fixture["loser_to"] is None  # a single elimination: out


def test_a_matchs_state_is_described_key_for_key(schema: dict[str, Any], league: League) -> None:
    state = schema["paths"]["/api/v1/matches/{id}/state/"]["get"]["responses"]["200"]
    assert state["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/MatchState"
    }
    described = components(schema)["MatchState"]["properties"]
    answer = league.client("organizer_a").get(f"/api/v1/matches/{league.digital.pk}/state/")
    assert set(answer.json()) == set(described)
    progress = components(schema)["StateProgress"]["properties"]
    assert answer.json()["progress"] is not None
    assert set(answer.json()["progress"]) == set(progress)
