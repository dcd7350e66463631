"""A slug is the site's once its tournament is published, its club's before (issue 40): two
clubs' private evenings may share one, each reached at its address by its own directors and
players and by nobody else; the desk's new evening takes the name's slug though another
club's private evening holds it; and a private evening whose slug another club then
publishes at is still at its director's desk, which says its page's address shows the other."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from competition import services as competition
from competition.selectors import tournament_at
from tournaments import clubs
from tournaments.models import Player, Tournament

from .conftest import CommittingClient
from .test_desk_evening import evening_form

pytestmark = pytest.mark.django_db


@dataclass
class TwoClubs:
    users: dict[str, Any]
    ours: Tournament  # club "one"'s private "cup", with a team of players "p1" and "p2"
    theirs: Tournament  # club "two"'s private "cup", with a team of players "q1" and "q2"

    def client(self, who: str | None = None) -> CommittingClient:
        client = CommittingClient()
        if who is not None:
            client.force_login(self.users[who])
        return client


def _evening(director: Any, club: Any, players: tuple[Any, Any]) -> Tournament:
    evening = competition.tournament_create(
        actor=director, club=club, name=f"Cup of {club.name}", slug="cup"
    )
    first, second = (
        Player.objects.create(name=f"Player {u.username}", user=u, club=club) for u in players
    )
    competition.team_register(
        actor=director, tournament=evening, name=f"Team {club.name}", first_player=first,
        second_player=second,
    )  # fmt: skip
    return evening


@pytest.fixture
def two(db: None) -> TwoClubs:
    names = ("one", "two", "p1", "p2", "q1", "q2", "outsider")
    users = {n: get_user_model().objects.create_user(n) for n in names}
    one = clubs.club_create(actor=users["one"], name="One")
    other = clubs.club_create(actor=users["two"], name="Two")
    ours = _evening(users["one"], one, (users["p1"], users["p2"]))
    theirs = _evening(users["two"], other, (users["q1"], users["q2"]))
    return TwoClubs(users, ours, theirs)


def _page(client: CommittingClient, url: str) -> tuple[int, str]:
    answer = client.get(url)
    return answer.status_code, answer.content.decode() if answer.status_code == 200 else ""


def test_two_clubs_private_evenings_at_one_slug_are_each_their_own_people_s(
    two: TwoClubs,
) -> None:
    assert (two.ours.slug, two.theirs.slug) == ("cup", "cup")
    for who, mine in (("one", "One"), ("p1", "One"), ("p2", "One"), ("two", "Two"), ("q1", "Two")):
        client = two.client(who)
        for url in ("/t/cup/", "/t/cup/print/", "/t/cup/wall/"):
            status, text = _page(client, url)
            assert status == 200, (who, url)
            assert (
                f"Cup of {mine}" in text
                and f"Cup of {'Two' if mine == 'One' else 'One'}" not in text
            )
        assert client.get("/t/cup/live/").status_code == 200
        assert client.get("/t/cup/matches.csv").status_code == 200
    for who, other in (("one", "Two"), ("two", "One")):
        status, text = _page(two.client(who), "/desk/cup/")
        assert status == 200 and f"Cup of {other}" not in text, who
        assert two.client(who).get("/desk/cup/webhooks/").status_code == 200
        assert two.client(who).get("/desk/cup/board/").status_code == 200
    for who in (None, "outsider"):  # exactly as for a slug nobody holds
        for url in ("/t/cup/", "/t/cup/live/", "/t/cup/matches.csv", "/desk/cup/"):
            nobody = url.replace("cup", "nobody-has-this")
            assert two.client(who).get(url).status_code == two.client(who).get(nobody).status_code
            assert two.client(who).get(url).status_code in (302, 404), (who, url)
    for player in ("p1", "q1"):  # a player has no desk
        assert two.client(player).get("/desk/cup/").status_code == 404


def test_the_desk_s_new_evening_takes_the_name_s_slug_another_club_s_private_one_holds(
    two: TwoClubs,
) -> None:
    outsider = two.users["outsider"]
    made = two.client("outsider").post("/desk/new/", evening_form(name="Cup", published=None))
    evening = Tournament.objects.filter(organizer=outsider).get()
    assert evening.slug == "cup", made
    assert made.status_code == 302 and made["Location"].startswith("/desk/cup/")
    status, text = _page(two.client("outsider"), "/desk/cup/")
    assert status == 200 and "Cup of One" not in text and "Cup of Two" not in text
    # and a name whose slug their own club holds gets the next, as ever
    again = two.client("outsider").post(
        "/desk/new/", evening_form(club=str(evening.club_id), name="Cup", published=None)
    )
    assert again.status_code == 302
    assert Tournament.objects.filter(organizer=outsider).order_by("pk").last().slug == "cup-2"


def test_a_published_evening_has_the_address_and_a_private_one_at_it_keeps_its_desk(
    two: TwoClubs,
) -> None:
    competition.tournament_update(actor=two.users["two"], tournament=two.theirs, published=True)
    for who in (None, "outsider", "one", "p1", "two"):  # the published one, to everyone
        status, text = _page(two.client(who), "/t/cup/")
        assert status == 200 and "Cup of Two" in text and "Cup of One" not in text, who
    status, text = _page(two.client("one"), "/desk/cup/")
    assert status == 200 and "Cup of One" in text and "Cup of Two" not in text
    assert 'id="slug-shadowed"' in text and "/t/cup/" in text
    assert two.client("one").get("/desk/cup/webhooks/").status_code == 200
    status, text = _page(two.client("two"), "/desk/cup/")
    assert status == 200 and "Cup of Two" in text and 'id="slug-shadowed"' not in text
    assert tournament_at(two.users["one"], "cup", directing=True) == two.ours
    assert tournament_at(two.users["one"], "cup") == two.theirs
    # the desk's list still leads each director to their own
    home = two.client("one").get("/desk/").content.decode()
    assert 'href="/desk/cup/"' in home


def test_a_user_who_directs_both_finds_the_older_private_one_or_the_published_one(
    two: TwoClubs,
) -> None:
    both = two.users["one"]
    two.theirs.directors.add(both)
    assert tournament_at(both, "cup", directing=True) == two.ours  # the lowest id
    assert tournament_at(both, "cup") == two.ours
    competition.tournament_update(actor=two.users["two"], tournament=two.theirs, published=True)
    assert tournament_at(both, "cup", directing=True) == two.theirs  # the published one
    assert tournament_at(both, "cup") == two.theirs
    assert tournament_at(None, "cup") == two.theirs
    assert tournament_at(two.users["outsider"], "nobody-has-this") is None
