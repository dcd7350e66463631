"""One account cannot multiply its rate limit by minting tokens: at most API_TOKENS_PER_ACCOUNT
unexpired tokens each, and tokens made (or renewed) at most at the ``tokens_made`` rate,
counted by account and by club apart, never by address (429 problem with Retry-After); a
club's evening stays under it. A team's tokens, outside the cap, share one counter of their
maker's."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.throttling import SimpleRateThrottle

from api.models import ApiToken
from tournaments import clubs
from tournaments.models import Player, Team

from .conftest import Clubs, League
from .test_errors import assert_problem

pytestmark = pytest.mark.django_db


def make(client: Any, league: League, name: str = "bot", **extra: Any) -> Any:
    return client.post(
        "/api/v1/tokens/", {"name": name, "tournament": league.a.pk}, format="json", **extra
    )


def test_an_account_holds_at_most_its_cap_of_tokens_then_is_told_to_revoke_one(
    league: League, settings: Any, fresh_cache: None
) -> None:
    settings.API_TOKENS_PER_ACCOUNT = 4
    owner = league.client("organizer_a")  # holds two already (a_write, a_read)
    assert [make(owner, league, f"bot{n}").status_code for n in range(2)] == [201, 201]
    refused = assert_problem(make(owner, league, "one too many"), 409, "too_many_tokens")
    assert refused["detail"] == (
        "an account holds at most 4 tokens, and yours holds 4: revoke one you no longer use "
        "(DELETE /api/v1/tokens/{id}/), then make this one"
    )
    assert ApiToken.objects.filter(user=league.users["organizer_a"]).count() == 4
    # another account is not held back; a revoked (or expired) one frees a place
    assert make(league.client("organizer_b"), league).status_code == 201
    oldest = ApiToken.objects.filter(user=league.users["organizer_a"]).order_by("created")[0]
    assert owner.delete(f"/api/v1/tokens/{oldest.pk}/").status_code == 204
    assert make(owner, league, "in its place").status_code == 201
    ApiToken.objects.filter(pk=ApiToken.objects.filter(name="bot0").get().pk).update(
        expiry=timezone.now() - timedelta(seconds=1)
    )
    assert make(owner, league, "after an expiry").status_code == 201


def test_the_default_cap_is_ten(league: League, fresh_cache: None) -> None:
    owner = league.client("organizer_a")
    codes = [make(owner, league, f"bot{n}").status_code for n in range(9)]
    assert codes == [201] * 8 + [409]  # 2 + 8 = 10


@pytest.fixture
def three_an_hour(fresh_cache: None, settings: Any) -> Any:
    settings.API_TOKENS_PER_ACCOUNT = 100
    rates = {**SimpleRateThrottle.THROTTLE_RATES, "tokens_made": "3/hour"}
    with mock.patch.object(SimpleRateThrottle, "THROTTLE_RATES", rates):
        yield


def test_tokens_are_made_at_most_at_the_rate_by_account(league: League, three_an_hour: Any) -> None:
    owner = league.client("organizer_a")
    codes = [
        make(owner, league, f"bot{n}", REMOTE_ADDR=f"10.0.0.{n}").status_code for n in range(4)
    ]
    assert codes == [201, 201, 201, 429]  # from four addresses: the account's count
    assert_problem(make(owner, league, REMOTE_ADDR="10.0.0.9"), 429, "throttled")
    assert 0 < int(make(owner, league)["Retry-After"]) <= 3600
    assert make(league.client("organizer_b"), league).status_code == 201  # another account
    assert ApiToken.objects.filter(user=league.users["organizer_a"]).count() == 2 + 3


def test_tokens_are_made_at_most_at_the_rate_by_club_and_never_by_address(
    scene: Clubs, three_an_hour: Any
) -> None:
    """Two clubs behind one address (a venue's NAT) do not share a count; one club's
    directors do, whichever account asks."""
    scene.one.directors.add(scene.users["dev"])
    own = clubs.club_create(actor=scene.users["dev"], name="Dev's club")

    def make_for(who: str, club: Any) -> int:
        body = {"name": "bot", "club": club.pk}
        answer = scene.client(who).post("/api/v1/tokens/", body, REMOTE_ADDR="10.0.0.1")
        return int(answer.status_code)

    assert [make_for("asha", scene.one) for _ in range(4)] == [201, 201, 201, 429]
    assert make_for("dev", scene.one) == 429  # another director: the club's count
    assert make_for("dev", own) == 201  # his own club, from the same address
    assert [make_for("ravi", scene.two) for _ in range(3)] == [201] * 3  # the other club
    assert_problem(
        scene.client(token="club_write").post(
            "/api/v1/tokens/", {"name": "no", "club": scene.one.pk}, format="json"
        ),
        429,
        "throttled",
    )  # a club's token is counted with its club (and its account)


def test_a_clubs_evening_is_never_throttled_and_a_runaway_client_is_stopped(
    scene: Clubs, settings: Any, fresh_cache: None
) -> None:
    settings.API_TOKENS_PER_ACCOUNT = 1000  # the rate, not the caps, is what this is about
    settings.QUOTA_TOKENS = 1000  # the club's quota of tokens (tests/api/test_quotas.py)
    figure = settings.API_THROTTLE_TOKENS_MADE_DEFAULT  # production's (the suite's is huge)
    assert figure == "60/hour"
    for doc in ("docs/api.md", "docs/deploy.md"):
        assert f"`{figure}`" in (Path(__file__).parents[2] / doc).read_text(), doc
    rates = {**SimpleRateThrottle.THROTTLE_RATES, "tokens_made": figure}
    venue = {"REMOTE_ADDR": "10.9.9.9", "format": "json"}
    asha = scene.client("asha")
    players = [Player.objects.create(name=f"p{n}") for n in range(30)]
    teams = [
        Team.objects.create(
            tournament=scene.cup, name=f"T{n}", first_player=players[2 * n],
            second_player=players[2 * n + 1],
        )
        for n in range(15)
    ]  # fmt: skip
    with (
        mock.patch.object(SimpleRateThrottle, "THROTTLE_RATES", rates),
        mock.patch("api.throttling.time.time", return_value=1_800_000_000.0 + 10),
    ):
        # the evening: the club's own three tokens, its fifteen teams' (made by its token,
        # no browser), its tokens renewed; the other club at the same venue, its own three
        own = [
            asha.post("/api/v1/tokens/", {"name": n, "club": scene.one.pk, "write": True}, **venue)
            for n in ("desk", "board", "bots")
        ]
        assert [m.status_code for m in own] == [201] * 3
        desk = scene.client()
        desk.credentials(HTTP_AUTHORIZATION=f"Bearer {own[0].json()['token']}")
        made = [desk.post(f"/api/v1/teams/{t.pk}/token/", {}, **venue) for t in teams]
        assert [m.status_code for m in made] == [201] * 15
        mine = [
            desk.post(f"/api/v1/tokens/{m.json()['id']}/renew/", {}, **venue) for m in own[::-1]
        ]
        assert [r.status_code for r in mine] == [404, 404, 200]  # desk made neither other: itself
        renewed = [asha.post(f"/api/v1/tokens/{m.json()['id']}/renew/", {}, **venue) for m in own]
        assert [r.status_code for r in renewed] == [200] * 3
        ravi = scene.client("ravi")
        theirs = [
            ravi.post("/api/v1/tokens/", {"name": n, "club": scene.two.pk}, **venue).status_code
            for n in ("desk", "board", "bots")
        ]
        assert theirs == [201] * 3
        # a runaway loop: the account and the club reach 60 in the hour, then 429
        made_so_far = 3 + 1 + 3  # asha's three, her token's renewal, her three renewals
        loop = [
            asha.post("/api/v1/tokens/", {"name": "loop", "club": scene.one.pk}, **venue)
            for _ in range(60 - made_so_far)
        ]
        assert {m.status_code for m in loop} == {201}
        stopped = asha.post("/api/v1/tokens/", {"name": "loop", "club": scene.one.pk}, **venue)
        assert_problem(stopped, 429, "throttled")
        assert 0 < int(stopped["Retry-After"]) <= 3600
        again = ravi.post("/api/v1/tokens/", {"name": "x", "club": scene.two.pk}, **venue)
        assert again.status_code == 201  # the other club, same address: not stopped


def test_reading_the_tokens_is_not_counted_as_making_them(
    league: League, three_an_hour: Any
) -> None:
    owner = league.client("organizer_a")
    assert {owner.get("/api/v1/tokens/").status_code for _ in range(5)} == {200}
    assert [make(owner, league, f"bot{n}").status_code for n in range(3)] == [201] * 3


def test_team_tokens_share_one_bucket_of_their_maker_so_minting_them_multiplies_nothing(
    league: League, settings: Any, fresh_cache: None
) -> None:
    settings.API_TOKENS_PER_ACCOUNT = 1
    rates = {**SimpleRateThrottle.THROTTLE_RATES, "token": "3/min", "user": "100/min"}
    director = league.client("organizer_a")
    teams = list(league.teams_a)
    for n in range(len(teams), 10):
        two = [Player.objects.create(name=f"p{n}{s}") for s in (0, 1)]
        teams.append(Team.objects.create(
            tournament=league.a, name=f"T{n}", first_player=two[0], second_player=two[1],
        ))  # fmt: skip
    start = 1_800_000_000.0 + 10  # ten seconds into a minute: every request in one window
    with (
        mock.patch.object(SimpleRateThrottle, "THROTTLE_RATES", rates),
        mock.patch("api.throttling.time.time", return_value=start),
    ):
        made = [director.post(f"/api/v1/teams/{t.pk}/token/", {}, format="json") for t in teams]
        assert [m.status_code for m in made] == [201] * 10  # a cap of 1 leaves the evening be
        readers = [league.client() for _ in made]
        for reader, answer in zip(readers, made, strict=True):
            reader.credentials(HTTP_AUTHORIZATION=f"Bearer {answer.json()['token']}")
        reads = [r.get(f"/api/v1/tournaments/{league.a.pk}/").status_code for r in readers]
        # ten tokens, one read each: three in all, the rate of one token
        assert reads == [200] * 3 + [429] * 7
        assert_problem(readers[0].get("/api/v1/tournaments/"), 429, "throttled")
        # the maker's own token and session keep their own counters
        assert league.client(token="a_read").get("/api/v1/tournaments/").status_code == 200
        assert director.get("/api/v1/tournaments/").status_code == 200
        # another account's team token is counted apart
        other = league.client("organizer_b").post(
            f"/api/v1/teams/{league.teams_b[0].pk}/token/", {}, format="json"
        )
        theirs = league.client()
        theirs.credentials(HTTP_AUTHORIZATION=f"Bearer {other.json()['token']}")
        assert theirs.get("/api/v1/tournaments/").status_code == 200


def test_the_account_page_counts_in_the_same_account_and_club(
    scene: Clubs, three_an_hour: Any
) -> None:
    scene.one.directors.add(scene.users["dev"])
    api = scene.client("asha")
    body = {"name": "bot", "club": scene.one.pk}
    assert [api.post("/api/v1/tokens/", body).status_code for _ in range(3)] == [201] * 3
    dev = Client()  # another director of the club, in a browser
    dev.force_login(scene.users["dev"])
    form = {"name": "board", "scope": f"club-{scene.one.pk}", "days": 7}
    page = dev.post("/account/tokens/", form, REMOTE_ADDR="10.0.0.7")  # elsewhere: the club's count
    assert b"Too many tokens made lately" in page.content
    assert not ApiToken.objects.filter(name="board").exists()
