"""The director's live board and the wall screen in a real browser (Debian's headless Chromium,
Playwright): a deal entered elsewhere appears on the board without a reload, the director
confirms it there with one tap, and the wall screen, never reloaded, shows the result; the
wall cycles through panels that each fit 1920x1080 without scrolling. Screenshots of the board
at 1280 pixels and of the wall at 1920x1080 (test-artifacts/screenshots/), axe-core with no
serious or critical violation, and no page wider than its screen.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tournaments import matchlog
from tournaments.models import Match, MatchEvent
from tournaments.services import match_append_event

# Playwright's names from .browser, which first skips this module without the browser tools
from .browser import (
    SHOTS,
    WIDE,
    Browser,
    database,
    expect,
    mark_loaded,
    never_reloaded,
    page_width,
    serious_violations,
    signed_in,
)
from .conftest import Club, make_club

pytestmark = pytest.mark.django_db(transaction=True)
PROJECTOR = {"width": 1920, "height": 1080}
BIG = [f"Team {n:02d}" for n in range(16)]


@pytest.fixture
def live_club(transactional_db: None) -> Club:
    with database():
        return make_club(teams=BIG)


def fits(page: Any, viewport: dict[str, int]) -> None:
    width = page_width(page)
    assert width <= viewport["width"], f"{page.url} is {width} px wide"
    assert not serious_violations(page), page.url


def test_an_entry_made_elsewhere_appears_on_the_board_and_the_wall_without_a_reload(
    browser: Browser, live_server: Any, live_club: Club, contexts: list[Any]
) -> None:
    base, slug = live_server.url, live_club.tournament.slug
    match = live_club.matches[0]
    board = signed_in(contexts, browser, base, "director", WIDE)
    board.goto(f"{base}/desk/{slug}/")
    board.get_by_role("link", name="the live board").click()
    board.wait_for_url(f"**/desk/{slug}/board/")
    mark_loaded(board)
    card = board.locator(f"#match-{match.pk}")
    expect(card).to_have_attribute("data-state", "playing")
    wall = signed_in(contexts, browser, base, None, PROJECTOR)
    wall.goto(f"{base}/t/{slug}/wall/?seconds=2")
    mark_loaded(wall)
    with database():
        fixture = Match.objects.get(pk=match.pk).fixture.pk  # type: ignore[attr-defined]
    score = wall.locator(f'tr[data-fixture="{fixture}"] [data-score]')
    expect(score).to_have_text("0 \N{EN DASH} 0")  # started, nothing counted yet

    with database():  # a score-keeper enters deal 1 on their own phone
        keeper = live_club.client("scorekeeper")
        match.refresh_from_db()
        response = keeper.post(
            f"/keep/{match.pk}/enter/",
            {
                "expected_seq": match.last_seq,
                "client_id": "board-browser-1",
                "points_a": 64,
                "points_b": 36,
                "sweeps_a": 0,
                "sweeps_b": 0,
            },
        )
        assert response.status_code == 302
        disputed = live_club.matches[1]  # and at another table a deal is disputed
        response = keeper.post(
            f"/keep/{disputed.pk}/enter/",
            {
                "expected_seq": disputed.last_seq,
                "client_id": "board-browser-2",
                "points_a": 70,
                "points_b": 30,
                "sweeps_a": 0,
                "sweeps_b": 0,
            },
        )
        disputed.refresh_from_db()
        match_append_event(
            match=disputed,
            expected_seq=disputed.last_seq,
            kind=matchlog.Kind.DEAL_REJECTED,
            payload={"entry": 1, "reason": "We had 35", "points": [65, 35], "sweeps": [[], []]},
            actor=live_club.users[live_club.player_of(disputed, 1)],
        )

    # the board was never reloaded: its live part polled and redrew the table
    expect(card).to_have_attribute("data-state", "awaiting", timeout=15_000)
    expect(card).to_contain_text("Awaiting confirmation: deal 1")
    expect(card).to_contain_text(f"{match.team0.name} 64")
    other = board.locator(f"#match-{disputed.pk}")
    expect(other).to_have_attribute("data-state", "disputed", timeout=15_000)
    expect(other).to_contain_text("Needs you")
    expect(other.get_by_role("button", name=re.compile(r"^Count .*'s version"))).to_be_visible()
    assert never_reloaded(board)
    SHOTS.mkdir(parents=True, exist_ok=True)
    board.screenshot(path=str(SHOTS / "live-board-awaiting-1280.png"), full_page=True)
    fits(board, WIDE)

    card.get_by_role("button", name="Confirm deal 1").click()  # one tap
    expect(board.get_by_text("the entry is confirmed and counted")).to_be_visible()
    expect(board.locator(f"#match-{match.pk}")).to_have_attribute("data-state", "finished")
    with database():
        confirmed = MatchEvent.objects.get(match=match, kind="deal_confirmed")
        assert confirmed.actor == live_club.users["director"]
        assert Match.objects.get(pk=match.pk).status == "finished"

    # the wall, never reloaded either, shows the result and the standings that follow
    expect(score).to_contain_text("final", timeout=15_000)
    points = wall.locator(f'tr[data-team="{match.team0.name}"] [data-points]')
    expect(points).to_have_text("2", timeout=15_000)
    assert never_reloaded(wall)


def test_the_wall_shows_one_panel_at_a_time_each_fitting_a_projector(
    browser: Browser, live_server: Any, live_club: Club, contexts: list[Any]
) -> None:
    base, slug = live_server.url, live_club.tournament.slug
    wall = signed_in(contexts, browser, base, None, PROJECTOR)
    wall.goto(f"{base}/t/{slug}/wall/?seconds=2")
    panels = wall.locator("[data-panel]")
    keys = [panels.nth(i).get_attribute("data-panel") for i in range(panels.count())]
    assert [k.split("-")[0] for k in keys if k] == ["pairings", "standings", "standings"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    seen = []
    for key in keys:
        expect(wall.locator("#wall")).to_have_attribute("data-showing", key or "", timeout=10_000)
        assert wall.locator("[data-panel]:visible").count() == 1
        height = wall.evaluate("document.documentElement.scrollHeight")
        assert height <= PROJECTOR["height"], f"panel {key} is {height} px tall"
        fits(wall, PROJECTOR)
        name = "wall-1920x1080.png" if not seen else f"wall-{key}-1920x1080.png"
        wall.screenshot(path=str(SHOTS / name))
        seen.append(key)
    assert seen == keys
    wall.get_by_role("button", name="Pause").click()
    showing = wall.locator("#wall").get_attribute("data-showing")
    wall.wait_for_timeout(2500)
    assert wall.locator("#wall").get_attribute("data-showing") == showing
