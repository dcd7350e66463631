"""One error shape for everything under /api/: application/problem+json with a stable code, and
no input that produces a 500 or a half-written change."""

from __future__ import annotations

import json
from typing import Any
from unittest import mock

import pytest
from django.test import Client, override_settings

import seep_core as sc
from tests.matches import deal_in_play
from tournaments.models import MatchEvent

from .conftest import League

pytestmark = pytest.mark.django_db


def assert_problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content[:500]
    assert response["Content-Type"] == "application/problem+json"
    body = json.loads(response.content)
    assert body["status"] == status and body["code"] == code, body
    assert body["type"] == f"urn:seep:problem:{code}"
    assert isinstance(body["title"], str) and isinstance(body["detail"], str)
    return body


def events_url(league: League) -> str:
    return f"/api/v1/matches/{league.digital.pk}/events/"


def a_bid(league: League) -> dict[str, Any]:
    return sc.legal_moves(deal_in_play(league.digital))[0]  # seat 0 bids


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/nowhere/",
        "/api/v1/matches/abc/",
        "/api/v1/matches/-1/",
        "/api/nothing",
        "/api/v1/matches/99999999999999999999999/",
        "/api/v1/matches/999999/state/",
        "/api/v1/tournaments/0/",
        "/api/v1/rounds/9223372036854775808/",
    ],
)
def test_an_unknown_path_or_id_is_a_404_problem(league: League, path: str) -> None:
    assert_problem(league.client("organizer_a").get(path), 404, "not_found")


def test_a_private_tournament_is_a_404_to_outsiders_and_anonymous(league: League) -> None:
    for who in (None, "outsider", "organizer_a"):
        client = league.client(who)
        assert_problem(client.get(f"/api/v1/tournaments/{league.b.pk}/"), 404, "not_found")
        assert_problem(client.get(f"/api/v1/matches/{league.private_match.pk}/"), 404, "not_found")
    assert (
        league.client("organizer_b").get(f"/api/v1/tournaments/{league.b.pk}/").status_code == 200
    )


def test_malformed_json_is_a_400_problem(league: League) -> None:
    client = league.client("organizer_a")
    for body in ("{", "[1, 2", "NaN", '{"expected_seq": NaN}', "\x00", "{" * 100_00):
        response = client.generic("POST", events_url(league), body, content_type="application/json")
        assert response.status_code in (400, 413), response.content[:300]
        assert response["Content-Type"] == "application/problem+json"
    assert MatchEvent.objects.filter(match=league.digital).count() == 2


def test_a_body_that_is_not_json_is_a_415_problem(league: League) -> None:
    response = league.client("organizer_a").post(
        events_url(league), "expected_seq=2", content_type="application/x-www-form-urlencoded"
    )
    assert_problem(response, 415, "unsupported_media_type")


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=4096)
def test_a_huge_body_is_a_413_problem_and_writes_nothing(league: League) -> None:
    body = json.dumps(
        {
            "expected_seq": 2,
            "kind": "move_played",
            "payload": {"move": a_bid(league), "pad": "x" * 10_000},
        }
    )
    response = league.client("organizer_a").generic(
        "POST", events_url(league), body, content_type="application/json"
    )
    assert_problem(response, 413, "too_large")
    assert MatchEvent.objects.filter(match=league.digital).count() == 2


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"expected_seq": 2, "kind": "move_played"}, "invalid"),
        ({"expected_seq": 2, "kind": "move_played", "payload": {}, "extra": 1}, "invalid"),
        ({"expected_seq": "2", "kind": "move_played", "payload": {"move": {}}}, "bad_expected_seq"),
        (
            {"expected_seq": True, "kind": "move_played", "payload": {"move": {}}},
            "bad_expected_seq",
        ),
        ({"expected_seq": 2, "kind": "deal_started", "payload": {}}, "kind_not_appendable"),
        ({"expected_seq": 2, "kind": ["move_played"], "payload": {}}, "kind_not_appendable"),
        ({"expected_seq": 2, "kind": "move_played", "payload": []}, "bad_payload"),
        ({"expected_seq": 2, "kind": "move_played", "payload": {"mvoe": {}}}, "bad_payload"),
    ],
)
def test_a_malformed_command_is_a_400_problem_naming_what_is_wrong(
    league: League, body: Any, code: str
) -> None:
    response = league.client("organizer_a").post(events_url(league), body, format="json")
    problem = assert_problem(response, 400, code)
    if code == "invalid":
        assert problem["errors"]
    assert MatchEvent.objects.filter(match=league.digital).count() == 2


