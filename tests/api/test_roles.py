"""Every role is refused on every object it does not own, and knowing an id grants nothing.

The matrix: two organizers (and an added director), two score-keepers, players of both teams,
an outsider, anonymous, a token scoped to each tournament, a read-only token writing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import seep_core as sc
from tests.matches import deal_in_play
from tournaments.models import MatchEvent, Team, Tournament

from .conftest import League

pytestmark = pytest.mark.django_db

ROLES = [
    "organizer_a",
    "director_a",
    "organizer_b",
    "keeper_a",
    "keeper_b",
    "a00",
    "a10",
    "outsider",
    "anonymous",
    "token:a_write",
    "token:a_read",
    "token:b_write",
]
DIRECTORS_OF_A = {"organizer_a", "director_a", "token:a_write"}


def client(league: League, role: str) -> Any:
    if role == "anonymous":
        return league.client()
    if role.startswith("token:"):
        return league.client(token=role.removeprefix("token:"))
    return league.client(role)


def refused_status(role: str, *, visible: bool = True) -> set[int]:
    """What a role that may not do something gets: 401 signed out, 404 if it cannot even see
    the object (another tournament's token, a private tournament), else 403."""
    if role == "anonymous":
        return {401, 404} if not visible else {401}
    if role == "token:b_write" or not visible:
        return {404}
    return {403}


WRITES: dict[str, tuple[str, Callable[[League], tuple[str, dict[str, Any]]], set[str]]] = {
    "rename the tournament": (
        "patch",
        lambda lg: (f"/api/v1/tournaments/{lg.a.pk}/", {"name": "Renamed"}),
        DIRECTORS_OF_A,
    ),
    "register a team": (
        "post",
        lambda lg: (
            f"/api/v1/tournaments/{lg.a.pk}/teams/",
            {"name": "New", "players": [{"name": "x"}, {"name": "y"}]},
        ),
        DIRECTORS_OF_A,
    ),
    "check a team in": (
        "post",
        lambda lg: (f"/api/v1/teams/{lg.teams_a[0].pk}/withdraw/", {}),
        DIRECTORS_OF_A,
    ),
    "add a stage": (
        "post",
        lambda lg: (
            f"/api/v1/tournaments/{lg.a.pk}/stages/",
            {"name": "S", "format": "round_robin", "mode": "score"},
        ),
        DIRECTORS_OF_A,
    ),
    "enter a deal result": (
        "post",
        lambda lg: (
            f"/api/v1/matches/{lg.score.pk}/events/",
            {
                "expected_seq": 1,
                "kind": "deal_ended",
                "payload": {"points": [60, 40], "sweeps": [[], []]},
            },
        ),
        DIRECTORS_OF_A | {"keeper_a"},
    ),
    "play seat 0": (
        "post",
        lambda lg: (
            f"/api/v1/matches/{lg.digital.pk}/events/",
            {
                "expected_seq": 2,
                "kind": "move_played",
                "payload": {"move": sc.legal_moves(deal_in_play(lg.digital))[0]},
            },
        ),
        DIRECTORS_OF_A | {"a00"},
    ),
}


def world_state(league: League) -> tuple[Any, ...]:
    return (
        Tournament.objects.get(pk=league.a.pk).name,
        Team.objects.filter(tournament=league.a).count(),
        league.a.stages.count(),
        MatchEvent.objects.count(),
        Team.objects.filter(registration__withdrawn_at__isnull=False).count(),
    )


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", list(WRITES))
def test_a_write_succeeds_for_its_roles_and_is_refused_to_every_other(
    league: League, role: str, action: str
) -> None:
    method, build, allowed = WRITES[action]
    url, body = build(league)
    before = world_state(league)
    response = getattr(client(league, role), method)(url, body, format="json")
    if role in allowed:
        assert response.status_code in (200, 201), (role, action, response.content[:300])
        assert world_state(league) != before
    else:
        assert response.status_code in refused_status(role), (role, action, response.status_code)
        assert response["Content-Type"] == "application/problem+json"
        assert world_state(league) == before  # nothing written


PRIVATE_READS = [
    lambda lg: f"/api/v1/tournaments/{lg.b.pk}/",
    lambda lg: f"/api/v1/tournaments/{lg.b.pk}/teams/",
    lambda lg: f"/api/v1/tournaments/{lg.b.pk}/stages/",
    lambda lg: f"/api/v1/matches/{lg.private_match.pk}/",
    lambda lg: f"/api/v1/matches/{lg.private_match.pk}/events/",
    lambda lg: f"/api/v1/matches/{lg.private_match.pk}/state/",
    lambda lg: f"/api/v1/matches/{lg.private_match.pk}/deals/",
    lambda lg: f"/api/v1/teams/{lg.teams_b[0].pk}/check-in/",
]
MAY_SEE_B = {"organizer_b", "keeper_b", "token:b_write"}


@pytest.mark.parametrize("role", ROLES)
def test_a_private_tournament_and_everything_in_it_is_a_404_to_whoever_may_not_see_it(
    league: League, role: str
) -> None:
    for build in PRIVATE_READS:
        url = build(league)
        method = "post" if url.endswith("check-in/") else "get"
        response = getattr(client(league, role), method)(url, {}, format="json")
        if role in MAY_SEE_B:
            assert response.status_code in (200, 403), (role, url)  # a keeper sees, cannot check in
        else:
            assert response.status_code in (401, 404), (role, url, response.status_code)
            if response.status_code == 401:
                assert method == "post"


@pytest.mark.parametrize("role", ROLES)
def test_lists_show_only_what_the_role_may_see(league: League, role: str) -> None:
    tournaments = {
        t["id"] for t in client(league, role).get("/api/v1/tournaments/").json()["results"]
    }
    matches = {m["id"] for m in client(league, role).get("/api/v1/matches/").json()["results"]}
    if role == "token:b_write":
        assert (tournaments, matches) == ({league.b.pk}, {league.private_match.pk})
    elif role in ("token:a_write", "token:a_read"):
        assert tournaments == {league.a.pk} and league.private_match.pk not in matches
    elif role in MAY_SEE_B:
        assert tournaments == {league.a.pk, league.b.pk}
    else:
        assert tournaments == {league.a.pk}
        assert matches == {league.digital.pk, league.score.pk}


@pytest.mark.parametrize("role", ["token:a_write", "token:a_read", "token:b_write"])
def test_a_token_cannot_make_tokens_or_tournaments(league: League, role: str) -> None:
    c = client(league, role)
    assert c.get("/api/v1/tokens/").status_code == 403
    assert (
        c.post(
            "/api/v1/tokens/", {"name": "more", "tournament": league.a.pk}, format="json"
        ).status_code
        == 403
    )
    assert (
        c.post("/api/v1/tournaments/", {"name": "Mine", "slug": "mine"}, format="json").status_code
        == 403
    )


def test_a_webhook_of_another_tournament_is_neither_made_nor_read(
    league: League, settings: Any
) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE_NETWORKS = True  # the receiver is on this machine
    made = league.client("organizer_a").post(
        "/api/v1/webhooks/",
        {"tournament": league.a.pk, "url": "http://127.0.0.1:9/hook", "kinds": ["match.completed"]},
        format="json",
    )
    assert made.status_code == 201, made.content
    hook = made.json()["id"]
    other = league.client("organizer_b")
    assert other.get(f"/api/v1/webhooks/{hook}/deliveries/").status_code == 404
    assert (
        other.post(
            "/api/v1/webhooks/",
            {"tournament": league.a.pk, "url": "http://127.0.0.1:9/", "kinds": ["match.completed"]},
            format="json",
        ).status_code
        == 403
    )
    assert hook not in {h["id"] for h in other.get("/api/v1/webhooks/").json()["results"]}


def test_server_owned_fields_cannot_be_assigned(league: League) -> None:
    c = league.client("organizer_a")
    response = c.patch(
        f"/api/v1/tournaments/{league.a.pk}/",
        {"organizer": league.users["outsider"].pk},
        format="json",
    )
    assert response.status_code == 400 and "organizer" in response.json()["errors"]
    response = c.post(
        f"/api/v1/tournaments/{league.a.pk}/stages/",
        {"name": "S", "format": "round_robin", "status": "complete"},
        format="json",
    )
    assert response.status_code == 400 and "status" in response.json()["errors"]
    assert Tournament.objects.get(pk=league.a.pk).organizer == league.users["organizer_a"]


def test_only_the_organizer_names_directors(league: League) -> None:
    url = f"/api/v1/tournaments/{league.a.pk}/"
    body = {"directors": [league.users["keeper_a"].pk]}  # one of the tournament's people
    assert league.client("director_a").patch(url, body, format="json").status_code == 403
    assert league.client("organizer_a").patch(url, body, format="json").status_code == 200
    assert list(league.a.directors.all()) == [league.users["keeper_a"]]


@pytest.mark.parametrize("role", [r for r in ROLES if r not in MAY_SEE_B])
def test_an_append_to_a_match_the_caller_may_not_see_is_the_404_of_a_match_that_is_not(
    league: League, role: str
) -> None:
    # The append decides who may see the match on the row its service locks: the answer must
    # still be the one for an id that names no match, and nothing is written.
    body = {
        "expected_seq": league.private_match.last_seq,
        "kind": "move_played",
        "payload": {"move": {"seat": 0, "action": "throw", "card": "2C"}},
    }
    before = MatchEvent.objects.count()
    answers = [
        client(league, role).post(f"/api/v1/matches/{pk}/events/", body, format="json")
        for pk in (league.private_match.pk, 2**40)
    ]
    assert [a.status_code for a in answers] == [404, 404], [a.content for a in answers]
    hidden, missing = ({k: v for k, v in a.json().items() if k != "instance"} for a in answers)
    assert hidden == missing and hidden["code"] == "not_found"
    assert MatchEvent.objects.count() == before


@pytest.mark.parametrize(("role", "status"), [("organizer_b", 201), ("token:b_write", 201),
                                              ("keeper_b", 403)])  # fmt: skip
def test_an_append_to_a_private_match_is_decided_for_those_who_may_see_it(
    league: League, role: str, status: int
) -> None:
    # Decided on the locked row too: its directors write; a score-keeper of the tournament,
    # who may see it, is refused a digital seat's move as not theirs (403, not 404).
    match = league.private_match
    match.refresh_from_db()
    body = {
        "expected_seq": match.last_seq,
        "kind": "move_played",
        "payload": {"move": sc.legal_moves(deal_in_play(match))[0]},
    }
    before = MatchEvent.objects.filter(match=match).count()
    response = client(league, role).post(f"/api/v1/matches/{match.pk}/events/", body, format="json")
    assert response.status_code == status, response.content[:300]
    written = MatchEvent.objects.filter(match=match).count() - before
    assert (written > 0) == (status == 201)
    if status == 403:
        assert response.json()["code"] == "not_your_seat"
