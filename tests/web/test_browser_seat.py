"""A digital deal played in a real browser (Debian's Chromium): four phones, each a player at
their own seat page (two signed in with their accounts, two through their team's link and
"I am ..."), each choosing one of the moves offered at random (seeded), until the deal is
scored; the log's score is the engine's for those moves, and no answer any phone received
(page, live part, post) ever held a card of another seat's hand."""

from __future__ import annotations

import html
import json
import random
from typing import Any

import pytest

import seep_core as sc
from tournaments import links, matchlog
from tournaments.access import SYSTEM
from tournaments.models import Match, MatchEvent
from tournaments.selectors import match_state
from tournaments.services import match_append_event, match_create

from .browser import (
    PHONE,
    SHOTS,
    Browser,
    Page,
    database,
    signed_in,
)
from .browser import (
    checked as laid_out,
)
from .checks import check_html
from .conftest import Club, make_club
from .test_seat import shows_a_card

pytestmark = pytest.mark.django_db(transaction=True)

SEED = 29
BUTTONS = "#live button[name=move]"


@pytest.fixture
def table(transactional_db: None) -> tuple[Club, Match]:
    """The club, and a digital match of its last two teams, dealt and waiting for its bid."""
    with database():
        club = make_club()
        teams = list(club.tournament.teams.order_by("pk"))
        match = match_create(
            tournament=club.tournament, team0=teams[2], team1=teams[3], mode="digital",
            match_format={"bazzis": 1, "deal_cap": 1, "draws": False},
        )  # fmt: skip
        match_append_event(
            match=match, expected_seq=0, kind=matchlog.MATCH_STARTED,
            payload={"first_dealer": 0}, actor=SYSTEM,
            shuffle=matchlog.repeatable_decks(random.Random(SEED)),
        )  # fmt: skip
        match.refresh_from_db()
    return club, match


class Leaks:
    """Every answer a phone receives from the site (pages, live parts, posts: each read as
    the browser reports it), checked against the hands of the other seats as they stand."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self.found: list[str] = []
        self.checked: set[tuple[int | None, str]] = set()  # (seat, what): page, live, move
        self.saw_own: set[int] = set()
        self.unread: list[str] = []  # answers whose body the browser no longer had
        # a poll's answer still on its way when its page went on to the next (a move posted):
        # the browser drops it unread, and the page never shows it
        self.dropped: list[str] = []

    def watch(self, context: Any, base: str, seat: list[int | None]) -> None:
        def arrived(response: Any) -> None:
            url = response.url
            if not url.startswith(base) or "/static/" in url or 300 <= response.status < 400:
                return
            kind = response.headers.get("content-type", "")
            try:
                body = response.text()
            except Exception as exc:
                dropped = url.endswith("/live/") and "navigated away" in str(exc)
                (self.dropped if dropped else self.unread).append(f"{url}: {exc}")
                return
            if "json" in kind:  # read as the page reads it (no escapes)
                self.check(url, json.dumps(json.loads(body), ensure_ascii=False), seat[0])
            elif "html" in kind:
                self.check(url, html.unescape(body), seat[0])

        context.on("response", arrived)

    def check(self, url: str, text: str, seat: int | None) -> None:
        with database():
            deal = match_state(self.match).deal
        if deal is None:
            return
        what = url.rstrip("/").rsplit("/", 1)[-1]
        self.checked.add((seat, what if what in ("live", "move") else "page"))
        if seat is not None and any(shows_a_card(text, c) for c in deal.hand(seat)):
            self.saw_own.add(seat)  # the reading finds cards where there are some
        for other in range(4):
            if other == seat:
                continue
            leaked = [c for c in deal.hand(other) if shows_a_card(text, c)]
            if leaked:
                self.found.append(f"{url} (seat {seat}) shows seat {other}'s {leaked}")


def poll_now(page: Page) -> None:
    """Have the page's live part ask at once (live.js polls on a visibility change too)."""
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")


def offered(page: Page) -> list[str]:
    keys: list[str] = page.eval_on_selector_all(BUTTONS, "bs => bs.map(b => b.value)")
    return keys


def wait_for_turn(page: Page, head: int) -> None:
    """Wait until the page shows the log at ``head`` with moves offered (a poll brings it)."""
    script = (
        "head => { const s = document.querySelector('#live [name=expected_seq]');"
        " return s && s.value === String(head) &&"
        f" document.querySelectorAll('{BUTTONS}').length > 0; }}"
    )
    for _ in range(20):
        poll_now(page)
        try:
            page.wait_for_function(script, arg=head, timeout=1_500)
            return
        except Exception:
            continue
    raise AssertionError(f"{page.url} never offered the moves at seq {head}")


