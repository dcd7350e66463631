"""Disputes the table settles, through the API (issue 38): ``entry_withdrawn`` and
``version_accepted`` appended like any command, refused as problem+json with stable codes,
and a team's token settling its own team's entry only."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.models import Match, MatchEvent
from tournaments.verify import verify_match

from .conftest import League
from .test_in_person import DEAL, confirmed_match, deals, send
from .test_team_tokens import as_team, team_token

pytestmark = pytest.mark.django_db

THEIRS = {"points": [55, 45], "sweeps": [[], []]}


def disputed(league: League) -> Match:
    """A match of a2x v a3x whose first deal a20 entered and a30 rejected with 55 - 45."""
    match = confirmed_match(league)
    assert send(league.client("a20"), match, "deal_entered", DEAL).status_code == 201
    rejected = send(
        league.client("a30"), match, "deal_rejected", {"entry": 1, "reason": "no", **THEIRS}
    )
    assert rejected.status_code == 201, rejected.json()
    match.refresh_from_db()
    return match


def test_the_entering_team_accepts_the_other_version_and_it_counts(league: League) -> None:
    match = disputed(league)
    accepted = send(league.client("a21"), match, "version_accepted", {"entry": 1})
    assert accepted.status_code == 201, accepted.json()
    body = accepted.json()
    assert [e["kind"] for e in body["events"]] == ["version_accepted", "deal_ended"]
    assert body["events"][0]["payload"] == {"deal": 1, "entry": 1, **THEIRS}
    (deal,) = deals(league, match)
    assert (deal["points0"], deal["points1"]) == (55, 45)
    desk = league.client("director_a").get(f"/api/v1/tournaments/{league.a.pk}/disputes/")
    assert desk.json() == []
    assert verify_match(match) == []


def test_a_withdrawal_lets_the_other_team_enter_and_the_state_says_so(league: League) -> None:
    match = disputed(league)
    withdrawn = send(league.client("a20"), match, "entry_withdrawn", {"entry": 1, "deal": 1})
    assert withdrawn.status_code == 201, withdrawn.json()
    state = league.client("a30").get(f"/api/v1/matches/{match.pk}/state/").json()
    assert state["entries"] == [] and state["disputed"] is False
    entered = send(league.client("a31"), match, "deal_entered", THEIRS)
    assert entered.status_code == 201
    state = league.client("a20").get(f"/api/v1/matches/{match.pk}/state/").json()
    assert [e["entry"] for e in state["entries"]] == [2]
    assert send(league.client("a20"), match, "deal_confirmed", {"entry": 2}).status_code == 201
    (deal,) = deals(league, match)
    assert (deal["points0"], deal["points1"]) == (55, 45)


@pytest.mark.parametrize(
    ("who", "kind", "status", "code"),
    [
        ("a30", "version_accepted", 403, "own_version"),
        ("a31", "entry_withdrawn", 403, "not_your_entry"),
        ("keeper_a", "entry_withdrawn", 403, "not_your_entry"),
        ("director_a", "version_accepted", 403, "not_your_entry"),
        ("outsider", "entry_withdrawn", 403, "forbidden"),
    ],
)
def test_refusals_are_problems_with_stable_codes_and_write_nothing(
    league: League, who: str, kind: str, status: int, code: str
) -> None:
    match = disputed(league)
    head = match.last_seq
    refused = send(league.client(who), match, kind, {"entry": 1})
    assert refused.status_code == status, refused.json()
    assert refused["Content-Type"] == "application/problem+json"
    assert refused.json()["code"] == code
    match.refresh_from_db()
    assert match.last_seq == head == MatchEvent.objects.filter(match=match).count()


def test_after_the_directors_decision_the_deal_is_counted_and_stays(league: League) -> None:
    match = disputed(league)
    decided = send(league.client("director_a"), match, "deal_ended", DEAL)
    assert decided.status_code == 201
    late = send(league.client("a20"), match, "version_accepted", {"entry": 1, "deal": 1})
    assert late.status_code == 409 and late.json()["code"] == "deal_counted"
    (deal,) = deals(league, match)
    assert (deal["points0"], deal["points1"]) == (60, 40)


def test_a_teams_token_settles_its_own_teams_entry_only(league: League) -> None:
    match = disputed(league)
    theirs = as_team(league, team_token(league, match.team1))
    ours = as_team(league, team_token(league, match.team0))
    match.refresh_from_db()
    body = {"expected_seq": match.last_seq, "kind": "version_accepted", "payload": {"entry": 1}}
    refused = theirs.post(f"/api/v1/matches/{match.pk}/events/", body, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "own_version"
    done = ours.post(f"/api/v1/matches/{match.pk}/events/", body, format="json")
    assert done.status_code == 201, done.json()
    assert verify_match(match) == []


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    kind=st.sampled_from(["entry_withdrawn", "version_accepted"]),
    payload=st.one_of(
        st.none(),
        st.integers(),
        st.lists(st.integers(), max_size=3),
        st.dictionaries(
            st.sampled_from(["entry", "deal", "points", "sweeps", "x"]),
            st.one_of(st.none(), st.booleans(), st.integers(-(2**64), 2**64), st.text(max_size=8)),
            max_size=4,
        ),
    ),
)
def test_any_payload_gets_an_answer_never_a_500(league: League, kind: str, payload: Any) -> None:
    match = Match.objects.filter(tournament=league.a, mode="score").order_by("pk").last()
    if match is None or match.status != "in_progress":
        match = disputed(league)
    answer = send(league.client("a20"), match, kind, payload)
    assert answer.status_code in (201, 400, 403, 409, 422), answer.content
    if answer.status_code != 201:
        assert answer["Content-Type"] == "application/problem+json"
        assert answer.json()["code"]
