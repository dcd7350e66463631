"""One phone a table opened from its table card, in a real browser (Debian's Chromium) at 390
pixels: the director prints the round's cards, the table's phone opens the table card's link,
Tigers enter a deal with their code, Lotus confirm it with theirs, and the deal counts with
the log naming both teams. Every page axe-clean, none wider than the phone."""

from __future__ import annotations

from typing import Any

import pytest

from tournaments.models import MatchEvent

from .browser import (
    PHONE,
    SHOTS,
    WIDE,
    Browser,
    checked,
    database,
    expect,
    signed_in,
)
from .conftest import Club

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_table_cards_phone_enters_with_one_teams_code_and_confirms_with_the_other(
    browser: Browser, live_server: Any, live_club: Club, contexts: list[Any]
) -> None:
    base, match, slug = live_server.url, live_club.matches[0], live_club.tournament.slug
    SHOTS.mkdir(parents=True, exist_ok=True)
    director = signed_in(contexts, browser, base, "director", WIDE)
    codes = []
    for team_id in (match.team0_id, match.team1_id):
        director.goto(f"{base}/desk/{slug}/teams/{team_id}/link/")
        codes.append(director.locator("[data-code]").inner_text().strip())
    tigers, lotus = codes
    director.goto(f"{base}/desk/{slug}/rounds/{live_club.round.pk}/cards/")
    cards = director.locator("[data-table-card]")
    expect(cards).to_have_count(len(live_club.matches))
    checked(director, "table-card-cards-1280")
    url = next(
        text
        for text in (cards.nth(i).locator(".card-url").inner_text().strip() for i in range(2))
        if f"/tc/{match.pk}." in text
    )

    table = signed_in(contexts, browser, base, None, PHONE)  # the table's one phone scans it
    table.goto(url)
    table.wait_for_url(f"**/table/{match.pk}/")
    assert "/tc/" not in table.url  # the key left the address
    expect(table.get_by_text("the table's one phone, for both teams")).to_be_visible()
    checked(table, "table-card-open-390")
    table.get_by_label(f"Card points of {match.team0.name}").fill("64")
    table.get_by_label("Your team's code", exact=False).fill(tigers)
    table.get_by_role("button", name="Enter deal 1 with your team's code").click()
    table.wait_for_load_state("load")
    expect(table.get_by_text(f"Deal 1 entered by {match.team0.name}:", exact=False)).to_be_visible()
    checked(table, "table-card-entered-390")
    table.get_by_label("The other team's code", exact=False).fill(tigers)  # their own: refused
    table.get_by_role("button", name="Confirm deal 1 with the other team's code").click()
    table.wait_for_load_state("load")
    expect(
        table.get_by_text("That is the code of the team that entered", exact=False)
    ).to_be_visible()
    checked(table, "table-card-own-code-390")
    table.get_by_label("The other team's code", exact=False).fill(lotus)
    table.get_by_role("button", name="Confirm deal 1 with the other team's code").click()
    table.wait_for_load_state("load")
    expect(
        table.get_by_text(f"Deal 1 confirmed by {match.team1.name} with their code.")
    ).to_be_visible()
    checked(table, "table-card-confirmed-390")
    expect(table.get_by_text("This match is over: nothing more is entered")).to_be_visible()
    late = signed_in(contexts, browser, base, None, PHONE)  # the card of a match played out
    late.goto(url)
    expect(late.get_by_text("This table card's match is over", exact=False)).to_be_visible()
    checked(late, "table-card-over-390")
    with database():
        entered = MatchEvent.objects.get(match=match, kind="deal_entered")
        confirmed = MatchEvent.objects.get(match=match, kind="deal_confirmed")
        assert MatchEvent.objects.filter(match=match, kind="deal_ended").exists()
    assert entered.via.startswith("team-link:0:") and entered.via.endswith(f":table-{match.pk}")
    assert confirmed.via.startswith("team-link:1:")
    assert confirmed.via.endswith(f":code-on:table-{match.pk}")
