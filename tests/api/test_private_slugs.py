"""A slug is the site's once its tournament is published, its club's before (issue 40): asking
for the slug a private tournament of another club holds is answered exactly as asking for a
free one (201, that very slug), so nothing an outsider does tells them it exists. A slug a
published tournament holds, or one of the caller's own club, is refused as before, naming no
tournament; publishing at a slug a published tournament holds is refused too."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from competition import services as competition
from competition.errors import InvalidSettings
from tournaments.models import RESERVED_SLUGS, Tournament

from .conftest import Clubs, League
from .test_errors import assert_problem

pytestmark = pytest.mark.django_db


def create(client: Any, slug: str, **more: Any) -> Any:
    body = {"name": "Mine", "slug": slug, **more}
    return client.post("/api/v1/tournaments/", body, format="json")


def shape(response: Any) -> tuple[int, str, list[str]]:
    return response.status_code, response["Content-Type"], sorted(response.json())


def taken(response: Any, slug: str) -> None:
    body = assert_problem(response, 400, "invalid")
    assert body["errors"] == {"slug": [f"the address '{slug}' is taken: choose another"]}


def test_a_club_s_token_gets_the_very_slug_another_club_s_private_tournament_holds(
    scene: Clubs,
) -> None:
    assert scene.cup.slug == "cup" and not scene.cup.published  # club one's, private
    held = create(scene.client(token="two_write"), "cup")
    free = create(scene.client(token="two_write"), "cup-nobody-has")
    assert shape(held) == shape(free) and held.status_code == 201, held.content
    assert held.json()["slug"] == "cup" and free.json()["slug"] == "cup-nobody-has"
    made = Tournament.objects.get(pk=held.json()["id"])
    assert (made.slug, made.club_id) == ("cup", scene.two.pk)
    assert Tournament.objects.get(pk=scene.cup.pk).slug == "cup"  # club one's keeps it
    # now club two's own: refused to its director, as any slug of their club
    taken(create(scene.client("ravi"), "cup", club=scene.two.pk), "cup")
    third = competition.tournament_create(actor=scene.users["asha"], club=scene.one, name="Z")
    renamed = scene.client(token="two_write").patch(
        f"/api/v1/tournaments/{made.pk}/", {"slug": third.slug}, format="json"
    )
    assert renamed.status_code == 200 and renamed.json()["slug"] == third.slug


def test_a_slug_of_the_caller_s_own_club_is_refused_naming_no_tournament(scene: Clubs) -> None:
    for client in (scene.client(token="club_write"), scene.client("asha")):
        taken(create(client, "cup"), "cup")
    assert Tournament.objects.filter(slug="cup").count() == 1
    assert not Tournament.objects.filter(slug__startswith="cup-").exists()


def test_a_published_tournament_s_slug_is_refused_to_every_club(scene: Clubs) -> None:
    competition.tournament_update(actor=scene.users["asha"], tournament=scene.cup, published=True)
    taken(create(scene.client(token="two_write"), "cup"), "cup")
    taken(create(scene.client(token="two_write"), "cup", published=True), "cup")
    assert list(Tournament.objects.filter(slug="cup").values_list("pk", flat=True)) == [
        scene.cup.pk
    ]


def test_publishing_at_a_slug_a_published_tournament_holds_is_refused_and_changes_nothing(
    scene: Clubs,
) -> None:
    theirs = create(scene.client(token="two_write"), "cup")  # both private: both "cup"
    assert theirs.status_code == 201 and theirs.json()["slug"] == "cup"
    mine = scene.client("asha").patch(
        f"/api/v1/tournaments/{scene.cup.pk}/", {"published": True}, format="json"
    )
    assert mine.status_code == 200 and mine.json()["published"] is True
    second = scene.client(token="two_write").patch(
        f"/api/v1/tournaments/{theirs.json()['id']}/",
        {"published": True, "name": "Renamed"},
        format="json",
    )
    taken(second, "cup")
    kept = Tournament.objects.get(pk=theirs.json()["id"])
    assert (kept.published, kept.name, kept.slug) == (False, "Mine", "cup")
    # with another slug, it is published
    moved = scene.client(token="two_write").patch(
        f"/api/v1/tournaments/{kept.pk}/", {"published": True, "slug": "cup-two"}, format="json"
    )
    assert moved.status_code == 200 and (moved.json()["slug"], moved.json()["published"]) == (
        "cup-two",
        True,
    )


def test_the_service_refuses_publishing_at_a_published_slug_in_the_same_words(
    scene: Clubs,
) -> None:
    theirs = competition.tournament_create(
        actor=scene.users["ravi"], club=scene.two, name="Other", slug="cup"
    )
    competition.tournament_update(actor=scene.users["asha"], tournament=scene.cup, published=True)
    with pytest.raises(InvalidSettings) as refused:
        competition.tournament_update(actor=scene.users["ravi"], tournament=theirs, published=True)
    assert refused.value.fields == {"slug": ["the address 'cup' is taken: choose another"]}
    assert Tournament.objects.get(pk=theirs.pk).published is False


def test_a_clubless_private_tournament_s_slug_is_free_to_a_club_and_then_that_club_s(
    league: League,
) -> None:
    director = league.client("organizer_a")  # B, "cup-b", is private and not theirs
    made = create(director, "cup-b")
    free = create(director, "cup-c")
    assert shape(made) == shape(free) and made.status_code == 201
    assert (made.json()["slug"], free.json()["slug"]) == ("cup-b", "cup-c")
    renamed = director.patch(
        f"/api/v1/tournaments/{free.json()['id']}/", {"slug": "cup-b"}, format="json"
    )
    taken(renamed, "cup-b")  # "cup-b" is now a tournament of its own club's
    kept = director.patch(
        f"/api/v1/tournaments/{made.json()['id']}/", {"slug": "cup-b"}, format="json"
    )
    assert kept.status_code == 200 and kept.json()["slug"] == "cup-b"  # its own: no clash


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(slug=st.from_regex(r"[a-z0-9_][a-z0-9_-]{0,60}", fullmatch=True))
def test_whatever_the_slug_a_private_tournament_holding_it_changes_nothing_of_the_answer(
    league: League, slug: str
) -> None:
    assume(slug not in RESERVED_SLUGS and slug not in ("cup-a", "cup-b"))
    outsider = league.client("organizer_a")
    with transaction.atomic():  # each case from the same start: nothing kept
        free = create(outsider, slug)
        transaction.set_rollback(True)
    with transaction.atomic():
        Tournament.objects.create(name="Hidden", slug=slug, organizer=league.users["organizer_b"])
        held = create(outsider, slug)
        transaction.set_rollback(True)
    assert shape(held) == shape(free) and free.status_code == 201, free.content
    assert free.json()["slug"] == held.json()["slug"] == slug


def test_a_bad_slug_is_still_a_400_naming_it(league: League) -> None:
    director = league.client("organizer_a")
    for slug in ("not a slug", "x" * 101, "", "\x00", "new"):
        made = director.post("/api/v1/tournaments/", {"name": "M", "slug": slug}, format="json")
        assert_problem(made, 400, "invalid")
