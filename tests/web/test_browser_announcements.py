"""What a screen reader hears of the live pages, in a real browser (Debian's Chromium): an
update that arrives by itself is read from the page's one polite live region in the
server's words (the other team's entry on the phone page, its confirmation, the changed
standings on the tournament page, the live board's table, another seat's move and "Your
turn" on the seat page); the control that had the focus has it again after the part is
replaced; the message about one's own action is on the page loaded after it, with the
focus; a paused page holds its part until resumed, then catches up; and axe's WCAG 2.2 AA
rules find nothing on the updated pages."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

import seep_core as sc
from tournaments.models import Match
from tournaments.selectors import match_state
from web import words
from web.moves import key

from .browser import (
    AXE,
    PHONE,
    WIDE,
    Browser,
    Locator,
    Page,
    database,
    expect,
    mark_loaded,
    never_reloaded,
    signed_in,
)
from .conftest import Club
from .test_seat import play, seat_user

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 20_000  # ms: the machine is shared and slow; every wait is on a condition
WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


def announced(page: Page) -> Locator:
    """The page's one polite live region (live.js)."""
    return page.locator("[data-announcer][role=status][aria-live=polite]")


def listen(page: Page) -> None:
    """Keep every sentence the page's live region says from now on (each update replaces
    the last: a screen reader reads each in turn)."""
    page.evaluate(
        "() => { window.__heard = []; const s = document.querySelector('[data-announcer]');"
        " new MutationObserver(() => window.__heard.push(s.textContent))"
        ".observe(s, {childList: true, characterData: true, subtree: true}); }"
    )


def heard(page: Page, words: str) -> None:
    """Wait until the page's live region has said ``words`` (since ``listen``)."""
    page.wait_for_function(
        "(words) => window.__heard.some((said) => said.includes(words))", arg=words, timeout=WAIT
    )


def wcag_violations(page: Page) -> list[str]:
    """Run axe-core's WCAG 2.2 AA rules in the page; return the rules it breaks (any
    impact)."""
    page.evaluate(AXE.read_text(encoding="utf-8"))
    found: list[str] = page.evaluate(
        "async (tags) => (await axe.run(document, {runOnly: {type: 'tag', values: tags},"
        " resultTypes: ['violations']})).violations.map(v => v.id + ': ' +"
        " v.nodes.map(n => n.target.join(' ')).join(', '))",
        WCAG_22_AA,
    )
    return found


def test_an_entry_its_confirmation_and_the_standings_are_read_out_and_the_focus_stays(
    browser: Browser, live_server: Any, live_club: Club, contexts: list[Any]
) -> None:
    base, match = live_server.url, live_club.matches[0]
    team0, team1 = match.team0.name, match.team1.name
    slug = live_club.tournament.slug

    # the tournament page, its standings table focused (a scrolling region)
    wall = signed_in(contexts, browser, base, None, WIDE)
    wall.goto(f"{base}/t/{slug}/")
    mark_loaded(wall)
    standings = wall.get_by_role("region", name="Standings of Round robin")
    standings.focus()
    listen(wall)
    # the live board, the link of another table focused
    board = signed_in(contexts, browser, base, "director", WIDE)
    board.goto(f"{base}/desk/{slug}/board/")
    mark_loaded(board)
    elsewhere = board.locator(f"#match-{live_club.matches[1].pk} a")
    elsewhere.focus()
    # the other team's phone
    other = signed_in(contexts, browser, base, live_club.player_of(match, 1), PHONE)
    other.goto(f"{base}/keep/{match.pk}/")
    other.wait_for_load_state("load")
    mark_loaded(other)
    for page in (wall, board, other):
        expect(announced(page)).to_have_text("")  # nothing is read as the page loads

    keeper = signed_in(contexts, browser, base, live_club.player_of(match, 0), PHONE)
    keeper.goto(f"{base}/keep/{match.pk}/")
    keeper.wait_for_load_state("load")
    keeper.get_by_label(f"Card points of {team0}").fill("64")
    keeper.get_by_role("button", name="Send deal 1").click()
    # the page loaded after sending says what was done, at the top, with the focus
    banner = keeper.locator("main > .messages")
    expect(banner).to_contain_text("Deal 1 entered", timeout=WAIT)
    expect(banner).to_be_focused()

    # the entry, read on the other team's phone in the server's words
    expect(announced(other)).to_have_text(
        f"{team0} entered deal 1: your team 36, {team0} 64. Confirm or reject.", timeout=WAIT
    )
    assert never_reloaded(other)
    # the board says which table changed, and keeps the focus on the link it had
    expect(announced(board)).to_contain_text(
        f"{team0} v {team1}: Awaiting confirmation, deal 1;", timeout=WAIT
    )
    expect(announced(board)).to_contain_text(f"entered by {team0}: {team0} 64, {team1} 36.")
    expect(elsewhere).to_be_focused()
    assert never_reloaded(board)

    other.get_by_role("button", name="Confirm deal 1").click()
    expect(other.locator("main > .messages")).to_be_focused(timeout=WAIT)

    # the confirmation on the entering phone: read, and its banner gone with the focus
    # on the part that replaced what it said
    expect(announced(keeper)).to_contain_text("Deal 1 was confirmed by", timeout=WAIT)
    expect(announced(keeper)).to_contain_text("The match is over: your team won.")
    expect(banner).to_have_count(0)
    expect(keeper.locator("#live")).to_be_focused()

    # the tournament page: the table's result and the standings (in one update, or in two
    # when a poll came between the result and the standings it changed)
    heard(wall, f"Standings of Round robin: 1 {team0} 2 points")
    heard(wall, f"{team0} 0, {team1} 0 bazzis, final.")  # won on the difference
    expect(standings).to_be_focused()
    assert never_reloaded(wall)

    for page in (wall, board, keeper, other):
        assert wcag_violations(page) == [], page.url


