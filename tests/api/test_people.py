"""Clubs and their members over the API: who sees and changes what, teams of members, and the
accounts a director may name (the club's people, never any account of the site)."""

from __future__ import annotations

from typing import Any

import pytest

from tournaments.models import Club, Player, Team

from .conftest import Clubs

pytestmark = pytest.mark.django_db


def problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.content[:400])
    assert response["Content-Type"].startswith("application/problem+json")
    body: dict[str, Any] = response.json()
    assert body["code"] == code, body
    return body


# --- clubs ---------------------------------------------------------------------------------


def test_a_director_lists_the_clubs_they_direct_and_makes_one(scene: Clubs) -> None:
    asha = scene.client("asha")
    listed = asha.get("/api/v1/clubs/").json()["results"]
    assert [c["name"] for c in listed] == ["Friday club"]
    made = asha.post(
        "/api/v1/clubs/", {"name": "Sunday club", "time_zone": "Asia/Kolkata"}, format="json"
    )
    assert made.status_code == 201, made.content
    asha_id = scene.users["asha"].pk
    assert made.json()["directors"] == [{"id": asha_id, "display_name": f"Account {asha_id}"}]
    assert Club.objects.get(pk=made.json()["id"]).directors.get() == scene.users["asha"]


def test_a_member_with_an_account_sees_their_club_but_not_the_contacts(scene: Clubs) -> None:
    dev = scene.client("dev")
    assert [c["id"] for c in dev.get("/api/v1/clubs/").json()["results"]] == [scene.one.pk]
    roster = dev.get(f"/api/v1/clubs/{scene.one.pk}/members/").json()["results"]
    assert {m["name"]: m["contact"] for m in roster} == {"Bina": None, "Chetan": None, "Dev": None}
    member = dev.get(f"/api/v1/members/{scene.members['bina'].pk}/").json()
    assert member["contact"] is None
    asha = scene.client("asha")
    assert asha.get(f"/api/v1/members/{scene.members['bina'].pk}/").json()["contact"] == "bina@x"
    problem(
        dev.patch(f"/api/v1/members/{scene.members['bina'].pk}/", {"name": "B"}, format="json"),
        403,
        "forbidden",
    )
    problem(
        dev.post(f"/api/v1/clubs/{scene.one.pk}/members/", {"name": "Z"}, format="json"),
        403,
        "forbidden",
    )


@pytest.mark.parametrize(
    "path", ["/api/v1/clubs/{one}/", "/api/v1/clubs/{one}/members/", "/api/v1/members/{bina}/"]
)
def test_another_clubs_director_finds_no_such_club_or_member(scene: Clubs, path: str) -> None:
    url = path.format(one=scene.one.pk, bina=scene.members["bina"].pk)
    for caller in (scene.client("ravi"), scene.client("stranger"), scene.client(token="two_write")):
        problem(caller.get(url), 404, "not_found")
        if not url.endswith("/members/"):
            problem(caller.patch(url, {"name": "Taken"}, format="json"), 404, "not_found")
    assert Club.objects.get(pk=scene.one.pk).name == "Friday club"
    assert Player.objects.get(pk=scene.members["bina"].pk).name == "Bina"


def test_the_anonymous_are_asked_to_sign_in(scene: Clubs) -> None:
    anonymous = scene.client()
    for url in (
        "/api/v1/clubs/",
        f"/api/v1/clubs/{scene.one.pk}/members/",
        f"/api/v1/members/{scene.members['bina'].pk}/",
    ):
        problem(anonymous.get(url), 401, "not_authenticated")
    problem(
        anonymous.post("/api/v1/clubs/", {"name": "X"}, format="json"), 401, "not_authenticated"
    )
    assert not Club.objects.filter(name="X").exists()


def test_a_tournaments_token_reaches_no_club(scene: Clubs) -> None:
    cup = scene.client(token="cup_write")
    for url in (
        "/api/v1/clubs/",
        f"/api/v1/clubs/{scene.one.pk}/",
        f"/api/v1/clubs/{scene.one.pk}/members/",
        f"/api/v1/members/{scene.members['bina'].pk}/",
    ):
        problem(cup.get(url), 403, "token_scope")
    problem(
        cup.post(f"/api/v1/clubs/{scene.one.pk}/members/", {"name": "Z"}, format="json"),
        403,
        "token_scope",
    )
    problem(cup.post("/api/v1/clubs/", {"name": "Z"}, format="json"), 403, "token_scope")
    assert not Player.objects.filter(name="Z").exists() and not Club.objects.filter(name="Z")


