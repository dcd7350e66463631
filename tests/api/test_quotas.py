"""Quotas per club (tournaments.quotas): each kind, under its limit, works; at it, the next
row is refused in words naming the limit (409 ``quota_exceeded``; the rate 429 with
Retry-After), nothing written, another club not held back; over the API and on the desk
alike. The club's own quota (``ClubQuota``, the operator's) wins over the site's default."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify

from api.models import ApiToken, Webhook
from tournaments import quotas
from tournaments.models import QUOTA_MOST, Club, ClubQuota, Player, Team, Tournament

from .conftest import Clubs
from .test_errors import assert_problem

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def nothing_remembered() -> Iterator[None]:
    """Each test reads its limits afresh (a process remembers them for a while)."""
    quotas._remembered.clear()
    quotas._clubs.clear()
    yield
    quotas._remembered.clear()
    quotas._clubs.clear()


def set_quota(club: Club, **limits: int) -> None:
    ClubQuota.objects.update_or_create(club=club, defaults=limits)


def refused_for(response: Any, status: int, quota: str, limit: int) -> dict[str, Any]:
    """The problem of a refusal by the quota ``quota`` of ``limit``: named, in words too."""
    body = assert_problem(response, status, "quota_exceeded")
    assert body["title"] == "Quota exceeded"
    assert body["quota"] == quota and body["limit"] == limit, body
    assert f"quota of {quotas.KINDS[quota][1]} is {limit}" in body["detail"], body["detail"]
    return body


def make_tournament(scene: Clubs, club: Club, name: str, who: str = "asha") -> Any:
    body = {"name": name, "slug": slugify(name), "club": club.pk}
    return scene.client(who).post("/api/v1/tournaments/", body, format="json")


def test_tournaments_a_month_are_counted_in_the_clubs_time_zone(scene: Clubs) -> None:
    club = scene.one
    Club.objects.filter(pk=club.pk).update(time_zone="Asia/Kolkata")  # UTC+5:30
    club.refresh_from_db()
    set_quota(club, tournaments_per_month=3)
    start = quotas.month_start(club)  # this month's first midnight in Kolkata
    assert start.utcoffset() == datetime.timedelta(hours=5, minutes=30)
    this = make_tournament(scene, club, "Just after midnight")
    last = make_tournament(scene, club, "Just before midnight")
    assert this.status_code == last.status_code == 201
    # in UTC both were made the month before (18:31 and 18:29 the day before): in Kolkata
    # only the second was
    Tournament.objects.filter(pk=this.json()["id"]).update(
        created_at=start + datetime.timedelta(minutes=1)
    )
    Tournament.objects.filter(pk=last.json()["id"]).update(
        created_at=start - datetime.timedelta(minutes=1)
    )
    # the Cup (now) and "just after midnight": 2 of 3
    assert make_tournament(scene, club, "Third").status_code == 201
    held = Tournament.objects.count()
    body = refused_for(make_tournament(scene, club, "Fourth"), 409, "tournaments_per_month", 3)
    assert body["detail"].startswith("this club's quota of tournaments made this month is 3")
    assert "it holds 3" in body["detail"]
    assert Tournament.objects.count() == held  # nothing written
    # another club is not held back
    assert make_tournament(scene, scene.two, "Theirs", who="ravi").status_code == 201


def test_the_sites_default_applies_where_the_club_set_none(scene: Clubs, settings: Any) -> None:
    settings.QUOTA_TOURNAMENTS_PER_MONTH = 1  # the Cup holds it
    refused_for(make_tournament(scene, scene.one, "Second"), 409, "tournaments_per_month", 1)
    set_quota(scene.one, members=10)  # a quota of the club's own, this one not set: the default
    refused_for(make_tournament(scene, scene.one, "Second"), 409, "tournaments_per_month", 1)
    set_quota(scene.one, tournaments_per_month=2)
    assert make_tournament(scene, scene.one, "Second").status_code == 201


def enter(scene: Clubs, name: str, players: list[dict[str, Any]]) -> Any:
    return scene.client("asha").post(
        f"/api/v1/tournaments/{scene.cup.pk}/teams/",
        {"name": name, "players": players},
        format="json",
    )


def test_teams_a_tournament_past_the_quota_are_refused_and_no_member_is_made(
    scene: Clubs,
) -> None:
    set_quota(scene.one, teams_per_tournament=2)
    m = scene.members
    first = enter(scene, "Aces", [{"member": m["bina"].pk}, {"member": m["chetan"].pk}])
    second = enter(scene, "Kings", [{"member": m["dev"].pk}, {"name": "Farah"}])
    assert first.status_code == second.status_code == 201
    members = Player.objects.filter(club=scene.one).count()
    third = enter(scene, "Jacks", [{"name": "Gita"}, {"name": "Hari"}])
    body = refused_for(third, 409, "teams_per_tournament", 2)
    assert "it holds 2" in body["detail"]
    # all or nothing: no team, and not the two members it named either
    assert Team.objects.filter(tournament=scene.cup).count() == 2
    assert Player.objects.filter(club=scene.one).count() == members


def test_members_past_the_quota_are_refused_on_the_api_and_the_desk(scene: Clubs) -> None:
    set_quota(scene.one, members=4)  # Bina, Chetan and Dev
    url = f"/api/v1/clubs/{scene.one.pk}/members/"
    assert scene.client("asha").post(url, {"name": "Esha"}, format="json").status_code == 201
    refused_for(scene.client("asha").post(url, {"name": "Farah"}, format="json"), 409, "members", 4)
    # the desk answers the same status, and says why in its usual words
    desk = Client()  # a browser's form
    desk.force_login(scene.users["asha"])
    page = desk.post(reverse("web:club-member-new", args=[scene.one.slug]), {"name": "Farah"})
    text = page.content.decode()
    assert page.status_code == 409, text
    assert "quota of members is 4, and it holds 4" in text
    assert not Player.objects.filter(name="Farah").exists()
    # a team typed with a new name makes a member too: refused the same way
    team = enter(scene, "Aces", [{"member": scene.members["bina"].pk}, {"name": "Gita"}])
    refused_for(team, 409, "members", 4)
    assert not Team.objects.exists() and Player.objects.filter(club=scene.one).count() == 4
    # the other club's roster is its own
    other = f"/api/v1/clubs/{scene.two.pk}/members/"
    assert scene.client("ravi").post(other, {"name": "Farah"}, format="json").status_code == 201


def subscribe(scene: Clubs, tournament: Tournament, who: str = "asha") -> Any:
    body = {
        "tournament": tournament.pk,
        "url": "http://127.0.0.1:9/hook",
        "kinds": ["match.completed"],
    }
    return scene.client(who).post("/api/v1/webhooks/", body, format="json")


def test_webhooks_are_counted_over_all_the_clubs_tournaments(scene: Clubs, settings: Any) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE_NETWORKS = True
    settings.QUOTA_WEBHOOKS = 2  # the site's default: no quota of the club's own
    other_evening = make_tournament(scene, scene.one, "Monday").json()
    monday = Tournament.objects.get(pk=other_evening["id"])
    assert subscribe(scene, scene.cup).status_code == 201
    assert subscribe(scene, monday).status_code == 201
    body = refused_for(subscribe(scene, scene.cup), 409, "webhooks", 2)
    assert "it holds 2" in body["detail"]
    assert Webhook.objects.count() == 2
    theirs = make_tournament(scene, scene.two, "Theirs", who="ravi").json()
    assert subscribe(scene, Tournament.objects.get(pk=theirs["id"]), "ravi").status_code == 201


def test_tokens_of_the_club_and_its_tournaments_are_counted_together(scene: Clubs) -> None:
    set_quota(scene.one, tokens=4)  # club_write, club_read and cup_write: 3
    asha = scene.client("asha")
    made = asha.post("/api/v1/tokens/", {"name": "bot", "club": scene.one.pk}, format="json")
    assert made.status_code == 201
    held = ApiToken.objects.count()
    for scope in ({"club": scene.one.pk}, {"tournament": scene.cup.pk}):
        answer = asha.post("/api/v1/tokens/", {"name": "more", **scope}, format="json")
        refused_for(answer, 409, "tokens", 4)
    assert ApiToken.objects.count() == held
    # an expired token frees its place; another club's tokens are its own
    ApiToken.objects.filter(pk=made.json()["id"]).update(
        expiry=timezone.now() - datetime.timedelta(seconds=1)
    )
    again = asha.post("/api/v1/tokens/", {"name": "bot2", "club": scene.one.pk}, format="json")
    assert again.status_code == 201
    ravi = scene.client("ravi")
    assert (
        ravi.post("/api/v1/tokens/", {"name": "x", "club": scene.two.pk}, format="json").status_code
        == 201
    )


def test_the_api_rate_is_the_clubs_tokens_together_then_429_with_retry_after(
    scene: Clubs, fresh_cache: None
) -> None:
    set_quota(scene.one, api_rate=3)
    url = f"/api/v1/tournaments/{scene.cup.pk}/"
    codes = [
        scene.client(token=token).get(url).status_code
        for token in ("club_write", "club_read", "cup_write")
    ]
    assert codes == [200, 200, 200]  # three tokens, one count: the club's
    over = scene.client(token="club_read").get(url)
    body = refused_for(over, 429, "api_rate", 3)
    assert 1 <= int(over["Retry-After"]) <= 60
    assert f"try again in {over['Retry-After']} s" in body["detail"]
    # the other club's tokens are counted apart; a browser session is not a token
    assert scene.client(token="two_write").get(f"/api/v1/clubs/{scene.two.pk}/").status_code == 200
    assert scene.client("asha").get(url).status_code == 200


def test_the_clubs_desk_shows_what_it_holds_of_each_quota(scene: Clubs, settings: Any) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE_NETWORKS = True
    set_quota(scene.one, members=40, tokens=7)
    assert subscribe(scene, scene.cup).status_code == 201
    page = scene.client("asha").get(reverse("web:club-roster", args=[scene.one.slug]))
    assert page.status_code == 200
    rows = {
        str(use.words): (use.used, use.limit)
        for use in page.context["quotas"]  # what the table shows, row by row
    }
    assert rows["members"] == (3, 40)
    assert rows["API tokens"] == (3, 7)
    assert rows["webhooks"] == (1, settings.QUOTA_WEBHOOKS)
    assert rows["tournaments made this month"] == (1, settings.QUOTA_TOURNAMENTS_PER_MONTH)
    assert rows["API requests a minute"] == (None, settings.QUOTA_API_RATE)
    text = page.content.decode()
    assert 'id="quotas"' in text and '<td class="num">40</td>' in text


def test_only_the_operator_sets_a_clubs_quotas_and_a_value_out_of_bounds_is_refused(
    scene: Clubs,
) -> None:
    admin_url = reverse("admin:tournaments_clubquota_add")
    director = scene.users["asha"]
    get_user_model().objects.filter(pk=director.pk).update(is_staff=True)
    staff = Client()
    staff.force_login(director)
    assert staff.get(admin_url).status_code == 403  # a club's director: not theirs
    operator = get_user_model().objects.create_superuser("operator", "op@example.com", "x")
    client = Client()
    client.force_login(operator)
    for value in ("-1", str(QUOTA_MOST + 1)):
        answer = client.post(admin_url, {"club": scene.one.pk, "members": value})
        assert answer.status_code == 200 and answer.context["errors"], value  # shown again
    assert not ClubQuota.objects.exists()
    saved = client.post(admin_url, {"club": scene.one.pk, "members": "7"})
    assert saved.status_code == 302
    assert quotas.limits(scene.one.pk)["members"] == 7
