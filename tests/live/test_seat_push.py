"""The seat page's live part pushed (web/push.py's ``play/<id>/``): another seat's move reaches
a seated viewer at once; each seat's stream shows its own hand and never a card of another
seat's, rendered for that seat and sent with the viewer's own form; only the browser that
holds the seat gets its stream, and only while it holds it."""

from __future__ import annotations

import html
import json
import random
import re
from typing import Any

import httpx
import pytest
from django.test import Client, TestCase
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import live
import seep_core as sc
from competition import demo
from live.frames import apply_patch
from tests.web.conftest import Club, make_club
from tests.web.test_seat import (
    assert_hides_the_others,
    hands_now,
    offered_moves,
    play,
    seat_user_of,
    shows_a_card,
)
from tournaments import links
from tournaments.models import MatchEvent
from tournaments.selectors import match_state
from web import push
from web.moves import key

from .server import Event, Reader, database, push_server, reading
from .test_push import Screen

pytestmark = pytest.mark.django_db(transaction=True)

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]*)"')
CLIENT_ID = re.compile(r'name="client_id" value="([^"]*)"')


def seated(club: Club, seat: int) -> Client:
    """A browser signed in as the player at ``seat`` of the club's digital match, with the
    seat page loaded (its CSRF cookie set)."""
    browser = Client()
    browser.force_login(club.users[seat_user_of(club.digital, seat)])
    with database():
        assert browser.get(f"/play/{club.digital.pk}/").status_code == 200
    return browser


def linked(club: Club, side: int, seat: int | None = None) -> Client:
    """A browser holding the team link of ``side`` of the digital match, which said it is the
    player at ``seat`` (None: it has not said)."""
    match = club.digital
    team = (match.team0, match.team1)[side]
    browser = Client()
    with database():
        _, link_key = links.team_link(actor=club.users["director"], team=team)
        assert browser.get(f"/l/{link_key}/").status_code == 302
        if seat is not None:
            assert browser.post(f"/play/{match.pk}/seat/", {"seat": seat}).status_code == 302
    return browser


def cookies(browser: Client) -> dict[str, str]:
    return {"Cookie": "; ".join(f"{name}={c.value}" for name, c in browser.cookies.items())}


def own_form(part: str) -> str:
    """``part`` without its form's CSRF token and client id (each viewer's own)."""
    return CLIENT_ID.sub('name="client_id" value=""', CSRF.sub('name="csrfmiddlewaretoken"', part))


def polled(browser: Client, pk: int) -> str:
    """The seat's live part as the browser's poll gets it now."""
    with database():
        answer = browser.get(f"/play/{pk}/live/")
    assert answer.status_code == 200
    return answer.content.decode()


def showing(screen: Screen, browser: Client, pk: int) -> Any:
    """A test of a stream's events: the screen shows the part the browser's poll shows now
    (the form's own values aside)."""
    want = own_form(polled(browser, pk))
    seen: set[int] = set()

    def test(event: Event) -> bool:
        if id(event) not in seen:
            seen.add(id(event))
            screen.take(event)
        return screen.text is not None and own_form(screen.text) == want

    return test


def stream_url(server: Any, pk: int) -> str:
    return f"{server.url}/push/play/{pk}/"


def test_the_seat_page_offers_its_stream_only_with_live_push_on(settings: Any) -> None:
    club = make_club()
    pk = club.digital.pk
    player = seated(club, 0)
    settings.LIVE_PUSH = False
    assert b"data-push-url" not in player.get(f"/play/{pk}/").content
    settings.LIVE_PUSH, settings.LIVE_PUSH_ORIGIN = True, ""
    assert f'data-push-url="/push/play/{pk}/"' in player.get(f"/play/{pk}/").content.decode()


def test_a_move_by_another_seat_is_pushed_to_a_seated_viewer() -> None:
    club = make_club()
    match = club.digital
    deal = match_state(match).deal
    assert deal is not None and deal.to_play is not None
    mover = seated(club, deal.to_play)
    watching = (deal.to_play + 1) % 4
    watcher = seated(club, watching)
    with push_server() as server, reading(stream_url(server, match.pk), cookies(watcher)) as seat:
        screen = Screen()
        assert seat.wait(showing(screen, watcher, match.pk)), seat.events
        before = screen.text
        with database():
            assert play(mover, match, key(sc.legal_moves(deal)[0])).status_code == 302
        # the move, as the watcher's poll would now show it, without a poll
        assert seat.wait(showing(screen, watcher, match.pk)), seat.events[-3:]
        assert screen.text != before
        assert [e.kind for e in seat.events].count("part") == 1  # then patches
        assert_hides_the_others(screen.text or "", match, watching)


def _check_step(readers: list[Reader], checked: list[int], club: Club) -> None:
    """Every event each seat's stream sent since the last step, and what its screen shows,
    hold its own hand and no card of another seat's (as the hands stand now)."""
    match = club.digital
    for seat, reader in enumerate(readers):
        for event in reader.events[checked[seat] :]:
            assert_hides_the_others(event.data, match, seat)
        checked[seat] = len(reader.events)


