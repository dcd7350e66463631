"""Every choice the admin offers a staff director, and every id it accepts, is in their scope.

Two clubs, each with a director on the staff and a tournament of its own (club B's private),
a private tournament of no club, and a player of no club and no team. Ada directs club A:
its members, its tournament's teams, the accounts of her club are hers to choose; nobody
else's is offered, accepted, or named by its id (docs/clubs.md, "In the admin").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.test import Client

from competition.models import Stage
from tournaments.models import Club, Match, Player, Team, Tournament

pytestmark = pytest.mark.django_db

#: the names and usernames no page may show Ada
SECRETS = ("Bilal Secret", "bilal_secret", "Bina Hidden", "b_keeper", "bo_director",
           "Chitra Clubless", "chitra_secret", "Orphan Secret", "orphan_secret",
           "Bees")  # fmt: skip


@dataclass(frozen=True)
class Scene:
    ada: Any  # staff, directs club A and organizes its tournament
    club: Club
    tournament: Tournament
    members: dict[str, Player]  # club A's, by name
    aces: Team  # Asha and Arjun
    match: Match  # Aces v Kings, by score
    outsiders: dict[str, Player]  # by who: "bilal" (club B), "chitra" (no club), "orphan"
    bees: Team  # club B's private team
    b_keeper: Any


def account(django_user_model: Any, username: str, **flags: Any) -> Any:
    return django_user_model.objects.create_user(username, **flags)


@pytest.fixture
def scene(django_user_model: Any) -> Scene:
    ada = account(django_user_model, "ada", is_staff=True)
    club = Club.objects.create(name="Club A", slug="club-a")
    club.directors.add(ada)
    tournament = Tournament.objects.create(name="A open", slug="a-open", organizer=ada, club=club)
    members = {
        name: Player.objects.create(
            name=name, club=club, user=account(django_user_model, name.lower()) if login else None
        )
        for name, login in (("Asha", True), ("Arjun", True), ("Anil", True), ("Amala", False),
                            ("Ravi", False), ("Rani", False))
    }  # fmt: skip
    aces = Team.objects.create(tournament=tournament, name="Aces", first_player=members["Asha"],
                               second_player=members["Arjun"])  # fmt: skip
    kings = Team.objects.create(tournament=tournament, name="Kings", first_player=members["Anil"],
                                second_player=members["Amala"])  # fmt: skip
    match = Match.objects.create(
        tournament=tournament, team0=aces, team1=kings, mode="score", rules=tournament.rules,
        match_format=tournament.match_format,
    )  # fmt: skip

    bo = account(django_user_model, "bo_director", is_staff=True)
    club_b = Club.objects.create(name="Club B", slug="club-b")
    club_b.directors.add(bo)
    private = Tournament.objects.create(name="B private", slug="b-private", organizer=bo,
                                        club=club_b)  # fmt: skip
    bilal, bina = (
        Player.objects.create(name=name, club=club_b, user=account(django_user_model, login))
        for name, login in (("Bilal Secret", "bilal_secret"), ("Bina Hidden", "bina_hidden"))
    )
    bees = Team.objects.create(tournament=private, name="Bees", first_player=bilal,
                               second_player=bina)  # fmt: skip
    wasps = Team.objects.create(
        tournament=private, name="Wasps",
        first_player=Player.objects.create(name="Wasp One", club=club_b),
        second_player=Player.objects.create(name="Wasp Two", club=club_b),
    )  # fmt: skip
    b_match = Match.objects.create(
        tournament=private, team0=bees, team1=wasps, mode="score", rules=private.rules,
        match_format=private.match_format,
    )  # fmt: skip
    b_keeper = account(django_user_model, "b_keeper")
    b_match.scorekeepers.add(b_keeper)

    cy = account(django_user_model, "cy", is_staff=True)
    clubless = Tournament.objects.create(name="C private", slug="c-private", organizer=cy)
    chitra = Player.objects.create(name="Chitra Clubless",
                                   user=account(django_user_model, "chitra_secret"))  # fmt: skip
    Team.objects.create(tournament=clubless, name="Cats", first_player=chitra,
                        second_player=Player.objects.create(name="Cyrus"))  # fmt: skip
    orphan = Player.objects.create(name="Orphan Secret",
                                   user=account(django_user_model, "orphan_secret"))  # fmt: skip
    return Scene(ada=ada, club=club, tournament=tournament, members=members, aces=aces,
                 match=match, outsiders={"bilal": bilal, "chitra": chitra, "orphan": orphan},
                 bees=bees, b_keeper=b_keeper)  # fmt: skip


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def shows_no_secret(response: Any) -> bool:
    page = response.content.decode()
    return not [secret for secret in SECRETS if secret in page]


def choices(response: Any, field: str) -> set[str]:
    """Return the rows the form's ``field`` offers, as their text."""
    return {str(row) for row in response.context["adminform"].form.fields[field].queryset}


