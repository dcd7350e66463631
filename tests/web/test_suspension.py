"""The operator's page lists the clubs with their size and activity and suspends one: its
pages then answer a plain page saying so, its API a problem document (``club_suspended``),
nothing is written, and its data is kept; lifting the suspension opens it as it was."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import TestCase

from tournaments import suspension
from tournaments.errors import ClubNotPermitted
from tournaments.models import Club as ClubRow
from tournaments.models import MatchEvent, Player, Tournament

from .conftest import Club

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_ids() -> Iterator[None]:
    """The suspended clubs' ids a process read: each test reads them first, and leaves none
    known (its database rolls back to none), so no later test's request reads them."""
    suspension.forget_suspended()
    yield
    suspension.know_suspended(frozenset())


def suspend(actor: Any, club: ClubRow, suspended: bool = True) -> None:
    """The operator's service, committed as a request's would be (its on-commit work run)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        suspension.club_suspend(actor=actor, club=club, suspended=suspended)


@pytest.fixture
def chennai(club: Club) -> ClubRow:
    """The evening's club, its director a director of it, its players members of it."""
    row = ClubRow.objects.create(name="Chennai Seep", slug="chennai-seep")
    row.directors.add(club.users["director"])
    Tournament.objects.filter(pk=club.tournament.pk).update(club=row)
    Player.objects.update(club=row)
    return row


@pytest.fixture
def operator() -> Any:
    return get_user_model().objects.create_superuser("operator", password=None)


def pages(club: Club, row: ClubRow) -> list[tuple[str, str | None]]:
    """Addresses of the club's, each with who asks."""
    slug, match = club.tournament.slug, club.matches[0].pk
    return [
        (f"/t/{slug}/", None),
        (f"/t/{slug}/live/", None),
        (f"/m/{match}/", None),
        (f"/c/{row.slug}/", "director"),
        (f"/desk/{slug}/", "director"),
        (f"/clubs/{row.slug}/members/", "director"),
        (f"/keep/{match}/", "scorekeeper"),
    ]


def apis(club: Club, row: ClubRow) -> list[str]:
    return [
        f"/api/v1/tournaments/{club.tournament.pk}/",
        f"/api/v1/stages/{club.stage.pk}/",
        f"/api/v1/rounds/{club.round.pk}/",
        f"/api/v1/matches/{club.matches[0].pk}/events/",
        f"/api/v1/clubs/{row.pk}/",
    ]


def test_a_suspended_clubs_pages_and_api_say_so_and_its_data_is_kept(
    club: Club, chennai: ClubRow, operator: Any
) -> None:
    for path, who in pages(club, chennai):
        assert club.client(who).get(path).status_code == 200, path
    events = MatchEvent.objects.count()
    suspend(operator, chennai)
    for path, who in pages(club, chennai):
        answer = club.client(who).get(path)
        assert answer.status_code == 403, path
        assert answer["Content-Type"].startswith("text/html")
        assert "Chennai Seep is suspended by the site&#x27;s operator" in answer.content.decode()
    director = club.client("director")
    for path in apis(club, chennai):
        answer = director.get(path)
        assert answer.status_code == 403, path
        assert answer["Content-Type"] == "application/problem+json"
        assert answer.json()["code"] == "club_suspended"
    match = club.matches[0]
    posted = club.client("scorekeeper").post(
        f"/api/v1/matches/{match.pk}/events/",
        {"expected_seq": match.last_seq, "kind": "deal_started", "payload": {}},
        content_type="application/json",
    )
    assert posted.status_code == 403 and posted.json()["code"] == "club_suspended"
    assert MatchEvent.objects.count() == events  # nothing written, nothing removed
    assert ClubRow.objects.get(pk=chennai.pk).directors.count() == 1
    # lifted: as before
    suspend(operator, chennai, suspended=False)
    for path, who in pages(club, chennai):
        assert club.client(who).get(path).status_code == 200, path
    assert director.get(apis(club, chennai)[0]).status_code == 200


def test_another_clubs_pages_answer_as_before(club: Club, chennai: ClubRow, operator: Any) -> None:
    other = ClubRow.objects.create(name="Delhi Seep", slug="delhi-seep")
    other.directors.add(club.users["outsider"])
    suspend(operator, other)
    for path, who in pages(club, chennai):
        assert club.client(who).get(path).status_code == 200, path
    assert club.client("outsider").get("/c/delhi-seep/").status_code == 403
    # to someone who may not know of it, a club that never published anything is absent
    assert club.client("director").get("/c/delhi-seep/").status_code == 404
    absent = club.client("director").get(f"/api/v1/clubs/{other.pk}/")
    assert absent.status_code == 404 and absent.json()["code"] == "not_found"


def test_the_operators_page_lists_the_clubs_and_suspends_one(
    club: Club, chennai: ClubRow, operator: Any
) -> None:
    client = club.client()
    client.force_login(operator)
    page = client.get("/operator/").content.decode()
    row = page.split(f'id="club-{chennai.pk}"', 1)[1].split("</tr>", 1)[0]
    members = Player.objects.filter(club=chennai).count()
    matches = club.tournament.matches.count()
    cells = [c.split(">", 1)[1].split("<", 1)[0] for c in row.split('<td class="num"')[1:]]
    assert cells == [str(members), "1", str(matches)]
    assert "never" not in row  # the digital match's moves were recorded
    answer = client.post(f"/operator/clubs/{chennai.pk}/suspend/", {"suspend": "yes"})
    assert answer.status_code == 302
    assert ClubRow.objects.get(pk=chennai.pk).suspended
    assert "Lift the suspension of Chennai Seep" in client.get("/operator/").content.decode()
    client.post(f"/operator/clubs/{chennai.pk}/suspend/", {"suspend": "no"})
    assert not ClubRow.objects.get(pk=chennai.pk).suspended


def test_only_the_operator_sees_the_page_or_suspends(club: Club, chennai: ClubRow) -> None:
    director = club.client("director")
    assert director.get("/operator/").status_code == 404
    assert (
        director.post(f"/operator/clubs/{chennai.pk}/suspend/", {"suspend": "yes"}).status_code
        == 404
    )
    assert not ClubRow.objects.get(pk=chennai.pk).suspended
    with pytest.raises(ClubNotPermitted):
        suspend(club.users["director"], chennai)


def test_a_suspended_club_makes_no_tournament_and_is_left_out_of_the_lists(
    club: Club, chennai: ClubRow, operator: Any
) -> None:
    Tournament.objects.filter(pk=club.tournament.pk).update(published=True)
    director = club.client("director")
    listed = director.get("/api/v1/tournaments/").json()["results"]
    assert club.tournament.pk in [t["id"] for t in listed]
    assert club.tournament.name in club.client().get("/").content.decode()
    suspend(operator, chennai)
    tournaments = Tournament.objects.count()
    made = director.post(
        "/api/v1/tournaments/",
        {"name": "Next evening", "slug": "next-evening", "club": chennai.pk},
        content_type="application/json",
    )
    assert made.status_code == 403, made.content
    assert made["Content-Type"] == "application/problem+json"
    assert made.json()["code"] == "club_suspended"
    assert "Chennai Seep is suspended" in made.json()["detail"]
    assert Tournament.objects.count() == tournaments  # nothing made
    listed = director.get("/api/v1/tournaments/").json()["results"]
    assert club.tournament.pk not in [t["id"] for t in listed]
    assert club.tournament.name not in club.client().get("/").content.decode()
    suspend(operator, chennai, suspended=False)
    listed = director.get("/api/v1/tournaments/").json()["results"]
    assert club.tournament.pk in [t["id"] for t in listed]