def checked(page: Page, name: str) -> None:
    laid_out(page, f"seat-{name}")
    check_html(page.content())


def test_four_phones_play_a_whole_deal_through_their_seat_pages(
    browser: Browser, live_server: Any, table: tuple[Club, Match], contexts: list[Any]
) -> None:
    club, match = table
    base = live_server.url
    SHOTS.mkdir(parents=True, exist_ok=True)
    leaks = Leaks(match)
    with database():
        players = [p.user.username for p in match.seat_players()]
        _, link_key = links.team_link(actor=club.users["director"], team=match.team1)
        names = [p.name for p in match.seat_players()]
    phones: dict[int, Page] = {}
    for seat in (0, 2):  # team0's players, signed in with their accounts
        known: list[int | None] = [seat]
        page = signed_in(contexts, browser, base, None, PHONE)
        leaks.watch(page.context, base, known)
        page.goto(f"{base}/login/")
        page.get_by_label("User name").fill(players[seat])
        page.get_by_label("Password").fill(players[seat])
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_load_state()
        page.goto(f"{base}/play/{match.pk}/")
        phones[seat] = page
    for seat in (1, 3):  # team1's: no account, the team's link, then "I am ..."
        unknown: list[int | None] = [None]
        page = signed_in(contexts, browser, base, None, PHONE)
        leaks.watch(page.context, base, unknown)
        page.goto(f"{base}/l/{link_key}/")
        page.goto(f"{base}/play/{match.pk}/")
        if seat == 1:
            checked(page, "choose-390")
        unknown[0] = seat  # what answers the choice is that seat's page
        page.get_by_role("button", name=f"I am {names[seat]}").click()
        page.wait_for_url(f"**/play/{match.pk}/")
        phones[seat] = page

    rng = random.Random(SEED)
    played: list[dict[str, Any]] = []
    first: sc.Deal | None = None
    shot = False
    while True:
        with database():
            match.refresh_from_db()
            state = match_state(match)
            ended = MatchEvent.objects.filter(match=match, kind=matchlog.DEAL_ENDED).exists()
        if ended:
            break
        deal = state.deal
        assert isinstance(deal, sc.Deal) and deal.to_play is not None
        if deal.phase == "bid":
            first, played = deal, []  # a new deal (the first, or after a redeal under B2)
        page = phones[deal.to_play]
        wait_for_turn(page, match.last_seq)
        keys = offered(page)
        assert sorted(keys) == sorted(map(_key, sc.legal_moves(deal)))
        choice = rng.randrange(len(keys))
        button = page.locator(BUTTONS).nth(choice)
        holder = button.locator("xpath=ancestor::details[1]")
        if holder.count():
            holder.locator("summary").click()  # the card, then what it does
            if not shot and deal.phase == "play":
                checked(page, "play-390")
                shot = True
        moved = page.expect_response(lambda r: r.url.endswith("/move/"))
        with page.expect_event("load"), moved as answer:  # then keeper.js loads the page again
            button.click()
        assert answer.value.status == 200, answer.value.text()
        played.append(json.loads(keys[choice]))

    assert first is not None
    with database():
        scored = MatchEvent.objects.get(match=match, kind=matchlog.DEAL_ENDED).payload
        deal_no = match_state(match).deal_no if "deal" not in scored else scored["deal"]
    engine = sc.score(sc.replay(first, played))
    assert scored["points"] == engine["points"] and scored["sweeps"] == engine["sweeps"]
    for page in phones.values():  # every phone shows the deal's score
        page.wait_for_load_state("load")
        poll_now(page)
    totals = engine["total"]
    for page in phones.values():
        deal_line = page.get_by_text(
            f"Deal {deal_no}: {totals[0]} \N{EN DASH} {totals[1]}", exact=False
        )
        deal_line.wait_for(timeout=10_000)
    assert {(s, w) for s in range(4) for w in ("page", "live", "move")} <= leaks.checked
    assert leaks.saw_own == {0, 1, 2, 3}
    assert not leaks.unread, leaks.unread
    assert not leaks.found, leaks.found


def _key(move: dict[str, Any]) -> str:
    return json.dumps(move, sort_keys=True, separators=(",", ":"))