def form_errors(response: Any) -> dict[str, list[str]]:
    assert response.status_code == 200, response.status_code  # the form again, nothing saved
    errors = response.context["adminform"].form.errors
    return {name: list(messages) for name, messages in errors.items()}


TEAM = "/admin/tournaments/team/"
ADA_ACCOUNTS = {"ada", "asha", "arjun", "anil"}  # herself, and her club's members' accounts


# --- Out of scope: refused, never named ------------------------------------------------------


@pytest.mark.parametrize("who", ["bilal", "chitra", "orphan"])
def test_a_team_form_with_a_player_from_outside_the_scope_is_refused(
    scene: Scene, who: str
) -> None:
    outsider = scene.outsiders[who]
    client = logged_in(scene.ada)
    response = client.post(f"{TEAM}{scene.aces.pk}/change/", {
        "name": "Aces", "first_player": outsider.pk, "second_player": scene.members["Arjun"].pk,
    })  # fmt: skip
    assert "Select a valid choice" in form_errors(response)["first_player"][0]
    assert shows_no_secret(response)
    scene.aces.refresh_from_db()
    assert scene.aces.first_player == scene.members["Asha"]
    # ...and the player did not come into her scope by it: she cannot see or rename them
    assert outsider not in client.get("/admin/tournaments/player/").context["cl"].result_list
    rename = client.post(f"/admin/tournaments/player/{outsider.pk}/change/", {"name": "Mine"})
    assert rename.status_code == 302
    outsider.refresh_from_db()
    assert outsider.name != "Mine"


@pytest.mark.parametrize("who", ["bilal", "chitra", "orphan"])
def test_a_new_team_with_a_player_from_outside_the_scope_is_refused(scene: Scene, who: str) -> None:
    response = logged_in(scene.ada).post(f"{TEAM}add/", {
        "tournament": scene.tournament.pk, "name": "Raiders",
        "first_player": scene.outsiders[who].pk, "second_player": scene.members["Ravi"].pk,
    })  # fmt: skip
    assert list(form_errors(response)) == ["first_player"]
    assert shows_no_secret(response)
    assert not Team.objects.filter(name="Raiders").exists()


@pytest.mark.parametrize("who", ["bilal", "chitra", "orphan"])
def test_a_raw_id_box_names_no_row_outside_the_scope(scene: Scene, who: str) -> None:
    """The trick of reading private players' names one id at a time, through the label the
    admin prints beside an id, whether the id comes in the query string or in a post."""
    outsider = scene.outsiders[who]
    client = logged_in(scene.ada)
    page = client.get(f"{TEAM}add/?first_player={outsider.pk}&second_player={outsider.pk}")
    assert page.status_code == 200 and shows_no_secret(page)
    member = scene.members["Amala"]
    page = client.get(f"/admin/tournaments/player/{member.pk}/change/?user={outsider.user_id}")
    assert page.status_code == 200 and shows_no_secret(page)
    refused = client.post(f"/admin/tournaments/player/{member.pk}/change/", {
        "name": "Amala", "club": scene.club.pk, "contact": "", "user": outsider.user_id,
    })  # fmt: skip
    assert "Select a valid choice" in form_errors(refused)["user"][0]
    assert shows_no_secret(refused)
    member.refresh_from_db()
    assert member.user is None


