"""An API answer to a signed-in caller (a session or a token) is ``private, no-store``; an
anonymous caller's public reads keep their ETags and ``private, no-cache``; 304s answer
whoever sends the ETag back."""

from __future__ import annotations

import pytest

from .conftest import League

pytestmark = pytest.mark.django_db

PRIVATE = "private, no-store"


def test_the_tokens_and_disputes_lists_are_never_stored(league: League) -> None:
    director = league.client("organizer_a")
    for path in ("/api/v1/tokens/", f"/api/v1/tournaments/{league.a.pk}/disputes/"):
        response = director.get(path)
        assert response.status_code == 200, path
        assert response["Cache-Control"] == PRIVATE, path
    by_token = league.client(token="a_read").get(f"/api/v1/tournaments/{league.a.pk}/")
    assert by_token.status_code == 200 and by_token["Cache-Control"] == PRIVATE
    refused = league.client("outsider").get(f"/api/v1/tournaments/{league.b.pk}/")
    assert refused.status_code == 404 and refused["Cache-Control"] == PRIVATE


def test_public_reads_keep_their_etags_for_everyone(league: League) -> None:
    state = f"/api/v1/matches/{league.digital.pk}/state/"
    anonymous = league.client()
    first = anonymous.get(state)
    assert first.status_code == 200
    assert first["Cache-Control"] == "private, no-cache" and first["ETag"]
    assert anonymous.get(state, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert "no-store" not in anonymous.get("/api/v1/tournaments/").get("Cache-Control", "")
    integration = league.client(token="a_read")
    mine = integration.get(state)
    assert mine["Cache-Control"] == PRIVATE
    again = integration.get(state, HTTP_IF_NONE_MATCH=mine["ETag"])
    assert again.status_code == 304 and again["Cache-Control"] == PRIVATE