def test_each_seats_stream_shows_its_own_hand_and_never_another_seats() -> None:
    """Exhaustive over the four seats, through a run of moves chosen at random among those
    offered: every event of every seat's stream, and the part it adds up to, checked."""
    club = make_club()
    match = club.digital
    browsers = [seated(club, seat) for seat in range(4)]
    rng = random.Random(5)
    with (
        push_server() as server,
        reading(stream_url(server, match.pk), cookies(browsers[0])) as s0,
        reading(stream_url(server, match.pk), cookies(browsers[1])) as s1,
        reading(stream_url(server, match.pk), cookies(browsers[2])) as s2,
        reading(stream_url(server, match.pk), cookies(browsers[3])) as s3,
    ):
        readers, screens, checked = [s0, s1, s2, s3], [Screen() for _ in range(4)], [0] * 4
        for step in range(10):
            for seat, reader in enumerate(readers):
                assert reader.wait(showing(screens[seat], browsers[seat], match.pk)), (
                    step,
                    seat,
                    reader.events[-2:],
                )
            _check_step(readers, checked, club)
            hands = hands_now(match)
            state = match_state(match)
            assert state.deal is not None and state.deal.to_play is not None
            for seat, screen in enumerate(screens):
                text = html.unescape(screen.text or "")
                assert_hides_the_others(text, match, seat)
                assert all(shows_a_card(text, card) for card in hands[seat])
                mine = offered_moves(screen.text or "")
                assert bool(mine) == (seat == state.deal.to_play)
            move = rng.choice(offered_moves(screens[state.deal.to_play].text or ""))
            with database():
                moved = play(browsers[state.deal.to_play], match, key(move))
            assert moved.status_code == 302, moved.content.decode()[:300]


#: a new tag for each club a hypothesis example makes (they share the test's database)
CLUBS = iter(range(10**6))