def test_a_stale_expected_seq_is_a_409_with_the_current_seq(league: League) -> None:
    body = {"expected_seq": 1, "kind": "move_played", "payload": {"move": a_bid(league)}}
    problem = assert_problem(
        league.client("organizer_a").post(events_url(league), body, format="json"),
        409,
        "stale_expected_seq",
    )
    assert problem["current_seq"] == 2
    assert problem["detail"] == "expected_seq 1 is stale: the match is at seq 2"


def test_the_stores_refusals_are_detailed_in_the_callers_language_their_codes_unchanged(
    league: League,
) -> None:
    body = {"expected_seq": 1, "kind": "move_played", "payload": {"move": a_bid(league)}}
    client = league.client("organizer_a")
    stale = client.post(events_url(league), body, format="json", HTTP_ACCEPT_LANGUAGE="hi")
    problem = assert_problem(stale, 409, "stale_expected_seq")
    assert problem["detail"] == "expected_seq 1 पुराना है: मैच seq 2 पर है"
    assert problem["current_seq"] == 2
    body["expected_seq"] = 2
    headers = {"HTTP_IDEMPOTENCY_KEY": "bid-ur", "HTTP_ACCEPT_LANGUAGE": "ur"}
    assert client.post(events_url(league), body, format="json", **headers).status_code == 201
    other = {**body, "expected_seq": 3, "payload": {"move": {"seat": 1, "action": "pass"}}}
    reused = client.post(events_url(league), other, format="json", **headers)
    problem = assert_problem(reused, 422, "idempotency_key_reused")
    assert problem["detail"].startswith("یہ Idempotency-Key")


def test_an_illegal_move_is_a_422_with_its_rule(league: League) -> None:
    body = {
        "expected_seq": 2,
        "kind": "move_played",
        "payload": {"move": {"seat": 0, "action": "bid", "value": 8}},
    }
    problem = assert_problem(
        league.client("organizer_a").post(events_url(league), body, format="json"), 422, "bad_bid"
    )
    assert problem["rule"] == "B1"


def test_a_seat_that_is_not_the_callers_is_a_403(league: League) -> None:
    body = {"expected_seq": 2, "kind": "move_played", "payload": {"move": a_bid(league)}}
    opponent = league.client("a10")  # team 1's first player: seat 1, not seat 0
    assert_problem(opponent.post(events_url(league), body, format="json"), 403, "not_your_seat")
    assert league.client("a00").post(events_url(league), body, format="json").status_code == 201


def test_a_retried_key_gets_200_and_the_original_events(league: League) -> None:
    body = {"expected_seq": 2, "kind": "move_played", "payload": {"move": a_bid(league)}}
    client = league.client("a00")
    first = client.post(events_url(league), body, format="json", HTTP_IDEMPOTENCY_KEY="bid-1")
    again = client.post(events_url(league), body, format="json", HTTP_IDEMPOTENCY_KEY="bid-1")
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json() == again.json()
    # Another request under the same key: a move other than the one sent (when the bidder
    # must ask for a redeal, the first legal move is the redeal itself). It is refused for
    # the key before anything checks whether it is legal.
    sent = body["payload"]["move"]
    redeal = {"seat": 0, "action": "redeal"}
    other = redeal if sent != redeal else {"seat": 0, "action": "bid", "value": 9}
    changed = {**body, "payload": {"move": other}}
    assert_problem(
        client.post(events_url(league), changed, format="json", HTTP_IDEMPOTENCY_KEY="bid-1"),
        422,
        "idempotency_key_reused",
    )


def test_a_method_not_allowed_is_a_405_problem(league: League) -> None:
    response = league.client("organizer_a").delete(f"/api/v1/tournaments/{league.a.pk}/")
    assert_problem(response, 405, "method_not_allowed")
    assert "Allow" in response


