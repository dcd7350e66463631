"""A club's quota of live streams (``QUOTA_PUSH_STREAMS``, its ``ClubQuota.push_streams``):
the streams of its tournaments' pages and of the API, together, in one push process; one
more is refused 429 ``quota_exceeded`` with Retry-After, naming the limit, while another
club's streams, and a place given back, go on."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import make_club
from tournaments import quotas
from tournaments.models import Club, ClubQuota, Tournament

from .server import push_server
from .test_push_guard import reading_from, refused

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def nothing_remembered() -> Iterator[None]:
    quotas._remembered.clear()
    quotas._clubs.clear()
    yield
    quotas._remembered.clear()
    quotas._clubs.clear()


def of_club(tournament: Tournament, name: str) -> Club:
    club = Club.objects.create(name=name, slug=name.lower())
    Tournament.objects.filter(pk=tournament.pk).update(club=club)
    return club


def test_a_clubs_streams_past_its_quota_are_refused_and_another_clubs_go_on(
    settings: Any,
) -> None:
    settings.QUOTA_PUSH_STREAMS = 50  # the site's default: this club's own is lower
    ours, theirs = make_club(), make_club(tag="b")
    club = of_club(ours.tournament, "Ours")
    of_club(theirs.tournament, "Theirs")
    ClubQuota.objects.create(club=club, push_streams=2)
    page = f"/push/t/{ours.tournament.slug}/"
    match = f"/push/m/{ours.matches[0].pk}/"
    api = f"/api/v1/tournaments/{ours.tournament.pk}/results/stream/"
    with push_server() as server, contextlib.ExitStack() as held:
        # two streams of two pages, from two addresses: the club's two
        for address, path in (("127.0.0.1", page), ("127.0.0.2", match)):
            viewer = held.enter_context(reading_from(address, server.url + path))
            assert viewer.response.status_code == 200
        over = refused(server.url + page, "127.0.0.3")
        assert over.status_code == 429 and int(over.headers["Retry-After"]) > 0
        assert "quota of live streams open at once is 2" in over.text
        problem = refused(server.url + api, "127.0.0.4")  # the API's: its problem document
        assert problem.status_code == 429
        assert problem.headers["Content-Type"] == "application/problem+json"
        body = json.loads(problem.content)
        assert body["code"] == "quota_exceeded" and "is 2" in body["detail"]
        # another club's tournament, on the same process: its own count
        with reading_from("127.0.0.5", server.url + f"/push/t/{theirs.tournament.slug}/") as other:
            assert other.response.status_code == 200
        # a stream that ends gives its place back (once the server heard it go)
        held.close()
        deadline = time.monotonic() + 5
        while True:
            with reading_from("127.0.0.6", server.url + page) as again:
                if again.response.status_code == 200:
                    break
            assert time.monotonic() < deadline, "the closed streams kept their places"
            time.sleep(0.05)