# --- The pickers ---------------------------------------------------------------------------


def test_the_score_keeper_and_director_pickers_offer_only_her_clubs_accounts(
    scene: Scene,
) -> None:
    client = logged_in(scene.ada)
    pages = {
        f"/admin/tournaments/match/{scene.match.pk}/change/": "scorekeepers",
        f"/admin/tournaments/tournament/{scene.tournament.pk}/change/": "directors",
        f"/admin/tournaments/club/{scene.club.pk}/change/": "directors",
        "/admin/competition/stage/add/": "scorekeepers",
    }
    for url, field in pages.items():
        page = client.get(url)
        assert page.status_code == 200, url
        assert choices(page, field) == ADA_ACCOUNTS, url
        assert shows_no_secret(page), url


def test_a_score_keeper_from_another_club_is_refused(scene: Scene) -> None:
    match = scene.match
    response = logged_in(scene.ada).post(f"/admin/tournaments/match/{match.pk}/change/", {
        "team0": match.team0_id, "team1": match.team1_id, "mode": "score",
        "confirmation": "none", "match_format": '{"bazzis": 1}',
        "scorekeepers": [scene.b_keeper.pk],
    })  # fmt: skip
    assert "scorekeepers" in form_errors(response)
    assert shows_no_secret(response)
    assert not match.scorekeepers.exists()


def test_a_stage_with_a_score_keeper_from_another_club_is_refused(scene: Scene) -> None:
    response = logged_in(scene.ada).post("/admin/competition/stage/add/", {
        **STAGE, "tournament": scene.tournament.pk, "scorekeepers": [scene.b_keeper.pk],
    })  # fmt: skip
    assert list(form_errors(response)) == ["scorekeepers"]
    assert shows_no_secret(response)
    assert not Stage.objects.exists()


def autocomplete(client: Client, model: str, field: str, term: str = "") -> Any:
    return client.get("/admin/autocomplete/", {"app_label": "tournaments", "model_name": model,
                                               "field_name": field, "term": term})  # fmt: skip


def test_the_autocomplete_finds_only_her_scope_whatever_permissions_she_holds(
    scene: Scene,
) -> None:
    scene.ada.user_permissions.add(*Permission.objects.all())
    client = logged_in(scene.ada)
    accounts = autocomplete(client, "match", "scorekeepers")
    assert {row["text"] for row in accounts.json()["results"]} == ADA_ACCOUNTS
    assert autocomplete(client, "match", "scorekeepers", "secret").json()["results"] == []
    players = autocomplete(client, "team", "first_player")
    assert {row["text"] for row in players.json()["results"]} == set(scene.members)
    assert autocomplete(client, "team", "first_player", "secret").json()["results"] == []
    for response in (accounts, players):
        assert shows_no_secret(response)


def test_every_permission_still_lists_and_changes_no_account_outside_the_scope(
    scene: Scene,
) -> None:
    ada = scene.ada
    ada.user_permissions.add(*Permission.objects.all())
    client = logged_in(ada)
    listing = client.get("/admin/auth/user/")
    assert {str(row) for row in listing.context["cl"].result_list} == ADA_ACCOUNTS
    assert shows_no_secret(listing)
    # and an account's flags are a superuser's: not even her own may she raise
    assert client.post(f"/admin/auth/user/{ada.pk}/change/", {
        "username": "ada", "is_active": "on", "is_staff": "on", "is_superuser": "on",
    }).status_code == 403  # fmt: skip
    ada.refresh_from_db()
    assert not ada.is_superuser


