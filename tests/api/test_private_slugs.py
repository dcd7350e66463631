"""A slug held by a private tournament the caller may not see is answered as a free one is:
the tournament is made (or renamed) with a free slug made from it, the one in the answer, as
when no slug is sent; no refusal tells that a tournament holds it. A slug the caller may see
taken (a published tournament, one of theirs) is refused as before, naming no tournament."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tournaments.models import RESERVED_SLUGS, Tournament

from .conftest import League
from .test_errors import assert_problem

pytestmark = pytest.mark.django_db


def create(client: Any, slug: str) -> Any:
    return client.post("/api/v1/tournaments/", {"name": "Mine", "slug": slug}, format="json")


def shape(response: Any) -> tuple[int, str, list[str]]:
    return response.status_code, response["Content-Type"], sorted(response.json())


def test_making_a_tournament_at_a_private_tournaments_slug_answers_as_a_free_slug(
    league: League,
) -> None:
    outsider = league.client("organizer_a")  # B, "cup-b", is private and not theirs
    held, free = create(outsider, "cup-b"), create(outsider, "cup-c")
    assert shape(held) == shape(free) and held.status_code == 201
    assert free.json()["slug"] == "cup-c"
    assert held.json()["slug"] == "cup-b-2"  # as a name's slug is made when one is taken
    assert Tournament.objects.get(pk=held.json()["id"]).slug == "cup-b-2"
    assert Tournament.objects.get(pk=league.b.pk).slug == "cup-b"  # B keeps its address
    # the same again: the next free one
    assert create(outsider, "cup-b").json()["slug"] == "cup-b-3"


def test_renaming_a_tournament_to_a_private_tournaments_slug_answers_as_a_free_slug(
    league: League,
) -> None:
    director = league.client("organizer_a")
    held = director.patch(f"/api/v1/tournaments/{league.a.pk}/", {"slug": "cup-b"}, format="json")
    assert held.status_code == 200 and held.json()["slug"] == "cup-b-2"
    free = director.patch(f"/api/v1/tournaments/{league.a.pk}/", {"slug": "cup-z"}, format="json")
    assert shape(held) == shape(free) and free.json()["slug"] == "cup-z"
    # its own slug is no clash
    kept = director.patch(f"/api/v1/tournaments/{league.a.pk}/", {"slug": "cup-z"}, format="json")
    assert kept.status_code == 200 and kept.json()["slug"] == "cup-z"


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(slug=st.from_regex(r"[a-z0-9_][a-z0-9_-]{0,60}", fullmatch=True))
def test_whatever_the_slug_a_private_tournament_holding_it_changes_only_the_slug_given(
    league: League, slug: str
) -> None:
    assume(slug not in RESERVED_SLUGS and not slug.startswith(("cup-a", "cup-b")))
    outsider = league.client("organizer_a")
    with transaction.atomic():  # each case from the same start: nothing kept
        free = create(outsider, slug)
        transaction.set_rollback(True)
    with transaction.atomic():
        Tournament.objects.create(name="Hidden", slug=slug, organizer=league.users["organizer_b"])
        held = create(outsider, slug)
        transaction.set_rollback(True)
    assert shape(held) == shape(free) and free.status_code == 201, free.content
    assert free.json()["slug"] == slug and held.json()["slug"] != slug


@pytest.mark.parametrize(("who", "slug"), [("organizer_a", "cup-a"), ("organizer_b", "cup-a"),
                                           ("organizer_b", "cup-b")])  # fmt: skip
def test_a_slug_the_caller_may_see_taken_is_refused_naming_no_tournament(
    league: League, who: str, slug: str
) -> None:
    made = create(league.client(who), slug)  # A is published; B is organizer_b's own
    body = assert_problem(made, 400, "invalid")
    assert body["errors"] == {"slug": [f"the address '{slug}' is taken: choose another"]}
    assert Tournament.objects.filter(slug__startswith=f"{slug}-").count() == 0


def test_a_bad_slug_is_still_a_400_naming_it(league: League) -> None:
    director = league.client("organizer_a")
    for slug in ("not a slug", "x" * 101, "", "\x00"):
        made = director.post("/api/v1/tournaments/", {"name": "M", "slug": slug}, format="json")
        assert_problem(made, 400, "invalid")
