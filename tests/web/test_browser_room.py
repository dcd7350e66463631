"""A table's moments on two real phones (Debian's Chromium, 390 pixels), each holding only
its team's link read from the card: the first box is the phone's own team's, both teams
sending the first deal at once leaves the later phone with the other team's entry and
Confirm without a reload, and the final's last deal ends the evening on both phones with the
result and the champion."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

from tournaments.models import Match, MatchEvent, Tournament

from .browser import (
    PHONE,
    SHOTS,
    Browser,
    Page,
    database,
    expect,
    mark_loaded,
    never_reloaded,
    page_width,
    serious_violations,
    signed_in,
)
from .conftest import CommittingClient
from .test_desk_evening import make_evening, register
from .test_room import final_of_two

pytestmark = pytest.mark.django_db(transaction=True)


def final(django_user_model: Any) -> tuple[Tournament, Match, dict[int, str]]:
    """A knockout of two teams (one match, the final, one deal long), published, and each
    team's link as its card prints it."""
    desk = CommittingClient()
    desk.force_login(django_user_model.objects.create_user("meera"))
    t, _ = final_of_two(desk)
    match = Match.objects.select_related("team0", "team1").get(tournament=t)
    cards = html.unescape(desk.get(f"/desk/{t.slug}/cards/").content.decode())
    links = {}
    for team in (match.team0, match.team1):
        card = cards[cards.index(f"<h2>{team.name}</h2>") :]
        found = re.search(r'<p class="card-url">[^<]*(/l/[A-Za-z0-9_-]{43}/)</p>', card)
        assert found is not None
        links[team.pk] = found.group(1)
    return t, match, links


def opened(contexts: list[Any], browser: Browser, base: str, path: str, match: Match) -> Page:
    phone = signed_in(contexts, browser, base, None, PHONE)  # no account: the card's link
    phone.goto(base + path)
    phone.wait_for_url("**/keep/")
    phone.goto(f"{base}/keep/{match.pk}/")
    phone.wait_for_load_state("load")
    return phone


def test_two_phones_send_at_once_and_the_last_deal_ends_the_evening_on_both(
    browser: Browser, live_server: Any, contexts: list[Any], django_user_model: Any
) -> None:
    base = live_server.url
    with database():
        _, match, links = final(django_user_model)
    tigers = opened(contexts, browser, base, links[match.team0_id], match)
    lotus = opened(contexts, browser, base, links[match.team1_id], match)
    SHOTS.mkdir(parents=True, exist_ok=True)

    # each phone's first box is its own team's, marked
    for page, ours, theirs in (
        (tigers, match.team0, match.team1),
        (lotus, match.team1, match.team0),
    ):
        boxes = page.locator("form[data-check] input.points")
        expect(boxes.first).to_have_accessible_name(f"Card points of {ours.name} (your team)")
        expect(boxes.nth(1)).to_have_accessible_name(f"Card points of {theirs.name}")
        assert page_width(page) <= PHONE["width"]
    lotus.screenshot(path=str(SHOTS / "room-lotus-first-box-390.png"), full_page=True)

    # both type "our points" in the first box and send at once; Tigers' entry gets there first
    tigers.locator("form[data-check] input.points").first.fill("70")
    lotus.locator("form[data-check] input.points").first.fill("30")
    expect(lotus.locator("form[data-check] input.points").nth(1)).to_have_value("70")
    tigers.get_by_role("button", name="Send deal 1").click()
    expect(tigers.get_by_text("Waiting for the other team to confirm")).to_be_visible()
    lotus.get_by_role("button", name="Send deal 1").click()
    # Lotus's phone shows Tigers' entry with Confirm at once, and says what happened
    expect(lotus.get_by_role("button", name="Confirm deal 1")).to_be_visible(timeout=10_000)
    expect(lotus.get_by_text("at the same moment as you", exact=False)).to_be_visible()
    expect(lotus.get_by_text("same numbers as you", exact=False)).to_be_visible()
    with database():
        entry = MatchEvent.objects.get(match=match, kind="deal_entered")
        # Tigers typed "our points" 70: Tigers got them
        assert entry.payload["points"] == [70, 30]
        assert MatchEvent.objects.filter(match=match, kind="deal_entered").count() == 1
    assert not serious_violations(lotus), serious_violations(lotus)
    lotus.screenshot(path=str(SHOTS / "room-crossed-send-390.png"), full_page=True)

    # the last deal of the final: confirmed on Lotus's phone; Tigers' phone, never reloaded,
    # shows the end by itself
    mark_loaded(tigers)
    lotus.get_by_role("button", name="Confirm deal 1").click()
    for page, won in ((lotus, False), (tigers, True)):
        expect(page.locator("[data-match-over]")).to_be_visible(timeout=15_000)
        expect(page.locator("[data-champion]")).to_contain_text(f"Champion: {match.team0.name}")
        expect(page.get_by_text("no longer works")).to_have_count(0)
        expect(page.get_by_text("Nothing was recorded")).to_have_count(0)
        part = page.locator("#live")  # the page's live region says it too, for a reader
        if won:
            expect(part.get_by_text("your team won", exact=False)).to_be_visible()
        else:
            expect(part.get_by_text(f"{match.team0.name} won", exact=False)).to_be_visible()
    assert never_reloaded(tigers)
    # what the page said of its own entry described the page before the end
    expect(tigers.get_by_text("Deal 1 entered")).to_have_count(0)
    assert not serious_violations(tigers), serious_violations(tigers)
    tigers.screenshot(path=str(SHOTS / "room-champion-390.png"), full_page=True)