def test_a_player_of_no_club_and_no_team_is_a_superusers_alone(scene: Scene) -> None:
    orphan = scene.outsiders["orphan"]
    listing = logged_in(scene.ada).get("/admin/tournaments/player/")
    assert set(listing.context["cl"].result_list) == set(scene.members.values())
    page = logged_in(scene.ada).get(f"/admin/tournaments/player/{orphan.pk}/change/")
    assert page.status_code == 302  # not hers: back to the admin's home


def test_the_history_delete_and_view_on_site_pages_of_a_row_outside_the_scope_name_nothing(
    scene: Scene,
) -> None:
    client = logged_in(scene.ada)
    bees = scene.bees.pk
    for url in (f"{TEAM}{bees}/history/", f"{TEAM}{bees}/delete/", f"{TEAM}{bees}/change/"):
        response = client.get(url, follow=True)
        assert response.status_code == 200 and shows_no_secret(response), url
    team_type = ContentType.objects.get_for_model(Team)
    response = client.get(f"/admin/r/{team_type.pk}/{bees}/")
    assert response.status_code == 404 and shows_no_secret(response)


def test_deleting_a_member_who_plays_in_another_directors_tournament_names_not_its_team(
    scene: Scene, django_user_model: Any
) -> None:
    """Her club's member plays in a private tournament of her club that another organizer
    runs: the team that protects the member from deletion is not named to her."""
    zed = account(django_user_model, "zed")
    private = Tournament.objects.create(name="Zed's night", slug="zeds-night", organizer=zed,
                                        club=scene.club)  # fmt: skip
    zoe, zak = (Player.objects.create(name=name, club=scene.club) for name in ("Zoe", "Zak"))
    Team.objects.create(tournament=private, name="Zed Secret Team", first_player=zoe,
                        second_player=zak)  # fmt: skip
    page = logged_in(scene.ada).get(f"/admin/tournaments/player/{zoe.pk}/delete/")
    assert page.status_code == 200
    assert "Zed Secret Team" not in page.content.decode()  # "no permission to delete: team"
    assert logged_in(scene.ada).post(
        f"/admin/tournaments/player/{zoe.pk}/delete/", {"post": "yes"}
    ).status_code == 200  # fmt: skip
    assert Player.objects.filter(pk=zoe.pk).exists()


# --- Bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["abc", "-1", "1.5", "99999999999999999999", " ", "1e3"])
def test_a_bad_id_is_refused_in_words_never_a_500(scene: Scene, value: str) -> None:
    client = logged_in(scene.ada)
    assert client.get(f"{TEAM}add/", {"first_player": value}).status_code == 200
    response = client.post(f"{TEAM}{scene.aces.pk}/change/", {
        "name": "Aces", "first_player": value, "second_player": scene.members["Arjun"].pk,
    })  # fmt: skip
    assert "first_player" in form_errors(response)
    match = scene.match
    response = client.post(f"/admin/tournaments/match/{match.pk}/change/", {
        "team0": match.team0_id, "team1": match.team1_id, "mode": "score",
        "confirmation": "none", "scorekeepers": [value],
    })  # fmt: skip
    assert "scorekeepers" in form_errors(response)


# --- What stays possible ---------------------------------------------------------------------

STAGE = {
    "order": "", "name": "Evening", "format": "round_robin", "rounds": "", "groups": "",
    "entry": "registered", "entry_count": "", "seeding": "manual", "swiss_method": "slide",
    "match_format": '{"bazzis": 1, "deal_cap": 2}', "mode": "score", "confirmation": "none",
    "points_win": 2, "points_draw": 1, "points_loss": 0, "points_bye": 2, "points_forfeit": 0,
    "tiebreaks": "[]", "tiebreak_seed": "", "withdrawal": "forfeit", "grand_final_reset": "on",
    "start_matches": "on",
}  # fmt: skip


