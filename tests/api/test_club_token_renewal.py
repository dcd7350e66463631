"""Club tokens made and renewed without a browser: a club's token that may write makes club
tokens for its club (never a wider one) and renews itself and the tokens it made
(``POST /api/v1/tokens/{id}/renew/``: a new secret and a new expiry, the same token)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.models import ApiToken
from tournaments import clubs

from .conftest import Clubs
from .test_people import problem

pytestmark = pytest.mark.django_db


def renew(client: Any, pk: int, **body: Any) -> Any:
    return client.post(f"/api/v1/tokens/{pk}/renew/", body, format="json")


def test_a_club_token_that_may_write_makes_a_club_token_for_its_club(scene: Clubs) -> None:
    club = scene.client(token="club_write")
    made = club.post(
        "/api/v1/tokens/",
        {"name": "league bot", "club": scene.one.pk, "write": True, "expires_in_days": 366},
        format="json",
    )
    assert made.status_code == 201, made.content
    body = made.json()
    parent = ApiToken.objects.get(name="club_write")
    child = ApiToken.objects.get(pk=body["id"])
    assert (body["club"], body["tournament"], body["write"]) == (scene.one.pk, None, True)
    assert body["made_by"] == parent.pk and child.made_by == parent
    assert child.expiry == parent.expiry  # asked for 366 days: no longer than its maker
    # it works, as a club token of its club
    mine = scene.client()
    mine.credentials(HTTP_AUTHORIZATION=f"Bearer {body['token']}")
    assert mine.get(f"/api/v1/clubs/{scene.one.pk}/").status_code == 200
    # read-only unless asked
    quiet = club.post("/api/v1/tokens/", {"name": "board", "club": scene.one.pk}, format="json")
    assert quiet.status_code == 201 and quiet.json()["write"] is False


def test_a_club_token_makes_no_wider_club_token(scene: Clubs) -> None:
    third = clubs.club_create(actor=scene.users["asha"], name="Sunday club")  # asha directs it
    club = scene.client(token="club_write")
    problem(
        club.post("/api/v1/tokens/", {"name": "x", "club": third.pk}, format="json"),
        403,
        "token_scope",
    )
    problem(  # a club its user does not direct: as one that names none
        club.post("/api/v1/tokens/", {"name": "x", "club": scene.two.pk}, format="json"),
        400,
        "invalid",
    )
    for token, code in (("club_read", "token_read_only"), ("cup_write", "token_scope")):
        refused = scene.client(token=token).post(
            "/api/v1/tokens/", {"name": "x", "club": scene.one.pk}, format="json"
        )
        problem(refused, 403, code)
    assert not ApiToken.objects.filter(name="x").exists()


def test_a_club_token_renews_itself_with_a_new_secret_and_keeps_what_it_made(
    scene: Clubs,
) -> None:
    club = scene.client(token="club_write")
    parent = ApiToken.objects.get(name="club_write")
    child = club.post(
        "/api/v1/tokens/", {"name": "seat", "tournament": scene.cup.pk}, format="json"
    ).json()
    renewed = renew(club, parent.pk, expires_in_days=366)
    assert renewed.status_code == 200, renewed.content
    body = renewed.json()
    assert body["id"] == parent.pk and body["token"] != scene.tokens["club_write"]
    parent.refresh_from_db()
    assert parent.expiry > timezone.now() + timedelta(days=365)
    # the old secret is refused from now on; the new one works
    assert club.get("/api/v1/tokens/").status_code == 401
    new = scene.client()
    new.credentials(HTTP_AUTHORIZATION=f"Bearer {body['token']}")
    assert [t["id"] for t in new.get("/api/v1/tokens/").json()["results"]] == [child["id"]]
    # and renews the token it made, no later than itself
    again = renew(new, child["id"], expires_in_days=366)
    assert again.status_code == 200, again.content
    assert ApiToken.objects.get(pk=child["id"]).expiry == parent.expiry


def test_a_token_renews_nothing_beyond_itself_and_what_it_made(scene: Clubs) -> None:
    club = scene.client(token="club_write")
    for other in ("club_read", "cup_write", "two_write"):  # made by a session, not by it
        problem(renew(club, ApiToken.objects.get(name=other).pk), 404, "not_found")
    own = ApiToken.objects.get(name="club_read").pk
    problem(renew(scene.client(token="club_read"), own), 403, "token_read_only")
    problem(renew(scene.client(token="cup_write"), own), 403, "token_scope")
    problem(renew(club, own, expires_in_days=30, secret="x"), 400, "invalid")  # unknown field


def test_a_session_renews_its_tokens_and_a_team_token_is_made_anew(scene: Clubs) -> None:
    asha = scene.client("asha")
    cup = ApiToken.objects.get(name="cup_write")
    answer = renew(asha, cup.pk, expires_in_days=5)
    assert answer.status_code == 200 and answer.json()["tournament"] == scene.cup.pk
    cup.refresh_from_db()
    assert timezone.now() + timedelta(days=4) < cup.expiry <= timezone.now() + timedelta(days=5)
    problem(renew(asha, ApiToken.objects.get(name="two_write").pk), 404, "not_found")
    problem(renew(scene.client(), cup.pk), 401, "not_authenticated")


def test_a_club_token_is_renewed_only_while_its_user_directs_the_club(scene: Clubs) -> None:
    scene.one.directors.remove(scene.users["asha"])
    token = ApiToken.objects.get(name="club_read")
    expiry = token.expiry
    problem(renew(scene.client("asha"), token.pk), 403, "forbidden")
    token.refresh_from_db()
    assert token.expiry == expiry


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    days=st.one_of(
        st.integers(-5, 400), st.text(alphabet="ab -", max_size=3), st.none(), st.booleans()
    )
)
def test_a_renewal_lasts_1_to_366_days_and_anything_else_is_refused(
    scene: Clubs, days: Any
) -> None:
    token = ApiToken.objects.get(name="cup_write")
    before = (token.digest, token.expiry)
    answer = renew(scene.client("asha"), token.pk, expires_in_days=days)
    token.refresh_from_db()
    if isinstance(days, int) and not isinstance(days, bool) and 1 <= days <= 366:
        assert answer.status_code == 200
        assert token.expiry > timezone.now() + timedelta(days=days - 1)
    else:
        assert answer.status_code == 400 and answer.json()["code"] == "invalid"
        assert (token.digest, token.expiry) == before
