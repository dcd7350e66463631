"""What a keyboard, a screen reader and low vision meet, in a real browser (Debian's
Chromium): a desk form's errors take the focus to their summary, whose links reach their
fields; the focus ring is drawn; the recorder's 52 cards are one tab stop moved with the
arrow keys; the wall's text grows at 200% zoom; large text scrolls no page sideways; axe
finds nothing against the WCAG 2.2 AA rules."""

from __future__ import annotations

import re
from typing import Any

import pytest

import seep_core as sc
from tests.engine.test_table_mode import at_the_table

from .browser import (
    AXE,
    PHONE,
    WIDE,
    Browser,
    Page,
    expect,
    signed_in,
)
from .checks import every_page
from .conftest import Club
from .test_browser_recorder import DEAL, table_match, words

pytestmark = pytest.mark.django_db(transaction=True)

WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
#: the pages whose names, cards and tables this change marks up, axe-checked on the way
AXED = {"tournament", "print", "desk", "desk-round", "wall", "seat", "match-digital"}


def wcag_violations(page: Page) -> list[dict[str, Any]]:
    """Run axe-core with the WCAG 2.2 A and AA rules only; return every violation."""
    page.evaluate(AXE.read_text(encoding="utf-8"))
    found: list[dict[str, Any]] = page.evaluate(
        "async tags => (await axe.run(document, {runOnly: {type: 'tag', values: tags},"
        " resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, where: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))",
        WCAG_22_AA,
    )
    return found


def no_sideways_scroll(page: Page) -> bool:
    fits: bool = page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    return fits


def test_a_desk_form_with_errors_takes_the_focus_to_its_summary_and_its_links_reach_fields(
    browser: Browser, live_server: Any, live_club: Club, contexts: list[Any]
) -> None:
    page = signed_in(contexts, browser, live_server.url, "director", WIDE)
    page.goto(f"{live_server.url}/desk/new/")
    page.get_by_role("button", name="Make the evening").click()
    summary = page.locator("[data-error-summary]")
    expect(summary).to_be_focused()
    expect(summary).to_have_attribute("role", "alert")
    expect(summary.get_by_role("heading", name="There is a problem")).to_be_visible()
    targets = summary.locator("a").evaluate_all(
        "links => links.map(a => [a.hash.slice(1), !!document.getElementById(a.hash.slice(1))])"
    )
    assert targets and all(found for _, found in targets), targets
    # the field a link names takes the focus, and says it is in error and why
    first = summary.locator("a").first
    field_id = targets[0][0]
    first.click()
    expect(page.locator(f"#{field_id}")).to_be_focused()
    expect(page.locator(f"#{field_id}")).to_have_attribute("aria-invalid", "true")
    assert not wcag_violations(page), wcag_violations(page)
    # the focus ring, reached with the keyboard: a dark line and the yellow halo
    page.locator(f"#{field_id}").press("Shift+Tab")
    ring = page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement);"
        " return [document.activeElement.matches(':focus-visible'), s.outlineStyle,"
        " s.outlineColor, s.boxShadow]; }"
    )
    assert ring[0] and ring[1] == "solid" and ring[2] == "rgb(11, 12, 12)", ring
    assert "rgb(255, 221, 0)" in ring[3], ring


