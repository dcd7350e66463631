"""The phone pages in Hindi and in Urdu (right to left) in a real browser (Debian's Chromium)
at 390 pixels: a team's entry of a deal, the other team's confirmation, and the seat page of
a digital match, and the desk's new evening (its form, then its mistakes), each with
``<html lang dir>`` right, no sideways scroll, and nothing axe finds against the WCAG 2.2 AA
rules."""

from __future__ import annotations

from typing import Any

import pytest

from tournaments import links

from .browser import PHONE, Browser, Page, database, expect
from .conftest import Club
from .test_browser_accessibility import no_sideways_scroll, wcag_violations

pytestmark = pytest.mark.django_db(transaction=True)

#: what each language's pages say where the test looks (from its catalog)
SAID = {
    "hi": {
        "send": "डील 1 भेजें",
        "confirm": "डील 1 की पुष्टि करें",
        "hand": "आपके पत्ते",
        "pause": "अपडेट रोकें",
        "resume": "अपडेट फिर शुरू करें",
        "new": "नई शाम",
        "make": "शाम बनाएँ",
    },
    "ur": {
        "send": "ڈیل 1 بھیجیں",
        "confirm": "ڈیل 1 کی تصدیق کریں",
        "hand": "آپ کے پتے",
        "pause": "اپ ڈیٹ روکیں",
        "resume": "اپ ڈیٹ دوبارہ شروع کریں",
        "new": "نئی شام",
        "make": "شام بنائیں",
    },
}
DIRECTION = {"hi": "ltr", "ur": "rtl"}


def _phone(browser: Browser, contexts: list[Any], language: str) -> Page:
    """A phone whose browser asks for ``language`` (its Accept-Language)."""
    context = browser.new_context(viewport=PHONE, locale=language)
    contexts.append(context)
    return context.new_page()


def _link(club: Club, team: Any) -> str:
    with database():
        _row, key = links.team_link(actor=club.users["director"], team=team)
    return f"/l/{key}/"


def _looks_right(page: Page, language: str, where: str) -> None:
    assert page.evaluate("document.documentElement.lang") == language, where
    assert page.evaluate("document.documentElement.dir") == DIRECTION[language], where
    assert no_sideways_scroll(page), (where, language)
    found = wcag_violations(page)
    assert not found, (where, language, found)


@pytest.mark.parametrize("language", ["hi", "ur"])
def test_entry_confirmation_and_seat_pages_read_right_in_hindi_and_urdu(
    browser: Browser, live_server: Any, live_club: Club, contexts: list[Any], language: str
) -> None:
    said = SAID[language]
    score = live_club.matches[0]
    entering = _phone(browser, contexts, language)
    entering.goto(live_server.url + _link(live_club, score.team0))
    _looks_right(entering, language, "the team link's matches")
    entering.goto(f"{live_server.url}/keep/{score.pk}/")
    _looks_right(entering, language, "the entry form")
    # the words the page's script writes are the page's language too (base.html's data-say-*)
    pause = entering.locator("button.live-pause")
    expect(pause).to_have_text(said["pause"])
    pause.click()
    expect(pause).to_have_text(said["resume"])
    pause.click()
    entering.locator("input[name=points_a]").fill("64")
    entering.locator("input[name=points_b]").fill("36")
    # the page sends it (keeper.js), then loads itself again: checked once it has
    with entering.expect_navigation(wait_until="load"):
        entering.get_by_role("button", name=said["send"]).click()
    expect(entering.locator("p[data-waiting]")).to_be_visible()
    _looks_right(entering, language, "an entry waiting")

    answering = _phone(browser, contexts, language)
    answering.goto(live_server.url + _link(live_club, score.team1))
    answering.goto(f"{live_server.url}/keep/{score.pk}/")
    confirm = answering.get_by_role("button", name=said["confirm"])
    expect(confirm).to_be_visible()
    _looks_right(answering, language, "the confirmation")
    with answering.expect_navigation(wait_until="load"):
        confirm.click()
    expect(answering.locator("[data-confirmed]")).to_be_visible()
    _looks_right(answering, language, "a deal confirmed")

    digital = live_club.digital
    seated = _phone(browser, contexts, language)
    seated.goto(live_server.url + _link(live_club, digital.team0))
    seated.goto(f"{live_server.url}/play/{digital.pk}/")
    _looks_right(seated, language, "the seat choice")
    seated.locator("button[name=seat][value='0']").click()
    expect(seated.get_by_role("heading", name=said["hand"])).to_be_visible()
    _looks_right(seated, language, "the seat page")


