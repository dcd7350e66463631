"""A stage's settings through the API: a refusal is a problem document that names the setting.

Settings the formats cannot take are 422 under their stable code (``bad_tiebreaks``,
``bad_format``, ``bad_rounds``, ``bad_entry``, ``bad_confirmation``...) with ``errors`` by
setting, as a 400 ``invalid`` names its fields; a value the request itself cannot carry (a
tie-break that is not one of the keys) is that 400. Nothing is saved either way.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from competition.models import Stage

from .conftest import League

pytestmark = pytest.mark.django_db

FORMAT = {"bazzis": 1, "deal_cap": 2}

#: (settings, status, code, the field named in ``errors``, words of its message)
REFUSALS = [
    pytest.param({"tiebreaks": ["bazzis won", "buchholz"]}, 400, "invalid", "tiebreaks.0",
                 "bazzis won", id="the docs' words for a tie-break"),
    pytest.param({"tiebreaks": ["buchholz", "buchholz"]}, 422, "bad_tiebreaks", "tiebreaks",
                 "more than once", id="a tie-break twice"),
    pytest.param({"tiebreaks": ["random", "buchholz"]}, 422, "bad_tiebreaks", "tiebreaks",
                 "only be the last", id="the random draw not last"),
    pytest.param({"format": "single_elimination", "entry": "top", "entry_count": 8}, 422,
                 "bad_entry", "entry_count", "the top 8", id="a top K larger than the field"),
    pytest.param({"format": "swiss", "rounds": 4, "entry": "top", "entry_count": 4}, 422,
                 "bad_rounds", "rounds", "at most 3 rounds",
                 id="more Swiss rounds than the field allows"),
    pytest.param({"match_format": {"bazzis": 0}}, 422, "bad_format", "match_format",
                 "the match format", id="a match format the engine refuses"),
    pytest.param({"format": "single_elimination", "match_format": {"bazzis": 1, "draws": True}},
                 422, "bad_format", "match_format", "cannot end drawn", id="draws in a knockout"),
    pytest.param({"mode": "digital", "confirmation": "other_team"}, 422, "bad_confirmation",
                 "confirmation", "score mode only", id="a confirmation outside score mode"),
]  # fmt: skip


def problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content[:800]
    assert response["Content-Type"] == "application/problem+json"
    body: dict[str, Any] = json.loads(response.content)
    assert (body["status"], body["code"], body["type"]) == (
        status, code, f"urn:seep:problem:{code}"
    )  # fmt: skip
    return body


def stages_url(league: League) -> str:
    return f"/api/v1/tournaments/{league.a.pk}/stages/"


def first_stage(league: League) -> dict[str, Any]:
    made = league.client("organizer_a").post(
        stages_url(league),
        {"name": "League", "format": "round_robin", "mode": "score", "match_format": FORMAT},
        format="json",
    )
    assert made.status_code == 201, made.content[:500]
    body: dict[str, Any] = made.json()
    return body


def saved(league: League) -> list[dict[str, Any]]:
    return list(Stage.objects.filter(tournament=league.a).order_by("pk").values())


@pytest.mark.parametrize(("settings", "status", "code", "field", "words"), REFUSALS)
def test_a_stage_created_with_a_setting_the_formats_cannot_take_is_refused_naming_it(
    league: League, settings: dict[str, Any], status: int, code: str, field: str, words: str
) -> None:
    first_stage(league)  # four teams play it: the field a top K is checked against
    before = saved(league)
    body = {"name": "Finals", "format": "round_robin", "mode": "score", "match_format": FORMAT,
            **settings}  # fmt: skip
    response = league.client("organizer_a").post(stages_url(league), body, format="json")
    answer = problem(response, status, code)
    assert field in answer["errors"], answer
    assert any(words in message for message in answer["errors"][field]), answer
    assert saved(league) == before


@pytest.mark.parametrize(("settings", "status", "code", "field", "words"), REFUSALS)
def test_a_stage_updated_with_a_setting_the_formats_cannot_take_is_refused_naming_it(
    league: League, settings: dict[str, Any], status: int, code: str, field: str, words: str
) -> None:
    first_stage(league)
    second = league.client("organizer_a").post(
        stages_url(league),
        {"name": "Finals", "format": "single_elimination", "entry": "top", "entry_count": 4,
         "mode": "score", "match_format": FORMAT},
        format="json",
    )  # fmt: skip
    assert second.status_code == 201, second.content[:500]
    before = saved(league)
    response = league.client("organizer_a").patch(
        f"/api/v1/stages/{second.json()['id']}/", settings, format="json"
    )
    answer = problem(response, status, code)
    assert field in answer["errors"], answer
    assert any(words in message for message in answer["errors"][field]), answer
    assert saved(league) == before


def test_a_refusal_names_every_setting_it_refuses_with_the_code_of_the_first(
    league: League,
) -> None:
    body = {"name": "Swiss", "format": "swiss", "mode": "digital", "confirmation": "both_enter",
            "tiebreaks": ["random", "sweeps"], "match_format": FORMAT}  # fmt: skip
    response = league.client("organizer_a").post(stages_url(league), body, format="json")
    answer = problem(response, 422, "bad_confirmation")
    assert set(answer["errors"]) == {"confirmation", "rounds", "tiebreaks"}
    assert "score mode only" in answer["detail"]
    assert not Stage.objects.filter(tournament=league.a).exists()


def test_a_swiss_stage_of_more_rounds_than_its_teams_allow_cannot_start(league: League) -> None:
    made = league.client("organizer_a").post(
        stages_url(league),
        {"name": "Swiss", "format": "swiss", "rounds": 4, "mode": "score",
         "match_format": FORMAT},
        format="json",
    )  # fmt: skip
    assert made.status_code == 201  # saved: more teams may check in before it starts
    stage = made.json()["id"]
    response = league.client("organizer_a").post(f"/api/v1/stages/{stage}/start/")
    answer = problem(response, 422, "bad_rounds")
    assert list(answer["errors"]) == ["rounds"]
    assert "4 enter: at most 3 rounds" in answer["errors"]["rounds"][0]
    assert Stage.objects.get(pk=stage).status == Stage.Status.PENDING


def test_a_knockout_made_without_a_match_format_takes_the_tournaments_and_plays_to_a_winner(
    league: League,
) -> None:
    """docs/competition.md: elimination "plays on until the tie is broken", whatever the
    tournament's default (which allows draws) says; only an explicit draw is refused."""
    assert league.a.match_format["draws"] is True
    made = league.client("organizer_a").post(
        stages_url(league), {"name": "Cup", "format": "single_elimination"}, format="json"
    )
    assert made.status_code == 201, made.content[:500]
    stage = Stage.objects.get(pk=made.json()["id"])
    assert stage.match_format == {**league.a.match_format, "draws": False}
