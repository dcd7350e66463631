"""Team links in a real browser (Debian's Chromium): the director prints the cards, two
phones with no account open their teams' links, one enters a deal and the other confirms it,
and the tournament's live pages show it without a reload; a reissued link is refused in
words."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tournaments.models import MatchEvent

from .browser import (
    MATCH_OVER,
    PHONE,
    SHOTS,
    WIDE,
    Browser,
    Page,
    checked,
    database,
    expect,
    mark_loaded,
    never_reloaded,
    signed_in,
)
from .conftest import Club

pytestmark = pytest.mark.django_db(transaction=True)


def card_link(director: Page, base: str, slug: str, team_id: int) -> str:
    director.goto(f"{base}/desk/{slug}/teams/{team_id}/link/")
    url = director.locator(".card-url").inner_text().strip()
    assert re.fullmatch(rf"{re.escape(base)}/l/[A-Za-z0-9_-]{{43}}/", url), url
    return url


def test_two_phones_with_no_account_enter_and_confirm_through_their_teams_links(
    browser: Browser, live_server: Any, live_club: Club, contexts: list[Any]
) -> None:
    base, match, slug = live_server.url, live_club.matches[0], live_club.tournament.slug
    SHOTS.mkdir(parents=True, exist_ok=True)
    director = signed_in(contexts, browser, base, "director", WIDE)
    director.goto(f"{base}/desk/{slug}/cards/")
    with database():
        teams = live_club.tournament.teams.count()
    expect(director.locator(".team-card")).to_have_count(teams)
    expect(director.locator(".team-card svg.qr").first).to_be_visible()
    checked(director, "links-cards-1280")
    director.emulate_media(media="print")  # as printed: two cards across an A4 page
    director.set_viewport_size({"width": 794, "height": 1123})
    boxes = [card.bounding_box() for card in director.locator(".team-card").all()[:2]]
    assert boxes[0] and boxes[1] and boxes[0]["y"] == boxes[1]["y"], "two across"
    director.screenshot(path=str(SHOTS / "links-cards-print-794.png"), full_page=True)
    director.emulate_media(media="screen")
    director.set_viewport_size(WIDE)
    ours = card_link(director, base, slug, match.team0_id)
    theirs = card_link(director, base, slug, match.team1_id)

    wall = signed_in(contexts, browser, base, None, WIDE)
    wall.goto(f"{base}/t/{slug}/")
    mark_loaded(wall)
    points = wall.locator(f'tr[data-team="{match.team0.name}"] [data-points]')
    expect(points).to_have_text("0")
    screen = signed_in(contexts, browser, base, None, {"width": 1920, "height": 1080})
    screen.goto(f"{base}/t/{slug}/wall/?seconds=2")
    mark_loaded(screen)
    with database():
        fixture = match.fixture.pk  # type: ignore[attr-defined]
    score = screen.locator(f'tr[data-fixture="{fixture}"] [data-score]')
    director.goto(f"{base}/desk/{slug}/board/")
    mark_loaded(director)
    table = director.locator(f"#match-{match.pk}")
    expect(table).to_have_attribute("data-state", "playing")

    tigers = signed_in(contexts, browser, base, None, PHONE)  # no account
    tigers.goto(ours)
    tigers.wait_for_url("**/keep/")
    expect(tigers.get_by_text(f"you act for {match.team0.name}", exact=False)).to_be_visible()
    tigers.get_by_role("link", name=f"{match.team0.name} v {match.team1.name}").click()
    tigers.wait_for_url(f"**/keep/{match.pk}/")
    tigers.wait_for_load_state("load")
    tigers.get_by_label(f"Card points of {match.team0.name}").fill("64")
    tigers.get_by_role("button", name="Send deal 1").click()
    expect(tigers.get_by_text("Waiting for the other team to confirm")).to_be_visible()
    checked(tigers, "links-keep-390")
    # the director's board, never reloaded, shows the entry made through the link
    expect(table).to_have_attribute("data-state", "awaiting", timeout=15_000)
    expect(table).to_contain_text(f"{match.team0.name} 64")

    lotus = signed_in(contexts, browser, base, None, PHONE)
    lotus.goto(theirs)
    lotus.goto(f"{base}/keep/{match.pk}/")
    lotus.get_by_role("button", name="Confirm deal 1").click()
    expect(lotus.get_by_text(MATCH_OVER)).to_be_visible()

    expect(points).to_have_text("2", timeout=15_000)  # the public page, never reloaded
    expect(score).to_contain_text("final", timeout=15_000)  # and the wall screen
    expect(table).to_have_attribute("data-state", "finished", timeout=15_000)
    for page in (wall, screen, director):
        assert never_reloaded(page)
    with database():
        vias = set(MatchEvent.objects.filter(match=match).values_list("via", flat=True))
    assert any(v.startswith("team-link:0:") for v in vias)
    assert any(v.startswith("team-link:1:") for v in vias)

    # the director gives the first team a new link: the phone that holds the old one stops
    director.goto(f"{base}/desk/{slug}/teams/{match.team0_id}/link/")
    director.get_by_role("button", name=f"Give {match.team0.name} a new link").click()
    director.get_by_role("button", name="Give a new link").click()
    expect(director.get_by_text("the old one no longer works")).to_be_visible()
    tigers.goto(f"{base}/keep/")
    expect(tigers.get_by_role("alert")).to_contain_text("no longer works")
    refused = tigers.goto(f"{base}/keep/{match.pk}/")
    assert refused is not None and refused.status == 403
    expect(tigers.get_by_role("heading", name="This link no longer works")).to_be_visible()
    checked(tigers, "links-stopped-390")
    old = tigers.goto(ours)
    assert old is not None and old.status == 403


def test_a_member_makes_their_account_from_the_invitation_in_a_browser(
    browser: Browser, live_server: Any, live_club: Club, contexts: list[Any]
) -> None:
    from tournaments import clubs

    base = live_server.url
    with database():
        director = live_club.users["director"]
        club = clubs.club_create(actor=director, name="Riverside club")
    desk = signed_in(contexts, browser, base, "director", WIDE)
    desk.goto(f"{base}/clubs/{club.slug}/members/")
    desk.get_by_label("Name").fill("Zoya")
    desk.get_by_role("button", name="Add").click()
    desk.get_by_role("link", name="Zoya").click()
    desk.get_by_role("button", name="Invite Zoya to make an account").click()
    url = desk.locator("#invite-url").input_value()

    zoya = signed_in(contexts, browser, base, None, PHONE)
    zoya.goto(url)
    checked(zoya, "links-invite-390")
    zoya.get_by_label("User name").fill("zoya")
    zoya.get_by_label("Password", exact=True).fill("a long and quiet river")
    zoya.get_by_label("The password again").fill("a long and quiet river")
    zoya.get_by_role("button", name="Make my account").click()  # a real form post, CSRF included
    zoya.wait_for_url(f"{base}/keep/")
    expect(zoya.get_by_text("Welcome, Zoya")).to_be_visible()
    expect(zoya.get_by_role("button", name="Sign out zoya")).to_be_visible()
