"""A whole tournament run through the API alone: created, teams registered and checked in, a Swiss
stage entered by a score-keeper, then a knockout played move by move by the players themselves,
to the champion and the final standings.

The people's accounts are linked to the club's members by the club's own service first (the
API names only the club's people's accounts: docs/api.md, "People and clubs")."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from competition.demo import random_deal_result
from seep_core import Rules
from tournaments import clubs
from tournaments.models import Club

from .conftest import CommittingClient

pytestmark = [pytest.mark.django_db, pytest.mark.slow]  # a whole tournament, call by call


def signed_in(user: Any) -> CommittingClient:
    client = CommittingClient()
    client.force_login(user)
    return client


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, (response.status_code, response.content[:500])
    return response.json()


def test_a_club_tournament_from_creation_to_champion_through_the_api(db: None) -> None:
    accounts = get_user_model().objects
    organizer_user = accounts.create_user("organizer")
    organizer = signed_in(organizer_user)
    keeper_user = accounts.create_user("keeper")
    keeper = signed_in(keeper_user)
    rng = random.Random(42)

    cup = ok(
        organizer.post(
            "/api/v1/tournaments/",
            {"name": "Autumn cup", "slug": "autumn", "published": True},
            format="json",
        ),
        201,
    )
    club = Club.objects.get(pk=cup["club"])
    keeper_member = clubs.member_add(
        actor=organizer_user, club=club, name="Keeper", user=keeper_user
    )
    players: dict[int, CommittingClient] = {}
    for t in range(6):
        users = [accounts.create_user(f"p{t}{i}") for i in range(2)]
        members = [
            clubs.member_add(actor=organizer_user, club=club, name=u.username, user=u)
            for u in users
        ]
        team = ok(
            organizer.post(
                f"/api/v1/tournaments/{cup['id']}/teams/",
                {
                    "name": f"Team {t}",
                    "players": [{"member": m.pk} for m in members],
                    "rating": 1500 - t,
                    "seed": t + 1,
                },
                format="json",
            ),
            201,
        )
        ok(organizer.post(f"/api/v1/teams/{team['id']}/check-in/"))
        for user in users:
            players[user.pk] = signed_in(user)
    swiss = ok(
        organizer.post(
            f"/api/v1/tournaments/{cup['id']}/stages/",
            {
                "name": "Swiss",
                "format": "swiss",
                "rounds": 3,
                "mode": "score",
                "match_format": {"bazzis": 1, "deal_cap": 2},
                "scorekeepers": [{"member": keeper_member.pk}],
                "tiebreaks": ["bazzis_won", "buchholz", "random"],
                "tiebreak_seed": 5,
            },
            format="json",
        ),
        201,
    )
    knockout = ok(
        organizer.post(
            f"/api/v1/tournaments/{cup['id']}/stages/",
            {
                "name": "Final four",
                "format": "single_elimination",
                "entry": "top",
                "entry_count": 4,
                "seeding": "standings",
                "mode": "digital",
                "match_format": {"bazzis": 1, "deal_cap": 1},
            },
            format="json",
        ),
        201,
    )
    ok(organizer.post(f"/api/v1/stages/{swiss['id']}/start/"))

    for number in (1, 2, 3):
        draft = ok(organizer.post(f"/api/v1/stages/{swiss['id']}/rounds/"), 201)
        assert draft["status"] == "draft" and len(draft["fixtures"]) == 3
        assert (
            ok(CommittingClient().get(f"/api/v1/stages/{swiss['id']}/rounds/"))["count"]
            == number - 1
        )
        ok(organizer.post(f"/api/v1/rounds/{draft['id']}/publish/"))
        matches = ok(keeper.get(f"/api/v1/matches/?stage={swiss['id']}&round={number}"))["results"]
        assert len(matches) == 3
        for match in matches:
            url = f"/api/v1/matches/{match['id']}"
            while True:
                state = ok(keeper.get(f"{url}/state/"))
                if state["status"] != "in_progress":
                    break
                score = random_deal_result(rng, state["progress"]["dealer"], Rules())
                ok(
                    keeper.post(
                        f"{url}/events/",
                        {
                            "expected_seq": state["last_seq"],
                            "kind": "deal_ended",
                            "payload": {"points": score["points"], "sweeps": score["sweeps"]},
                        },
                        format="json",
                    ),
                    201,
                )
        assert ok(organizer.get(f"/api/v1/rounds/{draft['id']}/"))["status"] == "complete"
    assert ok(organizer.get(f"/api/v1/stages/{swiss['id']}/"))["status"] == "complete"
    table = ok(CommittingClient().get(f"/api/v1/stages/{swiss['id']}/standings/"))
    assert table["as_of_round"] == 3 and len(table["rows"]) == 6
    points = [row["points"] for row in table["rows"]]
    assert points == sorted(points, reverse=True)
    top4 = [row["team"]["id"] for row in table["rows"][:4]]

    ok(organizer.post(f"/api/v1/stages/{knockout['id']}/start/"))
    bracket = ok(organizer.get(f"/api/v1/stages/{knockout['id']}/bracket/"))
    first = bracket["rounds"][0]
    first_round = ok(organizer.get(f"/api/v1/stages/{knockout['id']}/rounds/"))["results"][0]
    seeded = [first["fixtures"][0]["a"]["team"], first["fixtures"][0]["b"]["team"]]
    assert seeded[0] == top4[0]  # the Swiss winner is the top seed
    assert first_round["status"] == "published"  # a knockout's draw is published at its start
    while True:
        bracket = ok(CommittingClient().get(f"/api/v1/stages/{knockout['id']}/bracket/"))
        if bracket["champion"] is not None:
            break
        live = [f for r in bracket["rounds"] for f in r["fixtures"] if f["status"] == "playing"]
        assert live, bracket
        url = f"/api/v1/matches/{live[0]['match']}"
        seated = _seated(url, players, organizer)  # by seat: partners sit opposite (S1)
        for _ in range(2000):
            public = ok(CommittingClient().get(f"{url}/state/"))
            if public["status"] != "in_progress":
                break
            mover = seated[public["position"]["to_play"]]
            state = ok(mover.get(f"{url}/state/"))
            move = rng.choice(state["legal_moves"])
            ok(mover.post(f"{url}/events/", {"expected_seq": state["last_seq"],
                                             "kind": "move_played", "payload": {"move": move}},
                          format="json"), 201)  # fmt: skip
    champion = bracket["champion"]["team"]
    assert champion in top4
    assert ok(organizer.get(f"/api/v1/stages/{knockout['id']}/"))["status"] == "complete"
    final = ok(CommittingClient().get(f"/api/v1/stages/{knockout['id']}/standings/"))
    assert final["rows"] and {r["team"]["id"] for r in final["rows"]} == set(top4)


def _seated(
    url: str, players: dict[int, CommittingClient], director: CommittingClient
) -> list[Any]:
    """The match's four players' clients by seat: team0's first at 0, team1's first at 1..."""
    match = director.get(f"{url}/").json()
    teams = director.get(f"/api/v1/tournaments/{match['tournament']}/teams/?page_size=200").json()
    by_id = {row["id"]: [p["user"] for p in row["players"]] for row in teams["results"]}
    a, b = by_id[match["team0"]["id"]], by_id[match["team1"]["id"]]
    return [players[a[0]], players[b[0]], players[a[1]], players[b[1]]]
