"""A dispute settled at the table in a real browser (issue 38): the team that entered a deal
sees the other team's numbers appear on its phone without a reload, accepts them with one
tap, and the deal counts with them; the other team's phone shows the match over."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.models import DealResult
from tournaments.models import Match

# Playwright's names from .browser, which first skips this module without the browser tools
from .browser import MATCH_OVER, PHONE, Browser, database, expect, signed_in
from .conftest import Club

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_entering_team_accepts_the_other_teams_numbers_on_its_phone(
    browser: Browser, live_server: Any, live_club: Club, contexts: list[Any]
) -> None:
    base, match = live_server.url, live_club.matches[0]
    ours = signed_in(contexts, browser, base, live_club.player_of(match, 0), PHONE)
    ours.goto(f"{base}/keep/{match.pk}/")
    ours.wait_for_load_state("load")
    ours.get_by_label(f"Card points of {match.team0.name}").fill("64")
    ours.get_by_role("button", name="Send deal 1").click()
    expect(ours.get_by_role("button", name="Withdraw our entry")).to_be_visible()
    expect(ours.get_by_role("button", name="Accept their numbers")).to_have_count(0)

    theirs = signed_in(contexts, browser, base, live_club.player_of(match, 1), PHONE)
    theirs.goto(f"{base}/keep/{match.pk}/")
    theirs.get_by_label("Not right? Say what is wrong").fill("You had 60")
    theirs.get_by_text("Your numbers for deal 1").click()
    theirs.locator('[id="version-1-points-a"]').fill("60")
    theirs.locator('[id="version-1-points-b"]').fill("40")
    theirs.get_by_role("button", name="Reject").click()
    expect(theirs.get_by_text("Deal 1 is disputed")).to_be_visible()
    expect(theirs.get_by_role("button", name="Accept their numbers")).to_have_count(0)

    # our phone, never reloaded, now offers their numbers
    accept = ours.get_by_role("button", name="Accept their numbers")
    expect(accept).to_be_visible(timeout=15_000)
    expect(
        ours.get_by_text(f"Their numbers, from {match.team1.name}: {match.team0.name} 60")
    ).to_be_visible()
    accept.click()
    expect(ours.get_by_text(MATCH_OVER)).to_be_visible()
    with database():
        counted = DealResult.objects.filter(match=Match.objects.get(pk=match.pk))
        assert [(d.points0, d.points1) for d in counted] == [(60, 40)]
    expect(theirs.locator("#live").get_by_text(MATCH_OVER)).to_be_visible(timeout=15_000)