def test_another_seats_move_and_your_turn_are_read_after_a_pause_and_while_playing(
    browser: Browser, live_server: Any, live_club: Club, contexts: list[Any]
) -> None:
    base, match = live_server.url, live_club.digital
    with database():
        deal = match_state(match).deal
        assert deal is not None and deal.to_play is not None
        move = sc.legal_moves(deal)[0]
        after = sc.apply(deal, move)
        assert after.to_play is not None and after.to_play != deal.to_play
        mover = Client()
        mover.force_login(live_club.users[seat_user(live_club, deal.to_play)])
        mover_name = match.seat_players()[deal.to_play].name
    phone = signed_in(contexts, browser, base, seat_user(live_club, after.to_play), PHONE)
    phone.goto(f"{base}/play/{match.pk}/")
    phone.wait_for_load_state("load")
    moves = phone.locator("#live button[name=move]")
    expect(moves).to_have_count(0)  # not its turn

    # paused: the move arrives and is held, the page says so, nothing changes
    phone.get_by_role("button", name="Pause updates").click()
    with database():
        assert play(mover, match, key(move)).status_code == 302
    paused = phone.locator("[data-live-paused]")
    expect(paused).to_contain_text("There are new ones", timeout=WAIT)
    expect(moves).to_have_count(0)
    expect(announced(phone)).to_have_text("")
    assert wcag_violations(phone) == []
    # resumed: the part as it is now, and what changed read out
    phone.get_by_role("button", name="Resume updates").click()
    said = f"{mover_name} ({words.seat(deal.to_play)}) played: "
    expect(announced(phone)).to_contain_text(said, timeout=WAIT)
    expect(announced(phone)).to_contain_text("Your turn.")
    expect(paused).to_be_hidden()
    assert moves.count() > 0

    # this phone plays: the page loaded after it says so, with the focus
    if phone.locator("#live details.play").count():
        phone.locator("#live details.play summary").first.click()
        phone.locator("#live details.play[open] button[name=move]").first.click()
    else:
        moves.first.click()
    banner = phone.locator("main > .messages")
    expect(banner).to_contain_text(": played.", timeout=WAIT)
    expect(banner).to_be_focused()
    mark_loaded(phone)

    # the next seat's move, read while the page is live (not this phone's turn)
    with database():
        match = Match.objects.get(pk=match.pk)
        deal = match_state(match).deal
        assert deal is not None and deal.to_play is not None
        nxt = Client()
        nxt.force_login(live_club.users[seat_user(live_club, deal.to_play)])
        nxt_name = match.seat_players()[deal.to_play].name
        assert play(nxt, match, key(sc.legal_moves(deal)[0])).status_code == 302
    said = f"{nxt_name} ({words.seat(deal.to_play)}) played: "
    expect(announced(phone)).to_contain_text(said, timeout=WAIT)
    expect(announced(phone)).to_contain_text("to play.")
    assert never_reloaded(phone)
    assert wcag_violations(phone) == []
