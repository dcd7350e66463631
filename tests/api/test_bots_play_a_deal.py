"""Four bots play a whole digital deal over the API alone (docs/api.md, "A bot at a seat").

A director sets up over the API: the club's members, two of them given accounts the director
makes (``members/{id}/account/``), two teams, a digital match, started. Then the director
hands out two team tokens bound to one team's two players, and the two accounts sign in and
make their own tokens. From there only those four credentials play: each reads its own
``state/``, which shows its own hand and, on its turn, its legal moves, and never a card of
another seat's hand nor of the stock; it plays one of its moves through ``events/``. The
deal ends and its result is recorded.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.matches import deal_in_play
from tournaments.models import Match, SeatClaim

from .conftest import CommittingClient

pytestmark = [pytest.mark.django_db, pytest.mark.slow]  # a whole deal, call by call

PASSWORD = "a long first password 7"


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, (response.status_code, response.content[:500])
    return response.json()


def bearer(token: str) -> CommittingClient:
    client = CommittingClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def secret_for(match: Match, seat: int) -> set[str]:
    """The cards ``seat`` may not see now: the other hands and the stock."""
    deal = deal_in_play(match)
    hidden = {card for s in range(4) if s != seat for card in deal.hand(s)}
    return hidden | set(deal.to_dict()["stock"])


def set_up(director: CommittingClient) -> dict[str, Any]:
    """The director's part: a tournament, four members (two with accounts made over the API),
    two teams, a digital match started. Returns the ids and the accounts' user names."""
    cup = ok(
        director.post(
            "/api/v1/tournaments/",
            {"name": "Bot night", "slug": "bots", "published": True},
            format="json",
        ),
        201,
    )
    members = [
        ok(
            director.post(f"/api/v1/clubs/{cup['club']}/members/", {"name": name}, format="json"),
            201,
        )
        for name in ("Asha", "Bilal", "Chitra", "Dev")
    ]
    names = []
    for member, username in zip(members[2:], ("chitra", "dev"), strict=True):
        made = ok(
            director.post(
                f"/api/v1/members/{member['id']}/account/",
                {"username": username, "password": PASSWORD},
                format="json",
            ),
            201,
        )
        assert made["user"] is not None
        names.append(username)
    teams = []
    for name, pair in (("Bots", members[:2]), ("People", members[2:])):
        body = {"name": name, "players": [{"member": m["id"]} for m in pair]}
        team = ok(
            director.post(f"/api/v1/tournaments/{cup['id']}/teams/", body, format="json"), 201
        )
        ok(director.post(f"/api/v1/teams/{team['id']}/check-in/"))
        teams.append(team["id"])
    stage = ok(
        director.post(
            f"/api/v1/tournaments/{cup['id']}/stages/",
            {"name": "Final", "format": "single_elimination", "mode": "digital",
             "match_format": {"bazzis": 1, "deal_cap": 1}},
            format="json",
        ),
        201,
    )  # fmt: skip
    ok(director.post(f"/api/v1/stages/{stage['id']}/start/"))
    (match,) = ok(director.get(f"/api/v1/matches/?stage={stage['id']}"))["results"]
    return {"tournament": cup["id"], "teams": teams, "match": match["id"], "accounts": names}


def account_token(username: str, tournament: int) -> str:
    """An account signs in (the site's sign-in, over HTTP) and makes its own token to play."""
    session = CommittingClient()
    signed = session.post(
        "/login/", {"username": username, "password": PASSWORD}, format="multipart"
    )
    assert signed.status_code == 302, signed.content[:300]
    made = session.post(
        "/api/v1/tokens/",
        {"name": f"{username}'s bot", "tournament": tournament, "write": True},
        format="json",
    )
    return str(ok(made, 201)["token"])


def test_two_bound_team_tokens_and_two_accounts_made_over_the_api_play_a_whole_deal(
    db: None,
) -> None:
    director_user = get_user_model().objects.create_user("director")
    director = CommittingClient()
    director.force_login(director_user)
    world = set_up(director)
    bots = {}
    for player in ("first", "second"):
        made = director.post(
            f"/api/v1/teams/{world['teams'][0]}/token/", {"player": player}, format="json"
        )
        assert ok(made, 201)["player"] == player
        bots[player] = bearer(made.json()["token"])
    people = [bearer(account_token(name, world["tournament"])) for name in world["accounts"]]
    director.logout()  # from here on only the four credentials play

    match = Match.objects.get(pk=world["match"])
    side = 0 if match.team0_id == world["teams"][0] else 1
    # the bots' team sits at side and side + 2 (its first and second players), the people
    # (first, then second player) at the other side's two seats
    seated = {side: bots["first"], side + 2: bots["second"], 1 - side: people[0],
              3 - side: people[1]}  # fmt: skip
    url = f"/api/v1/matches/{match.pk}"
    rng = random.Random(7)
    moves = 0
    for _ in range(200):
        match.refresh_from_db()
        if match.status != "in_progress":
            break
        to_play = []
        for seat, client in seated.items():
            secret = secret_for(match, seat)
            answer = client.get(f"{url}/state/")
            state = ok(answer)
            text = answer.content.decode()
            assert not [card for card in secret if f'"{card}"' in text], seat
            assert state["seat"] == seat
            hands = state["position"]["hands"]
            assert hands[seat] == list(deal_in_play(match).hand(seat))
            assert all(hands[other] is None for other in range(4) if other != seat)
            if state["legal_moves"]:
                to_play.append((seat, client, state))
        assert len(to_play) == 1  # exactly one seat is to play, and only it sees its moves
        seat, client, state = to_play[0]
        move = rng.choice(state["legal_moves"])
        assert move["seat"] == seat
        ok(
            client.post(
                f"{url}/events/",
                {"expected_seq": state["last_seq"], "kind": "move_played",
                 "payload": {"move": move}},
                format="json",
            ),
            201,
        )  # fmt: skip
        moves += 1
    match.refresh_from_db()
    assert match.status == "finished" and moves > 40
    deals = ok(CommittingClient().get(f"{url}/deals/"))["deals"]
    # one deal (the cap), and another while the match stands level (a knockout has no draw:
    # the deck is shuffled by the server, so a first deal of 50 to 50 happens)
    assert deals and all(d["points0"] + d["points1"] == 100 for d in deals)
    # each deal before the last left it level (no bazzi, no difference); the last decided it:
    # a difference, or a bazzi won (whose difference starts again at 0)
    assert all(d["running_difference"] == 0 and d["bazzi"] is None for d in deals[:-1])
    assert deals[-1]["running_difference"] != 0 or deals[-1]["bazzi"] is not None
    # the bots hold their seats as phones would, one claim a seat
    held = SeatClaim.objects.filter(match=match, released_at__isnull=True)
    assert sorted(held.values_list("seat", flat=True)) == [side, side + 2]
