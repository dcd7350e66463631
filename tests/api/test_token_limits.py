"""One account cannot multiply its rate limit by minting tokens: at most API_TOKENS_PER_ACCOUNT
unexpired tokens each, and tokens made at most at the ``tokens_made`` rate, counted by
account and by address apart (429 problem with Retry-After). A team's tokens, outside the cap,
share one counter of their maker's."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.utils import timezone
from rest_framework.throttling import SimpleRateThrottle

from api.models import ApiToken
from tournaments.models import Player, Team

from .conftest import League
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


def test_tokens_are_made_at_most_at_the_rate_by_address(league: League, three_an_hour: Any) -> None:
    codes = [
        make(league.client(who), league, REMOTE_ADDR="10.0.0.1").status_code
        for who in ("organizer_a", "organizer_b", "director_a", "keeper_a")
    ]
    assert codes == [201, 201, 201, 429]  # four accounts, one address
    assert make(league.client("keeper_a"), league, REMOTE_ADDR="10.0.0.2").status_code == 201


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