def test_a_director_still_makes_teams_of_her_members_and_appoints_her_clubs_score_keepers(
    scene: Scene,
) -> None:
    client = logged_in(scene.ada)
    members = scene.members
    page = client.get(f"{TEAM}add/?first_player={members['Ravi'].pk}")
    assert "Ravi" in page.content.decode()  # her own member is named beside the id
    made = client.post(f"{TEAM}add/", {"tournament": scene.tournament.pk, "name": "Raiders",
                                       "first_player": members["Ravi"].pk,
                                       "second_player": members["Rani"].pk})  # fmt: skip
    assert made.status_code == 302, made.content.decode()[:2000]
    assert Team.objects.get(name="Raiders").first_player == members["Ravi"]
    match = scene.match
    appointed = client.post(f"/admin/tournaments/match/{match.pk}/change/", {
        "team0": match.team0_id, "team1": match.team1_id, "mode": "score",
        "confirmation": "none", "match_format": '{"bazzis": 1}',
        "scorekeepers": [members["Asha"].user_id, scene.ada.pk],
    })  # fmt: skip
    assert appointed.status_code == 302, appointed.content.decode()[:2000]
    assert set(match.scorekeepers.all()) == {members["Asha"].user, scene.ada}
    stage = client.post("/admin/competition/stage/add/", {
        **STAGE, "tournament": scene.tournament.pk, "scorekeepers": [members["Anil"].user_id],
    })  # fmt: skip
    assert stage.status_code == 302, stage.content.decode()[:2000]
    assert list(Stage.objects.get().scorekeepers.all()) == [members["Anil"].user]
    linked = client.post(f"/admin/tournaments/player/{members['Amala'].pk}/change/", {
        "name": "Amala", "club": scene.club.pk, "contact": "", "user": scene.ada.pk,
    })  # fmt: skip
    assert linked.status_code == 302, linked.content.decode()[:2000]


def test_an_added_director_of_another_clubs_tournament_keeps_its_teams_line_ups(
    scene: Scene, django_user_model: Any
) -> None:
    """She directs the tournament, not its club: its teams' players stay choices, so renaming
    a team keeps its line-up."""
    helper = account(django_user_model, "helper", is_staff=True)
    scene.tournament.directors.add(helper)
    aces = scene.aces
    renamed = logged_in(helper).post(f"{TEAM}{aces.pk}/change/", {
        "name": "Aces!", "first_player": aces.first_player_id,
        "second_player": aces.second_player_id,
    })  # fmt: skip
    assert renamed.status_code == 302, renamed.content.decode()[:2000]
    aces.refresh_from_db()
    assert (aces.name, aces.first_player) == ("Aces!", scene.members["Asha"])


def test_a_stages_score_keepers_named_elsewhere_stay_when_it_is_saved(scene: Scene) -> None:
    stage = Stage.objects.create(tournament=scene.tournament, order=1, name="Evening",
                                 format="round_robin", match_format={"bazzis": 1})  # fmt: skip
    stage.scorekeepers.add(scene.b_keeper)  # as the API may (any account)
    saved = logged_in(scene.ada).post(f"/admin/competition/stage/{stage.pk}/change/", {
        **STAGE, "name": "Evening!", "scorekeepers": [scene.b_keeper.pk],
    })  # fmt: skip
    assert saved.status_code == 302, saved.content.decode()[:2000]
    assert list(stage.scorekeepers.all()) == [scene.b_keeper]


def test_a_superuser_chooses_from_every_row(scene: Scene, django_user_model: Any) -> None:
    root = django_user_model.objects.create_superuser("root")
    client = logged_in(root)
    bilal = scene.outsiders["bilal"]
    page = client.get(f"{TEAM}add/?first_player={bilal.pk}")
    assert "Bilal Secret" in page.content.decode()
    match = client.get(f"/admin/tournaments/match/{scene.match.pk}/change/")
    assert choices(match, "scorekeepers") == {str(u) for u in django_user_model.objects.all()}
    players = autocomplete(client, "team", "first_player", "secret")
    assert {row["text"] for row in players.json()["results"]} == {
        "Bilal Secret", "Chitra Clubless", "Orphan Secret"  # by name or by account
    }  # fmt: skip
    listing = client.get("/admin/tournaments/player/")
    assert listing.context["cl"].result_count == Player.objects.count()
