"""A slug taken by a private tournament is refused exactly as one taken by a public tournament:
the answer tells that the address is taken, never by what, nor that a tournament exists."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import League
from .test_errors import assert_problem

pytestmark = pytest.mark.django_db


def answer(response: Any, slug: str) -> tuple[int, str]:
    """The answer with the slug itself taken out, to compare refusals of different slugs."""
    return response.status_code, response.content.decode().replace(slug, "<slug>")


def test_making_a_tournament_at_a_private_tournaments_slug_tells_nothing_more(
    league: League,
) -> None:
    outsider = league.client("organizer_a")  # B, "cup-b", is private and not theirs
    made = {
        slug: outsider.post("/api/v1/tournaments/", {"name": "Mine", "slug": slug}, format="json")
        for slug in ("cup-b", "cup-a")
    }
    assert answer(made["cup-b"], "cup-b") == answer(made["cup-a"], "cup-a")
    body = assert_problem(made["cup-b"], 400, "invalid")
    assert body["errors"] == {"slug": ["the address 'cup-b' is taken: choose another"]}
    assert "exist" not in json.dumps(body) and "tournament" not in json.dumps(body["errors"])


def test_renaming_a_tournament_to_a_private_tournaments_slug_tells_nothing_more(
    league: League,
) -> None:
    director = league.client("organizer_a")
    public = director.post(
        "/api/v1/tournaments/", {"name": "Two", "slug": "cup-a-2"}, format="json"
    )
    assert public.status_code == 201 and public.json()["published"] is False
    director.patch(
        f"/api/v1/tournaments/{public.json()['id']}/", {"published": True}, format="json"
    )
    moved = {
        slug: director.patch(f"/api/v1/tournaments/{league.a.pk}/", {"slug": slug}, format="json")
        for slug in ("cup-b", "cup-a-2")
    }
    assert answer(moved["cup-b"], "cup-b") == answer(moved["cup-a-2"], "cup-a-2")
    body = assert_problem(moved["cup-b"], 400, "invalid")
    assert body["errors"] == {"slug": ["the address 'cup-b' is taken: choose another"]}
    # its own slug is no clash
    kept = director.patch(f"/api/v1/tournaments/{league.a.pk}/", {"slug": "cup-a"}, format="json")
    assert kept.status_code == 200


def test_a_bad_slug_is_still_a_400_naming_it(league: League) -> None:
    director = league.client("organizer_a")
    for slug in ("not a slug", "x" * 101, "", "\x00"):
        made = director.post("/api/v1/tournaments/", {"name": "M", "slug": slug}, format="json")
        assert_problem(made, 400, "invalid")