def test_the_desks_teams_fit_a_phone(
    browser: Browser, live_server: Any, contexts: list[Any], django_user_model: Any
) -> None:
    from .test_desk_evening import TEN

    with database():
        django_user_model.objects.create_user("meera", password="meera")
        desk = CommittingClient()
        desk.login(username="meera", password="meera")
        t = make_evening(desk)
        register(desk, t, TEN.replace("Aces: Asha & Bilal", "Aces of Chandigarh: Ashalata & Bilal"))
    phone = signed_in(contexts, browser, live_server.url, "meera", PHONE)
    phone.goto(f"{live_server.url}/desk/{t.slug}/#teams")
    region = phone.get_by_role("region", name="Teams", exact=True)
    expect(region).to_contain_text("Ashalata & Bilal")
    overflow = region.evaluate("el => el.scrollWidth - el.clientWidth")
    assert overflow <= 0, f"the teams table is {overflow} px wider than the phone's screen"
    assert page_width(phone) <= PHONE["width"]
    assert not serious_violations(phone), serious_violations(phone)
    phone.screenshot(path=str(SHOTS / "room-desk-teams-390.png"), full_page=True)


def test_more_sweeps_than_a_deal_usually_has_are_asked_about_once(
    browser: Browser, live_server: Any, contexts: list[Any], django_user_model: Any
) -> None:
    base = live_server.url
    with database():
        _, match, links = final(django_user_model)
    tigers = opened(contexts, browser, base, links[match.team0_id], match)
    tigers.locator("form[data-check] input.points").first.fill("70")
    for _ in range(5):
        tigers.get_by_role("button", name=f"One more sweep for {match.team0.name}").click()
    send = tigers.get_by_role("button", name="Send deal 1")
    send.click()
    expect(
        tigers.get_by_text("5 sweeps of Tigers (your team)? That is more than a deal")
    ).to_be_visible()
    with database():
        assert not MatchEvent.objects.filter(match=match, kind="deal_entered").exists()
    send.click()  # sure: sent
    expect(tigers.get_by_text("Waiting for the other team to confirm")).to_be_visible()
    with database():
        entry = MatchEvent.objects.get(match=match, kind="deal_entered")
        assert len(entry.payload["sweeps"][0]) == 5


def test_a_phone_that_lost_the_server_says_since_when_on_the_clubs_clock(
    browser: Browser, live_server: Any, contexts: list[Any], django_user_model: Any
) -> None:
    """A phone set to another zone than the club's reads "stopped updating at" on the club's
    clock, as every other time on the page."""
    import datetime as dt
    import zoneinfo

    from tournaments.models import Club

    base = live_server.url
    with database():
        t, match, links = final(django_user_model)
        Club.objects.filter(pk=t.club_id).update(time_zone="Asia/Kolkata")
    context = browser.new_context(viewport=PHONE, timezone_id="America/New_York")
    contexts.append(context)
    phone = context.new_page()
    phone.set_default_timeout(15_000)
    phone.goto(base + links[match.team0_id])
    phone.wait_for_url("**/keep/")
    phone.goto(f"{base}/keep/{match.pk}/")
    phone.wait_for_load_state("load")
    expect(phone.locator("html")).to_have_attribute("data-time-zone", "Asia/Kolkata")
    phone.route("**/status/", lambda route: route.abort())  # the server out of reach
    notice = phone.locator("[data-live-lost]")
    expect(notice).to_contain_text("this page stopped updating at", timeout=15_000)
    shown = re.search(r"at (\d\d:\d\d)", notice.inner_text())
    assert shown is not None
    club_now = dt.datetime.now(zoneinfo.ZoneInfo("Asia/Kolkata"))
    near = {(club_now - dt.timedelta(minutes=m)).strftime("%H:%M") for m in (0, 1, 2)}
    assert shown.group(1) in near, (shown.group(1), near)