def test_a_clubs_token_keeps_its_roster_and_a_read_only_one_only_reads(scene: Clubs) -> None:
    url = f"/api/v1/clubs/{scene.one.pk}/members/"
    made = scene.client(token="club_write").post(
        url, {"name": "Hema", "contact": "h@z"}, format="json"
    )
    assert made.status_code == 201, made.content
    assert made.json()["contact"] == "h@z" and made.json()["user"] is None
    reader = scene.client(token="club_read")
    assert reader.get(url).json()["count"] == 4
    problem(reader.post(url, {"name": "Indu"}, format="json"), 403, "token_read_only")
    problem(
        reader.patch(f"/api/v1/clubs/{scene.one.pk}/", {"name": "R"}, format="json"),
        403,
        "token_read_only",
    )
    # another club, or making one, is beyond a club's token
    problem(
        scene.client(token="club_write").get(f"/api/v1/clubs/{scene.two.pk}/"), 404, "not_found"
    )
    problem(
        scene.client(token="club_write").post("/api/v1/clubs/", {"name": "New"}, format="json"),
        403,
        "token_scope",
    )
    assert not Player.objects.filter(name="Indu").exists()


def test_a_director_renames_the_club_and_a_member(scene: Clubs) -> None:
    asha = scene.client("asha")
    club = asha.patch(
        f"/api/v1/clubs/{scene.one.pk}/", {"time_zone": "Europe/London"}, format="json"
    )
    assert club.status_code == 200 and club.json()["time_zone"] == "Europe/London"
    member = asha.patch(
        f"/api/v1/members/{scene.members['chetan'].pk}/",
        {"name": "Chetan R", "contact": "c@r"},
        format="json",
    )
    assert member.status_code == 200, member.content
    assert member.json()["name"] == "Chetan R" and member.json()["contact"] == "c@r"


