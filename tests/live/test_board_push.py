"""The director's board pushed (web/push.py's ``t/<slug>/board/``): a director is told at once
that the board changed (a deal entered, a phone heard), where it polled every few seconds;
no one else gets a stream, and a director who is one no more has theirs ended."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.web.conftest import make_club
from tournaments import phones

from .server import database, push_server, reading
from .test_push import end_deal

pytestmark = pytest.mark.django_db(transaction=True)


def _cookie(user: Any) -> dict[str, str]:
    browser = Client()
    browser.force_login(user)
    return {"Cookie": f"sessionid={browser.cookies['sessionid'].value}"}


def test_a_director_is_told_the_board_changed_at_a_deal_and_at_a_phone_heard() -> None:
    club = make_club()
    match = club.matches[0]
    with push_server() as server:
        url = f"{server.url}/push/t/{club.tournament.slug}/board/"
        assert httpx.get(url, timeout=5).status_code in {302, 404}  # no one signed in
        outsider = _cookie(club.users["scorekeeper"])  # keeps score, directs nothing
        assert httpx.get(url, headers=outsider, timeout=5).status_code == 404
        with reading(url, _cookie(club.users["director"])) as board:
            first = board.wait(lambda e: e.kind == "changed")
            assert first is not None
            end_deal(match)
            dealt = board.wait(lambda e: e.kind == "changed" and e.id != first.id)
            assert dealt is not None, board.events
            with database():
                phones.heard(match_id=match.pk, side=0, tournament_id=match.tournament_id)
            heard = board.wait(lambda e: e.kind == "changed" and e.id not in {first.id, dealt.id})
            assert heard is not None, board.events
            # only that it changed: each director fetches the part, with their own token
            assert all("<" not in e.data for e in board.events)


def test_a_director_who_is_one_no_more_has_their_board_stream_ended() -> None:
    club = make_club()
    with database():
        helper = get_user_model().objects.create_user("co-director")
        club.tournament.directors.add(helper)
    with push_server() as server:
        url = f"{server.url}/push/t/{club.tournament.slug}/board/"
        with reading(url, _cookie(helper)) as board:
            assert board.wait(lambda e: e.kind == "changed") is not None
            with database():
                club.tournament.directors.remove(helper)
            end_deal(club.matches[0])  # the next change: their access is asked again
            assert board.wait(lambda e: e.kind == "end") is not None, board.events
            assert board.wait_ended()
            assert [e.kind for e in board.events].count("changed") == 1  # nothing more sent


def test_the_board_page_offers_its_stream_with_live_push_on(settings: Any) -> None:
    club = make_club()
    director = Client()
    director.force_login(club.users["director"])
    page = f"/desk/{club.tournament.slug}/board/"
    settings.LIVE_PUSH = False
    assert b"data-push-url" not in director.get(page).content  # it polls
    settings.LIVE_PUSH = True
    html = director.get(page).content.decode()
    live = html[html.index('id="live"') :][:400]
    assert f'data-push-url="/push/t/{club.tournament.slug}/board/"' in live, live