@pytest.mark.slow  # four whole deals rendered seat by seat: about a minute
@pytest.mark.django_db  # rolled back: no push server here
@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), moves=st.integers(40, 60))
def test_the_part_rendered_for_a_seat_holds_no_card_of_another_seats_hand(
    seed: int, moves: int
) -> None:
    """What the push process renders for each of the four seats (the whole part and the
    patch from the one before), at every position of a match played at random into its
    second deal: never a card of another seat's hand; the patch makes the whole part."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        club = make_club(tag=f"s{next(CLUBS)}-")
    match = club.digital
    rng = random.Random(seed)
    held: list[tuple[str, str] | None] = [None] * 4
    for _ in range(moves):
        match.refresh_from_db()
        if match.status != "in_progress":
            break
        for seat in range(4):
            got = push.seat_render(match.pk, seat, "en", held[seat])
            assert got is not None
            version, text, frames = got
            if frames is None:  # unchanged for this seat
                continue
            assert_hides_the_others(frames.full.decode(), match, seat)
            assert all(shows_a_card(html.unescape(text), c) for c in hands_now(match)[seat])
            if frames.patch is not None:
                assert_hides_the_others(frames.patch.decode(), match, seat)
                patch = json.loads(
                    "".join(
                        line.removeprefix("data: ")
                        for line in frames.patch.decode().split("\n")
                        if line.startswith("data: ")
                    )
                )
                base = held[seat]
                assert base is not None and patch["base"] == base[0]
                edits = patch["edits"]
                assert "\n".join(apply_patch(base[1].split("\n"), edits)) == text
            held[seat] = (version, text)
        with TestCase.captureOnCommitCallbacks(execute=True):
            demo.play(match, rng, moves=1)


def test_the_pushed_form_is_the_viewers_own_and_plays_a_move() -> None:
    """Two browsers of the player to play (two sessions) are each sent a CSRF token their own
    session accepts and a client id of their own, new with each change."""
    club = make_club()
    match = club.digital
    deal = match_state(match).deal
    assert deal is not None and deal.to_play is not None
    user = club.users[seat_user_of(match, deal.to_play)]
    phones = []
    for _ in range(2):
        phone = Client(enforce_csrf_checks=True)
        phone.force_login(user)
        with database():
            assert phone.get(f"/play/{match.pk}/").status_code == 200
        phones.append(phone)
    with push_server() as server:
        url = stream_url(server, match.pk)
        with reading(url, cookies(phones[0])) as one, reading(url, cookies(phones[1])) as two:
            parts = [r.wait(lambda e: e.kind == "part") for r in (one, two)]
            assert parts[0] is not None and parts[1] is not None
            assert parts[0].id == parts[1].id  # one version of the seat's part for both
            ids = [CLIENT_ID.findall(p.data) for p in parts]  # type: ignore[union-attr]
            assert len(ids[0]) == 1 and ids[0] != ids[1]
            assert push.CSRF_MARK not in parts[0].data and push.CLIENT_MARK not in parts[0].data
            token = CSRF.findall(parts[0].data)[0]
            move = offered_moves(parts[0].data)[0]
            data = {"expected_seq": match.last_seq, "client_id": ids[0][0], "move": key(move)}
            with database():
                refused = phones[0].post(f"/play/{match.pk}/move/", data)
                assert refused.status_code == 403  # no token: the CSRF check holds
                played = phones[0].post(
                    f"/play/{match.pk}/move/", {**data, "csrfmiddlewaretoken": token}
                )
            assert played.status_code == 302
            assert MatchEvent.objects.filter(idempotency_key=f"web-{ids[0][0]}").count() == 1
            after = one.wait(lambda e: e.kind in {"part", "patch"} and e.id != parts[0].id)
            assert after is not None
            screen = Screen()
            screen.take(parts[0])
            screen.take(after)
            assert CLIENT_ID.findall(screen.text or "") != ids[0]  # a new id for a new move


def test_a_stream_for_a_seat_you_do_not_hold_is_refused() -> None:
    club = make_club()
    match = club.digital
    score_match = club.matches[0]
    strangers: list[Client] = [Client()]  # the public
    for who in ("outsider", "director", "scorekeeper", "east1"):  # east1: no seat here
        browser = Client()
        browser.force_login(club.users[who])
        strangers.append(browser)
    strangers.append(linked(club, 0))  # the team's link, before it says which player it is
    with push_server() as server:
        url = stream_url(server, match.pk)
        for browser in strangers:
            assert httpx.get(url, headers=cookies(browser), timeout=5).status_code == 404
        # a seat of a score match, and a match that is not there: no seat stream either
        player = seated(club, 0)
        for pk in (score_match.pk, 999999):
            answer = httpx.get(stream_url(server, pk), headers=cookies(player), timeout=5)
            assert answer.status_code == 404
        assert httpx.post(url, headers=cookies(player), timeout=5).status_code in {403, 405}
        # a link the director reissued: 204, the EventSource stops asking
        phone = linked(club, 1, seat=3)
        with database():
            links.team_link_reissue(actor=club.users["director"], team=match.team1)
        assert httpx.get(url, headers=cookies(phone), timeout=5).status_code == 204


def test_a_team_links_stream_is_the_seat_its_holder_chose() -> None:
    club = make_club()
    match = club.digital
    phone = linked(club, 1, seat=3)
    with push_server() as server, reading(stream_url(server, match.pk), cookies(phone)) as seat:
        part = seat.wait(lambda e: e.kind == "part")
        assert part is not None
        assert_hides_the_others(part.data, match, 3)
        assert all(shows_a_card(html.unescape(part.data), c) for c in hands_now(match)[3])


@pytest.mark.parametrize("loses", ["its link reissued", "signed out"])
def test_a_seat_stream_ends_when_its_browser_loses_the_seat(loses: str) -> None:
    club = make_club()
    match = club.digital
    browser = seated(club, 2) if loses == "signed out" else linked(club, 1, seat=1)
    with push_server() as server, reading(stream_url(server, match.pk), cookies(browser)) as seat:
        assert seat.wait(lambda e: e.kind == "part") is not None
        live.send_now(f"m {match.pk}")  # looked at again: still its seat
        assert seat.wait(lambda e: e.kind == "end", timeout=1.5) is None
        with database():
            if loses == "signed out":
                browser.logout()
            else:
                links.team_link_reissue(actor=club.users["director"], team=match.team1)
        # the next look (a change, or the hub's own every RECHECK_SECONDS) ends the stream
        live.send_now(f"m {match.pk}")
        assert seat.wait(lambda e: e.kind == "end") is not None, seat.events
        assert seat.wait_ended()


def test_a_seated_viewer_in_urdu_is_offered_and_pushed_its_seat_in_urdu(settings: Any) -> None:
    """A seat page in another language than the site's is pushed to in that language: the
    page offers the stream with its language, and after another seat's move the pushed part
    is what the Urdu page's own poll shows."""
    club = make_club()
    match = club.digital
    deal = match_state(match).deal
    assert deal is not None and deal.to_play is not None
    mover = seated(club, deal.to_play)
    watching = (deal.to_play + 1) % 4
    watcher = seated(club, watching)
    watcher.cookies[settings.LANGUAGE_COOKIE_NAME] = "ur"
    settings.LIVE_PUSH, settings.LIVE_PUSH_ORIGIN = True, ""
    with database():
        page = watcher.get(f"/play/{match.pk}/").content.decode()
    assert 'lang="ur"' in page and f'data-push-url="/push/play/{match.pk}/?lang=ur"' in page
    with (
        push_server() as server,
        reading(f"{stream_url(server, match.pk)}?lang=ur", cookies(watcher)) as seat,
    ):
        screen = Screen()
        assert seat.wait(showing(screen, watcher, match.pk)), seat.events
        assert "آپ کے پتے" in (screen.text or "")  # "your hand", in Urdu
        with database():
            assert play(mover, match, key(sc.legal_moves(deal)[0])).status_code == 302
        assert seat.wait(showing(screen, watcher, match.pk)), seat.events[-3:]
        assert_hides_the_others(screen.text or "", match, watching)