@pytest.mark.parametrize(
    "body",
    [
        {"name": ""},
        {"name": "x" * 201},
        {"name": "Bell\u0007"},
        {"name": ["a"]},
        {"name": "Ok", "contact": "c" * 201},
        {"name": "Ok", "user": 2**63},
        {"name": "Ok", "user": 2**80},
        {"name": "Ok", "user": "12"},
        {"name": "Ok", "user": True},
        {"name": "Ok", "user": {"member": 2**70}},
        {"name": "Ok", "user": {"member": "x"}},
        {"name": "Ok", "user": {"who": 1}},
        {"name": "Ok", "id": 5},
        {"name": "Ok", "club": 5},
        {"name": "Ok", "unknown": 1},
    ],
)
def test_a_bad_member_is_refused_as_a_problem_never_a_500(scene: Clubs, body: Any) -> None:
    before = Player.objects.count()
    response = scene.client("asha").post(
        f"/api/v1/clubs/{scene.one.pk}/members/", body, format="json"
    )
    assert response.status_code in (400, 422), (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/problem+json")
    assert Player.objects.count() == before


@pytest.mark.parametrize("pk", ["0", "-1", str(2**63), str(2**80), "abc"])
def test_a_huge_or_bad_id_is_a_404(scene: Clubs, pk: str) -> None:
    asha = scene.client("asha")
    for url in (f"/api/v1/clubs/{pk}/", f"/api/v1/clubs/{pk}/members/", f"/api/v1/members/{pk}/"):
        assert asha.get(url).status_code == 404


@pytest.mark.parametrize(
    "body",
    [{"name": ""}, {"time_zone": "Mars/Base"}, {"time_zone": 5}, {"slug": "x"}, {"name": "\u0000"}],
)
def test_a_bad_club_is_refused(scene: Clubs, body: dict[str, Any]) -> None:
    response = scene.client("asha").patch(f"/api/v1/clubs/{scene.one.pk}/", body, format="json")
    assert response.status_code in (400, 422), response.content
    assert Club.objects.get(pk=scene.one.pk).name == "Friday club"


# --- accounts: the club's people only ----------------------------------------------------


def test_a_members_account_is_one_of_the_clubs_people(scene: Clubs) -> None:
    """Not any account of the site: a stranger's, or another club's member's, is refused as
    an account that is not (knowing an id grants nothing)."""
    url = f"/api/v1/clubs/{scene.one.pk}/members/"
    asha = scene.client("asha")
    refused = [
        asha.post(url, {"name": "S", "user": pk}, format="json")
        for pk in (scene.users["stranger"].pk, scene.users["kiran"].pk, 987654)
    ]
    errors = [problem(r, 400, "invalid")["errors"] for r in refused]
    assert (
        errors[0] == errors[1] == errors[2] == {"user": ["no such account among the club's people"]}
    )
    # the director's own account is theirs to name (a director who plays)
    own = asha.post(url, {"name": "Asha", "user": scene.users["asha"].pk}, format="json")
    assert own.status_code == 201, own.content
    # one person, one member: an account another member has is refused
    twice = asha.post(url, {"name": "Dev again", "user": scene.users["dev"].pk}, format="json")
    problem(twice, 422, "bad_member")


def test_score_keepers_and_directors_are_the_clubs_people(scene: Clubs) -> None:
    asha = scene.client("asha")
    stages = f"/api/v1/tournaments/{scene.cup.pk}/stages/"
    stage = {"name": "Swiss", "format": "swiss", "rounds": 3}
    for keeper in (
        scene.users["stranger"].pk,
        scene.users["kiran"].pk,
        {"member": scene.members["kiran"].pk},
        {"member": scene.members["bina"].pk},
    ):
        response = asha.post(stages, {**stage, "scorekeepers": [keeper]}, format="json")
        assert response.status_code == 400, response.content
        assert "scorekeepers.0" in response.json()["errors"]
    made = asha.post(
        stages,
        {**stage, "scorekeepers": [{"member": scene.members["dev"].pk}, scene.users["asha"].pk]},
        format="json",
    )
    assert made.status_code == 201, made.content
    assert sorted(made.json()["scorekeepers"]) == sorted(
        [scene.users["dev"].pk, scene.users["asha"].pk]
    )
    cup = f"/api/v1/tournaments/{scene.cup.pk}/"
    response = asha.patch(cup, {"directors": [scene.users["stranger"].pk]}, format="json")
    assert problem(response, 400, "invalid")["errors"] == {
        "directors.0": ["no such account among the club's people"]
    }
    named = asha.patch(cup, {"directors": [{"member": scene.members["dev"].pk}]}, format="json")
    assert named.status_code == 200 and named.json()["directors"] == [scene.users["dev"].pk]
    assert list(scene.cup.directors.all()) == [scene.users["dev"]]


def test_a_players_account_is_one_of_the_clubs_people(scene: Clubs) -> None:
    response = scene.client("asha").post(
        f"/api/v1/tournaments/{scene.cup.pk}/teams/",
        {
            "name": "T",
            "players": [{"name": "S", "user": scene.users["stranger"].pk}, {"name": "Bob"}],
        },
        format="json",
    )
    assert problem(response, 400, "invalid")["errors"] == {
        "players.0.user": ["no such account among the club's people"]
    }
    assert not Team.objects.filter(name="T").exists()


# --- teams of members ----------------------------------------------------------------------


def test_a_team_is_entered_from_member_ids_and_names(scene: Clubs) -> None:
    response = scene.client(token="club_write").post(
        f"/api/v1/tournaments/{scene.cup.pk}/teams/",
        {"name": "Aces", "players": [{"member": scene.members["bina"].pk}, {"name": "Farah"}]},
        format="json",
    )
    assert response.status_code == 201, response.content
    players = response.json()["players"]
    assert players[0]["id"] == scene.members["bina"].pk
    farah = Player.objects.get(pk=players[1]["id"])
    assert (farah.name, farah.club_id) == ("Farah", scene.one.pk)


def test_another_clubs_member_or_one_already_playing_is_refused(scene: Clubs) -> None:
    url = f"/api/v1/tournaments/{scene.cup.pk}/teams/"
    asha = scene.client("asha")
    other = asha.post(
        url,
        {"name": "X", "players": [{"member": scene.members["kiran"].pk}, {"name": "Y"}]},
        format="json",
    )
    assert problem(other, 400, "invalid")["errors"] == {
        "players.0.member": ["no such member of the tournament's club"]
    }
    first = asha.post(
        url,
        {
            "name": "Aces",
            "players": [
                {"member": scene.members["bina"].pk},
                {"member": scene.members["chetan"].pk},
            ],
        },
        format="json",
    )
    assert first.status_code == 201, first.content
    before = (Team.objects.count(), Player.objects.count())
    again = asha.post(
        url,
        {"name": "Kings", "players": [{"member": scene.members["bina"].pk}, {"name": "Zed"}]},
        format="json",
    )
    assert "already plays for Aces" in problem(again, 422, "bad_team")["detail"]
    assert (Team.objects.count(), Player.objects.count()) == before


@pytest.mark.parametrize(
    "player",
    [
        {"member": 2**63},
        {"member": "x"},
        {"member": 0},
        {"member": True},
        {},
        {"member": 1, "name": "Both"},
        {"member": 1, "user": 1},
    ],
)
def test_a_bad_player_is_refused_as_invalid(scene: Clubs, player: dict[str, Any]) -> None:
    response = scene.client("asha").post(
        f"/api/v1/tournaments/{scene.cup.pk}/teams/",
        {"name": "Bad", "players": [player, {"name": "Ok"}]},
        format="json",
    )
    problem(response, 400, "invalid")
    assert not Team.objects.filter(name="Bad").exists()
