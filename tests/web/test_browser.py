"""The pages in a real browser: Debian's headless Chromium driven by Playwright for Python
(``executable_path``: no tool downloads a browser of its own), against a live server.

- a score-keeper enters a deal on a phone-sized screen, someone of the other team confirms on
  a second browser context, and the public standings, open in a third, show it without a
  reload; a phone that loses its connection keeps the entry and sends it when it is back;
- every page at 1280 and 390 pixels: a screenshot (test-artifacts/screenshots/, gitignored)
  and an axe-core scan (from npm, package-lock.json) with no serious or critical violation.

``make test`` installs both tools (the Makefile's browser-tools); without them these tests
are skipped, and under SEEP_CI=1 they fail.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tournaments.models import Match

# Playwright's names from .browser, which first skips this module without the browser tools
from .browser import (
    MATCH_OVER,
    PHONE,
    SHOTS,
    WIDE,
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
from .checks import every_page
from .conftest import Club, friendly
from .test_browser_offline import held

pytestmark = pytest.mark.django_db(transaction=True)


def standing(page: Page, team: str) -> Any:
    return page.locator(f'tr[data-team="{team}"] [data-points]')


def test_a_deal_entered_on_a_phone_and_confirmed_on_another_shows_on_the_wall(
    browser: Browser, live_server: Any, live_club: Club, contexts: list[Any]
) -> None:
    base, match = live_server.url, live_club.matches[0]
    wall = signed_in(contexts, browser, base, None, WIDE)
    wall.goto(f"{base}/t/{live_club.tournament.slug}/")
    mark_loaded(wall)
    expect(standing(wall, match.team0.name)).to_have_text("0")

    keeper = signed_in(contexts, browser, base, "scorekeeper", PHONE)
    keeper.goto(f"{base}/keep/")
    keeper.get_by_role("link", name=f"{match.team0.name} v {match.team1.name}").click()
    keeper.wait_for_url(f"**/keep/{match.pk}/")
    keeper.wait_for_load_state("load")  # the page's script listens from here on
    keeper.get_by_label(f"Card points of {match.team0.name}").fill("64")
    points_b = keeper.get_by_label(f"Card points of {match.team1.name}")
    expect(points_b).to_have_value("36")  # filled in as the first is typed
    expect(keeper.locator("[data-sum]")).to_have_text("64 + 36 = 100 ✓")
    points_b.fill("30")
    expect(keeper.locator("[data-sum]")).to_contain_text("must add up to 100")
    points_b.fill("36")
    keeper.get_by_role("button", name=f"One more sweep for {match.team0.name}").click()
    keeper.get_by_role("button", name="Send deal 1").click()
    expect(keeper.get_by_text("Waiting for the other team to confirm")).to_be_visible()

    other = signed_in(contexts, browser, base, live_club.player_of(match, 1), PHONE)
    other.goto(f"{base}/keep/{match.pk}/")
    expect(other.get_by_text("64 + sweeps 50")).to_be_visible()
    other.get_by_role("button", name="Confirm deal 1").click()
    expect(other.get_by_text(MATCH_OVER)).to_be_visible()

    # the wall was never reloaded: its live part polled, got a new ETag, and redrew itself
    expect(standing(wall, match.team0.name)).to_have_text("2", timeout=15_000)
    assert never_reloaded(wall)
    expect(keeper.locator("#live").get_by_text(MATCH_OVER)).to_be_visible(timeout=15_000)


def test_a_phone_that_loses_its_connection_keeps_the_entry_and_sends_it_later(
    browser: Browser, live_server: Any, live_club: Club, contexts: list[Any]
) -> None:
    base, match = live_server.url, live_club.matches[1]
    keeper = signed_in(contexts, browser, base, "scorekeeper", PHONE)
    keeper.goto(f"{base}/keep/{match.pk}/")
    keeper.get_by_label(f"Card points of {match.team0.name}").fill("45")
    keeper.context.set_offline(True)
    keeper.get_by_role("button", name="Send deal 1").click()
    expect(keeper.get_by_text("No connection. Your entry is kept on this phone")).to_be_visible()
    with database():
        assert not Match.objects.get(pk=match.pk).events.filter(kind="deal_entered").exists()
    expect(keeper.locator("#phone-state")).to_contain_text("Waiting to be sent (1)")
    outbox = held(keeper)
    assert [item["fields"]["points_a"] for item in outbox] == ["45"]
    keeper.context.set_offline(False)
    expect(keeper.get_by_text("Waiting for the other team to confirm")).to_be_visible()
    with database():
        entered = Match.objects.get(pk=match.pk).events.filter(kind="deal_entered")
        assert [e.payload["points"] for e in entered] == [[45, 55]]  # once
    assert held(keeper) == []


def test_a_refused_entry_says_why_and_can_be_sent_again(
    browser: Browser, live_server: Any, live_club: Club, contexts: list[Any]
) -> None:
    with database():
        match = friendly(live_club)
    base = live_server.url
    keeper = signed_in(contexts, browser, base, "scorekeeper", PHONE)
    keeper.goto(f"{base}/keep/{match.pk}/")
    keeper.wait_for_load_state("load")
    keeper.get_by_label(f"Card points of {match.team0.name}").fill("70")
    # meanwhile a player of the match enters the deal from their own phone
    with database():
        other = live_club.client(live_club.player_of(match, 1))
        other.post(
            f"/keep/{match.pk}/enter/",
            {
                "expected_seq": match.last_seq,
                "client_id": "other-phone-1",
                "points_a": 70,
                "points_b": 30,
                "sweeps_a": 0,
                "sweeps_b": 0,
            },
        )
    send = keeper.get_by_role("button", name="Send deal 1")
    send.click()
    expect(keeper.get_by_text("Something was recorded in this match since")).to_be_visible()
    expect(send).to_be_enabled()
    expect(keeper.get_by_label(f"Card points of {match.team0.name}")).to_have_value("70")
    send.click()  # at the match's head now: the store says why it still cannot take it
    expect(keeper.get_by_text("was entered already and waits for the other team")).to_be_visible()
    with database():
        assert Match.objects.get(pk=match.pk).events.filter(kind="deal_entered").count() == 1


def test_every_page_at_two_widths_has_a_screenshot_and_no_serious_axe_violation(
    browser: Browser, live_server: Any, live_club: Club, contexts: list[Any]
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    started = time.time()  # the folder is kept between runs: count this run's shots only
    base = live_server.url
    pages: dict[tuple[str | None, str], Page] = {}
    problems = {}
    for name, url, who in every_page(live_club):
        for label, viewport in (("1280", WIDE), ("390", PHONE)):
            key = (who, label)
            if key not in pages:
                pages[key] = signed_in(contexts, browser, base, who, viewport)
            page = pages[key]
            response = page.goto(base + url)
            assert response is not None and response.status == 200, (name, url)
            page.screenshot(path=str(SHOTS / f"{name}-{label}.png"), full_page=True)
            width = page_width(page)
            assert width <= viewport["width"], f"{name} is {width} px wide at {label}"
            serious = serious_violations(page)
            if serious:
                problems[f"{name}@{label}"] = serious
    assert not problems, problems
    fresh = [p for p in SHOTS.glob("*.png") if p.stat().st_mtime >= started - 1]
    assert len(fresh) >= 2 * len(every_page(live_club))
    # the wall screen's at a projector's size, the printed cards' at A4's width (794 px)
    named = r"[\w-]+-(1280|390|794|1920x1080)\.png"
    assert all(re.fullmatch(named, p.name) for p in SHOTS.glob("*.png"))


def test_the_admin_and_the_apis_docs_work_under_the_content_security_policy(
    browser: Browser, live_server: Any, live_club: Club, contexts: list[Any]
) -> None:
    """Every page here is watched for what the policy refuses (``closing``): the admin's and
    Swagger UI's scripts are files, so they run, and none of them is refused."""
    base = live_server.url
    page = signed_in(contexts, browser, base, "director", WIDE)
    for url in (
        "/admin/",
        "/admin/tournaments/tournament/",
        f"/admin/tournaments/tournament/{live_club.tournament.pk}/change/",
    ):
        response = page.goto(base + url)
        assert response is not None and response.status == 200, url
        assert "script-src 'self'" in response.headers["content-security-policy"]
    # the change form, its scripts (files) loaded, none refused
    expect(page.locator("#tournament_form")).to_be_visible()
    docs = page.goto(base + "/api/docs/")
    assert docs is not None and docs.status == 200
    # drawn by its script, from the whole schema (seconds on a busy machine)
    expect(page.locator(".swagger-ui .opblock").first).to_be_visible(timeout=30_000)
