"""One phone a table in a real browser (Debian's Chromium), at 390 pixels: the table's phone
enters a deal for its team, refuses the other team's wrong code and the phone's own team's
code in words, locks itself out after the last wrong try (the director's board says so and
lets it try again), then takes the other team's code from its card and the deal counts.
Every page axe-clean, none wider than the phone."""

from __future__ import annotations

from typing import Any

import pytest

from tournaments import phones
from tournaments.models import MatchEvent, TeamLink

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
    signed_in,
)
from .conftest import Club, make_club

pytestmark = pytest.mark.django_db(transaction=True)


def card(director: Page, base: str, slug: str, team_id: int) -> tuple[str, str]:
    """The team's card, as its director's page shows it: its link and its code."""
    director.goto(f"{base}/desk/{slug}/teams/{team_id}/link/")
    return (
        director.locator(".card-url").inner_text().strip(),
        director.locator("[data-code]").inner_text().strip(),
    )


def type_code(page: Page, code: str) -> None:
    box = page.get_by_label("Their code", exact=False)
    if not box.is_visible():  # folded away until the table has used a code
        page.get_by_text("The other team is at this phone?").click()
    box.fill(code)
    page.get_by_role("button", name="Confirm deal 1 with their code").click()
    page.wait_for_load_state("load")


def test_one_phone_takes_the_other_teams_code_and_locks_out_a_guesser(
    browser: Browser, live_server: Any, live_club: Club, contexts: list[Any]
) -> None:
    base, match, slug = live_server.url, live_club.matches[0], live_club.tournament.slug
    SHOTS.mkdir(parents=True, exist_ok=True)
    director = signed_in(contexts, browser, base, "director", WIDE)
    ours, own_code = card(director, base, slug, match.team0_id)
    _theirs, their_code = card(director, base, slug, match.team1_id)
    checked(director, "one-phone-card-1280")
    wrongs = [c for c in ("111 111", "222 222", "333 333", "444 444", "555 555", "666 666")]
    wrongs = [c for c in wrongs if c not in (own_code, their_code)][: phones.CODE_TRIES]
    assert len(wrongs) == phones.CODE_TRIES

    table = signed_in(contexts, browser, base, None, PHONE)  # the table's one phone
    table.goto(ours)
    table.wait_for_url("**/keep/")
    table.goto(f"{base}/keep/{match.pk}/")
    table.get_by_label(f"Card points of {match.team0.name}").fill("64")
    table.get_by_role("button", name="Send deal 1").click()
    expect(table.get_by_text("Waiting for the other team to confirm")).to_be_visible()
    # two phones see the box folded away; the table opens it
    expect(table.get_by_label("Their code", exact=False)).to_be_hidden()
    table.get_by_text("The other team is at this phone?").click()
    expect(table.get_by_label("Their code", exact=False)).to_be_visible()
    checked(table, "one-phone-entered-390")

    type_code(table, wrongs[0])
    expect(table.get_by_text("That is not the other team's code", exact=False)).to_be_visible()
    expect(table.get_by_text("4 more tries", exact=False)).to_be_visible()
    # a table that typed a code plays on one phone: the box stands open from now on
    expect(table.get_by_label("Their code", exact=False)).to_be_visible()
    checked(table, "one-phone-wrong-390")
    type_code(table, own_code)
    expect(table.get_by_text("That is your own team's code", exact=False)).to_be_visible()
    for wrong in wrongs[1:]:
        type_code(table, wrong)
    expect(table.get_by_text("too many wrong codes", exact=False).first).to_be_visible()
    expect(table.get_by_label("Their code", exact=False)).to_have_count(0)
    checked(table, "one-phone-locked-390")
    with database():
        assert not MatchEvent.objects.filter(match=match, kind="deal_confirmed").exists()

    director.goto(f"{base}/desk/{slug}/board/")
    mark_loaded(director)
    row = director.locator(f"#match-{match.pk}")
    expect(row).to_contain_text("Locked out of codes")
    expect(row).to_contain_text("Needs you")
    expect(row).to_contain_text(f"One phone: the table plays on {match.team0.name}'s phone")
    expect(row).to_contain_text("Phones last heard:")
    checked(director, "one-phone-board-1280")
    row.get_by_role("button", name="Let it try codes again", exact=False).click()
    expect(director.get_by_text("may type codes again", exact=False)).to_be_visible()
    expect(director.locator(f"#match-{match.pk}")).not_to_contain_text("Locked out of codes")

    table.goto(f"{base}/keep/{match.pk}/")
    type_code(table, their_code)
    expect(table.get_by_text(MATCH_OVER)).to_be_visible()
    checked(table, "one-phone-confirmed-390")
    with database():
        confirmed = MatchEvent.objects.get(match=match, kind="deal_confirmed")
        phone_link = TeamLink.objects.get(team_id=match.team0_id, revoked_at__isnull=True)
    assert confirmed.via.startswith("team-link:1:")
    assert confirmed.via.endswith(f":code-on:{phone_link.pk}")


@pytest.fixture
def both_enter_club(transactional_db: None) -> Club:
    """The small club, its stage's sides both entering each deal."""
    with database():
        return make_club(tag="both-", confirmation="both_enter")


def test_one_phone_where_both_sides_enter_takes_the_other_teams_numbers_with_its_code(
    browser: Browser, live_server: Any, both_enter_club: Club, contexts: list[Any]
) -> None:
    base, match = live_server.url, both_enter_club.matches[0]
    slug = both_enter_club.tournament.slug
    SHOTS.mkdir(parents=True, exist_ok=True)
    director = signed_in(contexts, browser, base, "both-director", WIDE)
    ours, _own = card(director, base, slug, match.team0_id)
    _theirs, their_code = card(director, base, slug, match.team1_id)

    table = signed_in(contexts, browser, base, None, PHONE)
    table.goto(ours)
    table.wait_for_url("**/keep/")
    table.goto(f"{base}/keep/{match.pk}/")
    table.get_by_label(f"Card points of {match.team0.name}").fill("64")
    table.get_by_role("button", name="Send deal 1").click()
    expect(table.get_by_text("Waiting for the other side's entry")).to_be_visible()
    table.get_by_text("The other team is at this phone?").click()
    checked(table, "one-phone-both-enter-box-390")
    box = table.locator("[data-code-form] form")
    box.get_by_label(f"Card points of {match.team1.name}", exact=False).fill("36")
    box.get_by_label("Their code", exact=False).fill(their_code)
    box.get_by_role("button", name="Enter their numbers for deal 1 with their code").click()
    table.wait_for_load_state("load")
    expect(
        table.get_by_text(f"Deal 1 entered by {match.team1.name} with their code.")
    ).to_be_visible()
    checked(table, "one-phone-both-enter-counted-390")
    with database():
        ended = MatchEvent.objects.get(match=match, kind="deal_ended")
        lotus = TeamLink.objects.get(team=match.team1, revoked_at__isnull=True)
        entered = MatchEvent.objects.filter(match=match, kind="deal_entered").order_by("seq")
        assert ended.payload["points"] == [64, 36]
        assert entered.last().via.startswith(f"team-link:1:{lotus.pk}:code-on:")
