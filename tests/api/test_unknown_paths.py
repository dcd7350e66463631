"""Every path under /api/ answers a problem document, with DEBUG on as off (Django's own 404
page answered under DEBUG, as ``make run`` serves)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import League
from .test_errors import assert_problem

pytestmark = pytest.mark.django_db

UNKNOWN = [
    "/api/v1/matches/not-a-number/",
    "/api/v1/nowhere/",
    "/api/nothing/",
    "/api/v2/tournaments/",
    "/api/v1/matches/1/state/extra/",
]


@pytest.mark.parametrize("debug", [True, False])
@pytest.mark.parametrize("path", UNKNOWN)
def test_an_unknown_path_is_a_404_problem_whatever_debug_says(
    league: League, settings: Any, debug: bool, path: str
) -> None:
    settings.DEBUG = debug
    for client in (league.client(), league.client("organizer_a")):
        assert_problem(client.get(path), 404, "not_found")
        assert_problem(client.post(path, {}, format="json"), 404, "not_found")
        assert_problem(client.delete(path), 404, "not_found")


def test_a_path_lacking_its_slash_is_redirected_or_named(league: League, settings: Any) -> None:
    settings.DEBUG = True
    client = league.client("organizer_a")
    moved = client.get("/api/v1/tournaments?page=2")
    assert moved.status_code == 301 and moved["Location"] == "/api/v1/tournaments/?page=2"
    body = assert_problem(client.post("/api/v1/tournaments", {}, format="json"), 404, "not_found")
    assert body["detail"] == "no such resource: did you mean /api/v1/tournaments/?"


def test_a_method_not_allowed_is_a_405_problem(league: League, settings: Any) -> None:
    settings.DEBUG = True
    response = league.client("organizer_a").put("/api/v1/", {}, format="json")
    assert_problem(response, 405, "method_not_allowed")
    assert response["Allow"]
