"""What the club-night trial found on phones (issue 26), in a real browser at 390 pixels:
the standings say they scroll sideways for their tie-breaks, a bracket's final is on the
screen, a phone whose polls fail says its page stopped updating (and takes it back), and
the phone page drops "Deal 1 entered…" once the deal is disputed."""

from __future__ import annotations

from typing import Any

import pytest

from competition.models import Stage
from tests.competition.helpers import make_club as make_cup
from tournaments.models import Match
from tournaments.selectors import match_state

# Playwright's names from .browser, which first skips this module without the browser tools
from .browser import (
    PHONE,
    SHOTS,
    WIDE,
    Browser,
    database,
    expect,
    page_width,
    serious_violations,
    signed_in,
)
from .conftest import Club

pytestmark = pytest.mark.django_db(transaction=True)


def test_on_a_phone_the_standings_say_they_scroll_for_their_tie_breaks(
    browser: Browser, live_server: Any, transactional_db: None, contexts: list[Any]
) -> None:
    with database():
        cup = make_cup(8, slug="swiss-night")
        type(cup.tournament).objects.filter(pk=cup.tournament.pk).update(published=True)
        tiebreaks = ["bazzis_won", "buchholz", "head_to_head", "sonneborn_berger"]
        stage = cup.start(cup.stage(name="Swiss", format="swiss", rounds=3, tiebreaks=tiebreaks))
        cup.publish(cup.pair(stage))
    url = f"{live_server.url}/t/{cup.tournament.slug}/"
    hint = "Swipe the table sideways for the tie-breaks"
    phone = signed_in(contexts, browser, live_server.url, None, PHONE)
    phone.goto(url)
    expect(phone.get_by_text(hint)).to_be_visible()
    region = phone.get_by_role("region", name="Standings of Swiss")
    # the tie-breaks are there, past the right edge of the region (which scrolls, the page not)
    last = region.locator("thead th").last
    expect(last).to_be_attached()
    overflow = region.evaluate("el => el.scrollWidth - el.clientWidth")
    assert overflow > 0, "the table fits: the hint would not be needed"
    assert page_width(phone) <= PHONE["width"]
    region.scroll_into_view_if_needed()
    region.evaluate("el => el.scrollLeft = el.scrollWidth")
    expect(last).to_be_in_viewport()
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(SHOTS / "trial-standings-390.png"), full_page=True)
    assert not serious_violations(phone)
    wide = signed_in(contexts, browser, live_server.url, None, WIDE)
    wide.goto(url)
    expect(wide.get_by_text(hint)).to_be_hidden()  # on a wide screen the table fits


def test_on_a_phone_a_brackets_final_is_on_the_screen(
    browser: Browser, live_server: Any, transactional_db: None, contexts: list[Any]
) -> None:
    with database():
        cup = make_cup(8, slug="phone-cup")
        type(cup.tournament).objects.filter(pk=cup.tournament.pk).update(published=True)
        stage = cup.start(cup.stage(format=Stage.Format.SINGLE_ELIMINATION))
        cup.publish(stage.round_set.order_by("number")[0])
    phone = signed_in(contexts, browser, live_server.url, None, PHONE)
    phone.goto(f"{live_server.url}/t/{cup.tournament.slug}/")
    final = phone.locator(".bracket-round").last
    expect(final.get_by_role("heading", name="Final")).to_be_visible()
    box = final.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert page_width(phone) <= PHONE["width"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(SHOTS / "trial-bracket-390.png"), full_page=True)
    assert not serious_violations(phone)


def test_a_phone_whose_polls_fail_says_its_page_stopped_updating_and_then_that_it_is_back(
    browser: Browser, live_server: Any, live_club: Club, contexts: list[Any]
) -> None:
    match = live_club.matches[0]
    phone = signed_in(contexts, browser, live_server.url, "scorekeeper", PHONE)
    phone.goto(f"{live_server.url}/keep/{match.pk}/")
    phone.wait_for_load_state("load")
    notice = phone.locator("[data-live-lost]")
    expect(notice).to_have_attribute("aria-live", "polite")
    expect(notice).to_have_text("")
    phone.route("**/status/", lambda route: route.abort())  # the server out of reach
    expect(notice).to_contain_text("this page stopped updating", timeout=15_000)
    expect(notice).to_be_visible()
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(SHOTS / "trial-connection-lost-390.png"))
    phone.unroute("**/status/")
    expect(notice).to_have_text("", timeout=15_000)
    expect(notice).to_be_hidden()  # empty: it takes no room


def test_the_phone_page_drops_what_it_said_about_an_entry_once_the_deal_is_disputed(
    browser: Browser, live_server: Any, live_club: Club, contexts: list[Any]
) -> None:
    match = live_club.matches[1]
    phone = signed_in(contexts, browser, live_server.url, "scorekeeper", PHONE)
    phone.goto(f"{live_server.url}/keep/{match.pk}/")
    phone.wait_for_load_state("load")
    phone.get_by_label(f"Card points of {match.team0.name}").fill("64")
    phone.get_by_role("button", name="Send deal 1").click()
    entered = phone.locator(".messages").get_by_text("Deal 1 entered: it counts once")
    expect(entered).to_be_visible()  # on the page loaded after sending
    expect(phone.get_by_text("Waiting for the other team to confirm")).to_be_visible()
    # the other team rejects it from their phone, with their own numbers
    other = signed_in(contexts, browser, live_server.url, live_club.player_of(match, 1), PHONE)
    other.goto(f"{live_server.url}/keep/{match.pk}/")
    other.wait_for_load_state("load")
    other.get_by_label("Not right? Say what is wrong").fill("We had 40")
    other.get_by_text("Your numbers for deal 1").click()
    other.get_by_label(f"Card points of {match.team0.name}").fill("60")
    expect(other.get_by_label(f"Card points of {match.team1.name}")).to_have_value("40")
    expect(other.locator("[data-sum]")).to_have_text("60 + 40 = 100 ✓")
    assert not serious_violations(other)
    other.get_by_role("button", name="Reject").click()
    expect(other.get_by_text("Their version:")).to_be_visible()
    with database():
        rejected = match.events.get(kind="deal_rejected")
        assert rejected.payload["points"] == [60, 40]
        assert match_state(Match.objects.get(pk=match.pk)).disputed
    expect(
        phone.locator("#live").get_by_text("Deal 1 is disputed: the director decides it.")
    ).to_be_visible(timeout=15_000)
    expect(entered).to_have_count(0)  # only where things stand now
    expect(phone.get_by_text("Waiting for the other team to confirm")).to_have_count(0)

    # the director counts the rejecting team's version in one tap
    desk = signed_in(contexts, browser, live_server.url, "director", PHONE)
    desk.goto(f"{live_server.url}/desk/{live_club.tournament.slug}/matches/{match.pk}/")
    expect(desk.locator("#id_decide-points_a")).to_have_value("64")  # the entered version
    # the decide form fills 100 - x as the phone's form does
    desk.locator("#id_decide-points_a").fill("58")
    expect(desk.locator("#id_decide-points_b")).to_have_value("42")
    desk.locator("#id_decide-points_a").fill("64")
    assert not serious_violations(desk)
    assert page_width(desk) <= PHONE["width"]
    desk.get_by_role("button", name=f"Count {match.team1.name}'s version").click()
    expect(desk.get_by_text("The deal's result is decided and counted.")).to_be_visible()
    with database():
        assert match.events.get(kind="deal_ended").payload["points"] == [60, 40]