#: a room's screen on a laptop's width (the wall is made for 1920x1080: it must still fit)
LAPTOP = {"width": 1280, "height": 720}

#: each panel of the wall shown in turn, and what overflows it or the screen: a box wider
#: than the panel, or reaching past the screen's edge (on either side: Urdu runs right to left)
OVERFLOWING = """() => {
  const found = [];
  const panels = Array.from(document.querySelectorAll('#wall [data-panel]'));
  const width = document.documentElement.clientWidth;
  for (const panel of panels) {
    panels.forEach(p => { p.hidden = p !== panel; });
    if (panel.scrollWidth > panel.clientWidth + 1) found.push(panel.dataset.panel);
    for (const el of panel.querySelectorAll('*')) {
      const box = el.getBoundingClientRect();
      if (box.width && (box.left < -1 || box.right > width + 1)) {
        found.push(panel.dataset.panel + ': ' + el.textContent.trim().slice(0, 40));
      }
    }
  }
  return found;
}"""


def test_the_wall_reads_right_to_left_in_urdu_at_1280_px_and_nothing_overflows(
    browser: Browser, live_server: Any, live_club: Club, contexts: list[Any]
) -> None:
    from tournaments.models import Team

    long_name = "Supercalifragilisticexpialidocious-Jalandhar-Tigers-of-the-North"
    with database():  # a Latin name longer than its cell, on a right-to-left wall
        Team.objects.filter(pk=live_club.matches[0].team0_id).update(name=long_name)
    context = browser.new_context(viewport=LAPTOP, locale="ur")
    contexts.append(context)
    wall = context.new_page()
    wall.goto(f"{live_server.url}/t/{live_club.tournament.slug}/wall/")
    assert wall.evaluate("document.documentElement.lang") == "ur"
    assert wall.evaluate("document.documentElement.dir") == "rtl"
    # the pairings' heading and table, in Urdu, laid out from the right
    heading = wall.locator("#wall [data-panel] h2").first
    expect(heading).to_contain_text("کی جوڑیاں")
    assert wall.evaluate("getComputedStyle(document.querySelector('.wall-panels')).direction") == (
        "rtl"
    )
    # the wall's own pause button says its words in Urdu too (wall.js reads them from the page)
    pause = wall.locator("#wall-pause")
    expect(pause).to_have_text("روکیں")
    pause.click()
    expect(pause).to_have_text("دوبارہ شروع کریں")
    pause.click()
    assert no_sideways_scroll(wall)
    assert wall.evaluate(OVERFLOWING) == []
    # the long name is cut at its own end (its beginning shows), inside its cell
    name = wall.locator("td.name bdi", has_text="Supercali").first
    name.evaluate(  # its panel shown (the check above left the last one on the screen)
        "e => document.querySelectorAll('#wall [data-panel]')"
        ".forEach(p => { p.hidden = p !== e.closest('[data-panel]'); })"
    )
    assert name.evaluate("e => e.scrollWidth > e.clientWidth")  # cut
    cell, box = name.evaluate(
        "e => [e.parentElement, e].map(x => x.getBoundingClientRect().toJSON())"
    )
    assert cell["left"] - 1 <= box["left"] and box["right"] <= cell["right"] + 1
    found = wcag_violations(wall)
    assert not found, found


@pytest.mark.parametrize("language", ["hi", "ur"])
def test_the_desks_new_evening_reads_right_in_hindi_and_urdu(
    browser: Browser, live_server: Any, live_club: Club, contexts: list[Any], language: str
) -> None:
    """The director, on a phone asking for Hindi or Urdu, opens the new evening's form and
    sends it without a name: the form and its mistakes read right at 390 pixels."""
    said = SAID[language]
    desk = _phone(browser, contexts, language)
    desk.goto(f"{live_server.url}/login/")
    desk.locator("input[name=username]").fill("director")
    desk.locator("input[name=password]").fill("director")
    desk.locator("input[name=password]").press("Enter")
    desk.wait_for_load_state()
    desk.goto(f"{live_server.url}/desk/new/")
    expect(desk.get_by_role("heading", level=1)).to_have_text(said["new"])
    _looks_right(desk, language, "the new evening")
    desk.locator("input[name=name]").fill("")
    desk.get_by_role("button", name=said["make"]).click()
    summary = desk.locator("[data-error-summary]")
    expect(summary).to_be_focused()
    _looks_right(desk, language, "the new evening's mistakes")
