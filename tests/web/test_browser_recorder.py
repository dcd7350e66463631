"""The recorder's page in a real browser (Debian's Chromium), at 390 pixels: a recorded
digital deal recorded card by card at a table, by tapping, ends with the digital deal's score;
a breach entered on purpose is shown at once with its rule; an illegal play is refused in
words; a play sent with no connection is kept and written once; the last play undone. Every
step's page is axe-scanned, no wider than the phone, and screenshotted.

The first plays go through the page's script (``keeper.js``: sent with fetch, kept on the
phone until the server has them); the rest of the deal in a browser without JavaScript, as
plain forms, so the long flow needs no waiting for the script's reload."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import seep_core as sc
from tests.engine.test_table_mode import at_the_table
from tournaments.models import Match, MatchEvent
from tournaments.services import match_create
from web import moves

from .browser import (
    MATCH_OVER,
    PHONE,
    SHOTS,
    Browser,
    Page,
    checked,
    database,
    expect,
    signed_in,
)
from .conftest import Club

pytestmark = pytest.mark.django_db(transaction=True)

#: a recorded digital deal (random play, seat 3 dealing, the default rules)
DEAL = json.loads((Path(__file__).parents[1] / "data" / "deals" / "random-505.json").read_text())


def table_match(club: Club) -> Match:
    with database():
        first, second = club.matches[0].team0, club.matches[0].team1
        match = match_create(
            tournament=club.tournament, team0=first, team1=second, mode="table",
            match_format={"deal_cap": 1},
        )  # fmt: skip
        match.scorekeepers.add(club.users["scorekeeper"])
    return match


def words(code: str) -> str:
    """A card as the pages name it aloud: "Ace of spades", "10 of diamonds"."""
    rank = dict(A="Ace", J="Jack", Q="Queen", K="King").get(code[:-1], code[:-1])
    return f"{rank} of {dict(S='spades', H='hearts', D='diamonds', C='clubs')[code[-1]]}"


def recorded(match: Match, kind: str) -> int:
    with database():
        return MatchEvent.objects.filter(match=match, kind=kind).count()


def start_and_bid(page: Page, base: str, match: Match, bid: dict[str, Any]) -> None:
    """Start the match (seat 3 deals first) and record the bid, by tapping."""
    page.goto(f"{base}/record/{match.pk}/")
    page.get_by_label("East:").check()
    page.get_by_role("button", name="Start the match").click()
    expect(page.get_by_role("button", name="Record the bid")).to_be_visible()
    page.get_by_label(f"Bid {bid['value']}").check()
    for card in bid["floor"]:
        page.get_by_role("checkbox", name=words(card), exact=True).check()
    page.get_by_role("button", name="Record the bid").click()
    expect(page.get_by_text(f"and bid {bid['value']}")).to_be_visible()


def tap_play(page: Page, base: str, match: Match, move: dict[str, Any]) -> None:
    """Tap the card, then the move (the button whose key is the move's)."""
    page.get_by_role("link", name=words(move["card"]), exact=False).first.click()
    page.locator(f"button[name=move][value='{moves.key(move)}']").click()


def test_a_digital_deal_recorded_card_by_card_ends_with_the_digital_score(
    browser: Browser, live_server: Any, live_club: Club, contexts: list[Any]
) -> None:
    base, match = live_server.url, table_match(live_club)
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert DEAL["dealer"] == 3 and "rules" not in DEAL
    digital = sc.replay(sc.new_deal(DEAL["dealer"], DEAL["deck"]), DEAL["moves"])
    table = at_the_table(DEAL["deck"], DEAL["moves"])
    shadow: Any = sc.new_table_deal(DEAL["dealer"])  # to name each move as the engine lists it
    played = []
    for move in table:
        canonical, shadow = sc.play(shadow, move)
        played.append(canonical)

    phone = signed_in(contexts, browser, base, "scorekeeper", PHONE)
    phone.goto(f"{base}/record/{match.pk}/")
    checked(phone, "recorder-start-390")
    start_and_bid(phone, base, match, played[0])
    checked(phone, "recorder-play-390")
    # the floor is above the 52 cards to choose from (on the screen while choosing), and the
    # suits differ by colour as well as by glyph
    floor = phone.locator("#floor").bounding_box()
    grid = phone.locator("[role=grid].card-grid").bounding_box()
    assert floor is not None and grid is not None and floor["y"] < grid["y"]
    colours = {
        suit: phone.locator(
            f'.card-grid [role=gridcell][data-suit="{suit}"] .card-pick:not(.no-play)'
        ).first.evaluate("el => getComputedStyle(el).color")
        for suit in "HDCS"
    }
    assert len(set(colours.values())) == 4, colours
    # the first play through the script, with the connection lost as it is sent
    first = played[1]
    phone.get_by_role("link", name=words(first["card"])).first.click()
    checked(phone, "recorder-card-390")
    phone.context.set_offline(True)
    phone.locator(f"button[name=move][value='{moves.key(first)}']").click()
    expect(phone.get_by_text("No connection. Your entry is kept on this phone")).to_be_visible()
    assert recorded(match, "move_played") == 1
    phone.context.set_offline(False)
    expect(phone.get_by_text("Last recorded: play 1")).to_be_visible()
    assert recorded(match, "move_played") == 2  # the bid and this play, once
    # the rest as plain forms (no script): a tap on the card, a tap on the move
    plain = browser.new_context(viewport=PHONE, java_script_enabled=False)
    contexts.append(plain)
    forms = plain.new_page()
    forms.set_default_timeout(15_000)
    forms.goto(f"{base}/login/")
    forms.get_by_label("User name").fill("scorekeeper")
    forms.get_by_label("Password").fill("scorekeeper")
    forms.get_by_role("button", name="Sign in").click()
    forms.goto(f"{base}/record/{match.pk}/")
    for n, move in enumerate(played[2:], start=2):
        tap_play(forms, base, match, move)
        if n < len(played) - 1:
            expect(forms.get_by_text(f"Last recorded: play {n}")).to_be_visible()
    score = forms.locator("[data-deal-score]")
    expect(score).to_have_text(
        f"{match.team0.name} {sc.score(digital)['total'][0]} \u2013 "
        f"{sc.score(digital)['total'][1]} {match.team1.name}"
    )
    assert sc.score(digital) == DEAL["expected"]["score"]
    with database():
        ended = MatchEvent.objects.get(match=match, kind="deal_ended").payload
    assert {k: ended[k] for k in ("points", "sweeps", "total")} == sc.score(digital)
    assert ended["breaches"] == []
    expect(forms.get_by_text(MATCH_OVER)).to_be_visible()
    phone.goto(f"{base}/record/{match.pk}/")  # axe runs where scripts run
    expect(phone.locator("[data-deal-score]")).to_have_text(score.inner_text())
    checked(phone, "recorder-deal-score-390")


def test_a_breach_is_shown_with_its_rule_an_illegal_play_refused_and_a_play_undone(
    browser: Browser, live_server: Any, live_club: Club, contexts: list[Any]
) -> None:
    base, match = live_server.url, table_match(live_club)
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone = signed_in(contexts, browser, base, "scorekeeper", PHONE)
    # bid 9 with three 9s on the floor: the bidder promises the last 9 (B1)
    start_and_bid(phone, base, match, {"value": 9, "floor": ["9S", "9H", "9D", "5C"]})
    # an illegal play: the opening play thrown off the bid (the engine's words, its rule)
    phone.get_by_role("link", name=words("2H")).first.click()
    phone.get_by_role("button", name="Throw 2 of hearts loose anyway").click()
    refusal = phone.locator("#connection")
    expect(refusal).to_contain_text(
        "The opening play must use the bid value 9: you cannot throw a 2 (B4)."
    )
    checked(phone, "recorder-refused-390")
    assert recorded(match, "move_played") == 1
    # North builds a house of 9 (H5: keeping a 9); the play undone, then made again
    build = {"seat": 0, "action": "build", "card": "4H", "value": 9,
             "take": ["5C", "9S", "9H", "9D"]}  # fmt: skip
    phone.goto(f"{base}/record/{match.pk}/")
    tap_play(phone, base, match, build)
    expect(phone.get_by_text("Last recorded: play 1")).to_be_visible()
    phone.get_by_role("button", name="Undo this play").click()
    expect(phone.get_by_text("Last recorded: play 1")).to_have_count(0)
    assert recorded(match, "move_withdrawn") == 1
    tap_play(phone, base, match, build)
    expect(phone.get_by_text("Last recorded: play 1")).to_be_visible()
    # West captures the house with the last 9: both promises are broken, shown at once
    tap_play(phone, base, match, {"seat": 1, "action": "capture", "card": "9C", "take": ["H9"]})
    alert = phone.get_by_role("alert")
    expect(alert).to_contain_text("Rule B1")
    expect(alert).to_contain_text("Rule H5")
    expect(alert).to_contain_text("Promised at play 0")
    expect(alert).to_contain_text("Shown broken by play 2")
    checked(phone, "recorder-breach-390")