def test_the_recorders_cards_are_one_tab_stop_moved_with_the_arrow_keys(
    browser: Browser, live_server: Any, live_club: Club, contexts: list[Any]
) -> None:
    base, match = live_server.url, table_match(live_club)
    bid, _ = sc.play(
        sc.new_table_deal(DEAL["dealer"]), at_the_table(DEAL["deck"], DEAL["moves"])[0]
    )
    phone = signed_in(contexts, browser, base, "scorekeeper", PHONE)
    phone.goto(f"{base}/record/{match.pk}/")
    phone.get_by_label("East:").check()
    phone.get_by_role("button", name="Start the match").click()
    # the bid's 52 checkboxes: one tab stop too; Space and Enter check the card the focus is on
    boxes = phone.get_by_role("grid")
    expect(boxes.locator("input[tabindex='0']")).to_have_count(1)
    assert boxes.locator("input:not([tabindex='-1'])").count() == 1
    boxes.locator("input[tabindex='0']").focus()
    phone.keyboard.press("ArrowRight")
    second = boxes.locator("input").nth(1)
    expect(second).to_be_focused()
    phone.keyboard.press("Space")
    expect(second).to_be_checked()
    phone.keyboard.press("Enter")
    expect(second).not_to_be_checked()
    expect(boxes.locator("input[tabindex='0']")).to_have_count(1)
    assert not wcag_violations(phone), wcag_violations(phone)
    phone.get_by_label(f"Bid {bid['value']}").check()
    for card in bid["floor"]:
        phone.get_by_role("checkbox", name=words(card), exact=True).check()
    phone.get_by_role("button", name="Record the bid").click()
    grid = phone.get_by_role("grid")
    expect(grid.locator("a").first).to_be_visible()
    assert grid.locator("[role=row]").count() == 13
    assert grid.locator("[role=gridcell]").count() == 52
    expect(grid.locator("[tabindex='0']")).to_have_count(1)
    assert grid.locator("a:not([tabindex='-1'])").count() == 1

    def at() -> int:
        where: int = grid.evaluate(
            "g => Array.from(g.querySelectorAll('[role=gridcell]'))"
            ".map(c => c.querySelector('a') || c).indexOf(document.activeElement)"
        )
        return where

    grid.locator("[tabindex='0']").focus()
    start = at()
    assert start >= 0
    phone.keyboard.press("ArrowDown")
    assert at() == start + 4
    phone.keyboard.press("ArrowRight")
    assert at() == start + 5
    phone.keyboard.press("Home")
    assert at() == (start + 5) // 4 * 4
    phone.keyboard.press("End")
    assert at() == (start + 5) // 4 * 4 + 3
    phone.keyboard.press("Control+End")
    assert at() == 51
    phone.keyboard.press("Control+Home")
    assert at() == 0
    phone.keyboard.press("ArrowUp")  # at the top: stays
    assert at() == 0
    # Tab leaves the grid in one press, Shift+Tab comes back to the card last on
    phone.keyboard.press("Tab")
    assert at() == -1
    phone.keyboard.press("Shift+Tab")
    assert at() == 0
    assert not wcag_violations(phone), wcag_violations(phone)
    phone.evaluate("document.documentElement.style.fontSize = '200%'")
    assert no_sideways_scroll(phone)  # large text: the cards still four to a row, on the screen
    # Enter picks the card the focus is on: its moves come up
    grid.locator("a.card-pick").first.focus()
    picked = grid.locator("a.card-pick").first.get_attribute("href")
    assert picked is not None and picked.startswith("?card=")
    phone.keyboard.press("Enter")
    expect(phone).to_have_url(re.compile(re.escape(picked.removesuffix("#moves"))))


def text_sizes(page: Page) -> dict[str, float]:
    sizes: dict[str, float] = page.evaluate(
        "() => ({body: parseFloat(getComputedStyle(document.body).fontSize),"
        " foot: parseFloat(getComputedStyle(document.querySelector('.wall-foot')).fontSize),"
        " width: document.documentElement.clientWidth})"
    )
    return sizes


def test_the_walls_text_grows_with_zoom_and_text_size(
    browser: Browser, live_server: Any, live_club: Club, contexts: list[Any]
) -> None:
    """200% zoom in a 1280-pixel window lays the page out 640 CSS pixels wide at two device
    pixels each: text sized by the window alone would come out the same size on the screen."""
    url = f"{live_server.url}/t/{live_club.tournament.slug}/wall/"
    sizes = {}
    for zoom in (1, 2):
        context = browser.new_context(
            viewport={"width": 1280 // zoom, "height": 720 // zoom}, device_scale_factor=zoom
        )
        contexts.append(context)
        page = context.new_page()
        page.goto(url)
        sizes[zoom] = text_sizes(page)
    assert sizes[2]["width"] == 640
    # on the screen (CSS pixels times the zoom), the text is at least 1.4 times as large
    assert sizes[2]["body"] * 2 >= 1.4 * sizes[1]["body"], sizes
    # the reader's own text size counts too, and a phone never gets type under it
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    assert text_sizes(page)["body"] > sizes[2]["body"]
    phone = browser.new_context(viewport=PHONE)
    contexts.append(phone)
    small = phone.new_page()
    small.goto(url)
    assert text_sizes(small)["body"] >= 16 and text_sizes(small)["foot"] >= 14


def test_no_page_scrolls_sideways_with_large_text_nor_a_desk_page_at_320_pixels(
    browser: Browser, live_server: Any, live_club: Club, contexts: list[Any]
) -> None:
    """Phone text set large (the root font-size doubled) at 390 pixels: a wide table scrolls
    in its own box, a grid of cards goes one to a row, and the page itself never sideways."""
    pages: dict[str | None, Page] = {}
    scrolls = []
    for name, url, who in every_page(live_club):
        if who not in pages:
            pages[who] = signed_in(contexts, browser, live_server.url, who, PHONE)
        page = pages[who]
        page.set_viewport_size(PHONE)
        page.goto(live_server.url + url)
        if name in AXED:
            assert not wcag_violations(page), (name, wcag_violations(page))
        page.evaluate("document.documentElement.style.fontSize = '200%'")
        if not no_sideways_scroll(page):
            scrolls.append((name, "390 px, large text"))
        if name.startswith("desk"):
            page.evaluate("document.documentElement.style.fontSize = ''")
            page.set_viewport_size({"width": 320, "height": 640})
            if not no_sideways_scroll(page):
                scrolls.append((name, "320 px"))
    assert not scrolls, scrolls
