"""The club's page, a member's page and the desk's seasons: what they show, to whom, and
what they refuse (valid HTML, one h1, a label for every field: tests/web/checks.py)."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from competition import services as competition
from competition.models import Registration
from seasons import services
from seasons.models import ClubSeasons, RatingSeeding, Season
from tests.web.checks import check_html

from .conftest import ClubWorld

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(club_world: ClubWorld) -> ClubWorld:
    """Two evenings played, a season over them."""
    first, second = club_world.evening(), club_world.evening()
    club_world.play(first, (0, 1, 2, 3), winner=0)
    club_world.play(first, (4, 5, 6, 7), winner=1)
    club_world.play(second, (0, 2, 1, 3), winner=1)
    services.season_create(
        actor=club_world.director, club=club_world.club, name="Spring",
        starts_on=date(2026, 1, 1), ends_on=date(2026, 6, 30), rule="wins", points=[3],
    )  # fmt: skip
    return club_world


def as_user(user: Any) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_a_private_clubs_pages_are_its_directors_and_members_alone(played: ClubWorld) -> None:
    slug, member = played.club.slug, played.members[0]
    pages = [f"/c/{slug}/", f"/c/{slug}/m/{member.pk}/"]
    stranger = get_user_model().objects.create_user("stranger")
    for page in pages:
        assert as_user(None).get(page).status_code == 404
        assert as_user(stranger).get(page).status_code == 404
        assert as_user(played.director).get(page).status_code == 200
    member.user = get_user_model().objects.create_user("member-a")
    member.save()
    assert as_user(member.user).get(pages[1]).status_code == 200
    ClubSeasons.objects.create(club=played.club, public=True)
    assert all(as_user(None).get(page).status_code == 200 for page in pages)


def test_the_club_page_shows_the_ladder_as_of_an_evening_and_the_ratings(played: ClubWorld) -> None:
    ClubSeasons.objects.create(club=played.club, public=True)
    client, slug = as_user(None), played.club.slug
    season = Season.objects.get()
    page = client.get(f"/c/{slug}/")
    check_html(page.content.decode())
    text = page.content.decode()
    assert "Ladder: Spring" in text and "Member A" in text and "Ratings" in text
    first = client.get(f"/c/{slug}/?season={season.pk}&as_of=2026-01-02").content.decode()
    # as of the first evening A and B have won a match each (A first by name); after the
    # second, B has won two: B leads
    ladder_now, ladder_then = text.split("Ratings")[0], first.split("Ratings")[0]
    assert ladder_then.index("Member A") < ladder_then.index("Member B")
    assert ladder_now.index("Member B") < ladder_now.index("Member A")
    for bad in ("?season=99999999", "?season=abc", "?season=%C2%B2"):
        assert client.get(f"/c/{slug}/{bad}").status_code == 404
    assert client.get(f"/c/{slug}/?as_of=2026-13-45").status_code == 200  # ignored


def test_a_member_page_has_the_chart_the_evenings_the_partners_and_the_results(
    played: ClubWorld,
) -> None:
    ClubSeasons.objects.create(club=played.club, public=True)
    a = played.members[0]
    page = as_user(None).get(f"/c/{played.club.slug}/m/{a.pk}/")
    text = page.content.decode()
    check_html(text)
    assert "<svg" in text and "Rating of Member A after each match" in text
    assert "Member B" in text and "Member C" in text  # partners, one an evening
    assert "Spring" in text  # a place on the ladder
    other = played.club.pk + 1000
    assert as_user(None).get(f"/c/{played.club.slug}/m/{other}/").status_code == 404


def test_a_director_makes_a_season_and_a_bad_one_is_refused_in_words(played: ClubWorld) -> None:
    client, slug = as_user(played.director), played.club.slug
    check_html(client.get(f"/clubs/{slug}/seasons/").content.decode())
    bad = client.post(
        f"/clubs/{slug}/seasons/new/",
        {"name": "Autumn", "starts_on": "2026-09-30", "ends_on": "2026-09-01", "rule": "places",
         "points": "10, 6"},
    )  # fmt: skip
    assert bad.status_code == 422 and "ends on or after" in bad.content.decode()
    junk = client.post(f"/clubs/{slug}/seasons/new/", {"name": "X", "points": "ten"})
    assert junk.status_code == 422
    assert Season.objects.count() == 1
    good = client.post(
        f"/clubs/{slug}/seasons/new/",
        {"name": "Autumn", "starts_on": "2026-09-01", "ends_on": "2026-11-30", "rule": "places",
         "points": "10, 6, 4", "best": "6"},
    )  # fmt: skip
    assert good.status_code == 302
    assert Season.objects.get(name="Autumn").points == [10, 6, 4]
    stranger = as_user(get_user_model().objects.create_user("stranger"))
    assert stranger.get(f"/clubs/{slug}/seasons/").status_code == 404
    assert stranger.post(f"/clubs/{slug}/seasons/public/", {"public": "on"}).status_code == 404
    assert not ClubSeasons.objects.filter(public=True).exists()


def test_the_desk_seeds_an_evening_by_its_members_ratings(played: ClubWorld) -> None:
    evening = played.evening(date(2026, 2, 6))
    for n, (a, b) in enumerate([(0, 1), (2, 3)], start=1):
        competition.team_enter(
            actor=played.director, tournament=evening, name=f"Team {n}",
            people=[played.members[a], played.members[b]], checked_in=True,
        )  # fmt: skip
    stage = competition.stage_create(
        actor=played.director, tournament=evening, name="League", format="round_robin",
        mode="score", match_format={"bazzis": 1},
    )  # fmt: skip
    client = as_user(played.director)
    desk = client.get(f"/desk/{evening.slug}/").content.decode()
    check_html(desk)
    assert "Seed by the members' ratings" in desk
    refused = client.post(f"/desk/{evening.slug}/seed-by-ratings/", {"measure": "loudest"})
    assert refused.status_code == 302 and not RatingSeeding.objects.exists()
    done = client.post(f"/desk/{evening.slug}/seed-by-ratings/", {"measure": "conservative"})
    assert done.status_code == 302
    assert RatingSeeding.objects.get().measure == "conservative"
    assert not Registration.objects.filter(tournament=evening, rating__isnull=True).exists()
    competition.stage_start(actor=played.director, stage=stage)
    first = competition.round_pair(actor=played.director, stage=stage)
    page = client.get(f"/desk/{evening.slug}/rounds/{first.pk}/").content.decode()
    check_html(page)
    assert "The seeds come from the members' ratings" in page
    stranger = as_user(get_user_model().objects.create_user("stranger"))
    assert (
        stranger.post(f"/desk/{evening.slug}/seed-by-ratings/", {"measure": "sum"}).status_code
        == 404
    )


def test_an_unpublished_evening_is_named_and_counted_on_no_club_page_nor_api_answer(
    played: ClubWorld,
) -> None:
    ClubSeasons.objects.create(club=played.club, public=True)
    slug, club, season = played.club.slug, played.club, Season.objects.get()
    people = [m.pk for m in played.members]
    pages = [f"/c/{slug}/", f"/c/{slug}/?season={season.pk}"]
    pages += [f"/c/{slug}/?season={season.pk}&as_of=2026-01-{d:02d}" for d in (9, 16, 23)]
    pages += [f"/c/{slug}/m/{pk}/" for pk in people]
    answers = [f"/api/v1/clubs/{club.pk}/ratings/", f"/api/v1/clubs/{club.pk}/seasons/"]
    answers += [f"/api/v1/seasons/{season.pk}/", f"/api/v1/seasons/{season.pk}/ladder/"]
    answers += [f"/api/v1/members/{pk}/rating/" for pk in people]
    outsider = as_user(get_user_model().objects.create_user("outsider"))

    def ladders() -> list[str]:  # each page's ladder section (the page holds a CSRF token)
        texts = [outsider.get(page).content.decode() for page in pages[:2]]
        return [t.split('id="ladder-heading"')[1].split('id="ratings-heading"')[0] for t in texts]

    before = ladders()
    hidden = played.evening(published=False)
    hidden.name = "Hidden Night"
    hidden.save()
    played.play(hidden, (0, 1, 2, 3), winner=1)  # C and D win it
    assert outsider.get(f"/t/{hidden.slug}/").status_code == 404
    for client in (as_user(None), outsider):
        for url in pages + answers:
            answer = client.get(url)
            assert answer.status_code == 200, url
            text = answer.content.decode()
            assert "Hidden Night" not in text and hidden.slug not in text, url
            assert f'"tournament":{hidden.pk},' not in text.replace(" ", ""), url
    assert ladders() == before  # its results count in no ladder
    # published, it is named and counted as any evening
    hidden.published = True
    hidden.save()
    assert "Hidden Night" in outsider.get(f"/c/{slug}/m/{people[2]}/").content.decode()
    assert ladders() != before