def test_writing_signed_out_is_a_401_problem(league: League) -> None:
    body = {"expected_seq": 2, "kind": "move_played", "payload": {"move": a_bid(league)}}
    assert_problem(
        league.client().post(events_url(league), body, format="json"), 401, "not_authenticated"
    )


def test_a_bad_token_is_a_401_problem(league: League) -> None:
    client = Client(HTTP_AUTHORIZATION="Bearer not-a-token")
    assert_problem(client.get("/api/v1/tournaments/"), 401, "not_authenticated")
    client = Client(HTTP_AUTHORIZATION="Bearer \xff\xfe")
    assert client.get("/api/v1/tournaments/").status_code == 401


def test_a_session_without_its_csrf_token_is_a_403_problem(league: League) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(league.users["organizer_a"])
    response = client.post("/api/v1/stages/1/start/", "{}", content_type="application/json")
    assert_problem(response, 403, "forbidden")


def test_too_many_requests_is_a_429_with_retry_after(league: League, fresh_cache: None) -> None:
    from rest_framework.throttling import SimpleRateThrottle

    rates = {"anon": "3/min", "token": "3/min", "user": "3/min"}
    with mock.patch.object(SimpleRateThrottle, "THROTTLE_RATES", rates):
        client = league.client()
        codes = [client.get("/api/v1/tournaments/").status_code for _ in range(5)]
        assert codes[:3] == [200, 200, 200] and codes[-1] == 429
        response = client.get("/api/v1/tournaments/")
        assert_problem(response, 429, "throttled")
        assert int(response["Retry-After"]) >= 1


@pytest.mark.parametrize("field", ["rating", "seed"])
@pytest.mark.parametrize("number", [2**31, 2**63, -(2**31) - 1])
def test_a_number_no_column_holds_is_a_400_problem_and_writes_nothing(
    league: League, field: str, number: int
) -> None:
    """Refused by the serializer, on every backend, not by the database (a 500)."""
    teams = league.a.teams.count()
    response = league.client("organizer_a").post(
        f"/api/v1/tournaments/{league.a.pk}/teams/",
        {"name": "X", "players": [{"name": "p"}, {"name": "q"}], field: number},
        format="json",
    )
    assert field in assert_problem(response, 400, "invalid")["errors"]
    assert league.a.teams.count() == teams


@pytest.mark.parametrize("name", ["team", "tournament", "stage", "round"])
@pytest.mark.parametrize("number", [2**63, 0, -1])
def test_a_filter_on_a_number_no_id_can_be_is_a_400_problem(
    league: League, name: str, number: int
) -> None:
    response = league.client().get(f"/api/v1/matches/?{name}={number}")
    assert name in assert_problem(response, 400, "invalid")["errors"]


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("/api/v1/matches/?status=", "invalid"),
        ("/api/v1/matches/?team=", "invalid"),
        ("/api/v1/matches/?page=", "bad_parameter"),
        ("/api/v1/tournaments/?page_size=", "bad_parameter"),
        ("/api/v1/matches/{digital}/events/?after=", "bad_parameter"),
        ("/api/v1/matches/{digital}/events/?limit=", "bad_parameter"),
    ],
)
def test_a_parameter_sent_empty_is_a_400_problem_not_left_out(
    league: League, path: str, code: str
) -> None:
    """``?status=`` does not mean every status: the schema says what a value is, and an empty
    one is none of them (leave the parameter out for its default)."""
    response = league.client("organizer_a").get(path.format(digital=league.digital.pk))
    assert_problem(response, 400, code)


@pytest.mark.parametrize("value", ["²", "٣", "1" * 5000])  # str.isdigit() says yes to each
@pytest.mark.parametrize("name", ["after", "limit"])
def test_a_number_in_other_digits_or_too_long_is_a_400_problem(
    league: League, name: str, value: str
) -> None:
    response = league.client("organizer_a").get(
        f"/api/v1/matches/{league.digital.pk}/events/?{name}={value}"
    )
    assert_problem(response, 400, "bad_parameter")
