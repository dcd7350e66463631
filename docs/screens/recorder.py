"""Take docs/web.md's screenshots of the recorder's page, from the demo, on a 390-pixel phone.

Run the demo first (``make run``: it seeds the "Table night", whose match played with real
cards waits for its score-keeper), then, in another terminal::

    .venv/bin/python docs/screens/recorder.py            # or: ... recorder.py http://127.0.0.1:8000

It drives Debian's Chromium (``/usr/bin/chromium``) with Playwright, as the browser tests do,
signs in as ``scorekeeper`` and records the start of the match as a table would play it (the
demo's match moves on: run it on a fresh demo), writing four PNGs next to itself:

- ``recorder-start.png``: who deals first;
- ``recorder-bid.png``: the bid, its value and the 4 cards turned up, tapped;
- ``recorder-card.png``: North bid 9 with three 9s on the floor; the card North played (4♥)
  tapped, and the moves the engine allows with it;
- ``recorder-breach.png``: North built a house of 9, West captured it with the last 9: both
  of North's promises (B1, H5) broken, shown with the promising and the revealing plays.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from playwright.sync_api import Locator, Page, sync_playwright

HERE = Path(__file__).resolve().parent
PHONE = {"width": 390, "height": 844}
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANKS = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}


def words(code: str) -> str:
    """A card as the page names it aloud (web.words.card): "Ace of spades", "9 of hearts"."""
    return f"{RANKS.get(code[:-1], code[:-1])} of {SUITS[code[-1]]}"


def shot(page: Page, name: str) -> None:
    page.screenshot(path=str(HERE / f"{name}.png"), full_page=True)
    print(f"wrote {HERE / name}.png")


def loaded_again(page: Page, button: Locator) -> None:
    """Tap, and wait for the page the script loads again once the server has the command."""
    with page.expect_event("load"):
        button.click()


def main(base: str) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_context(viewport=PHONE, device_scale_factor=1).new_page()
        page.goto(f"{base}/login/")
        page.get_by_label("User name").fill("scorekeeper")
        page.get_by_label("Password").fill("scorekeeper")
        page.get_by_role("button", name="Sign in").click()
        page.goto(f"{base}/keep/")
        found = re.search(r'href="(/record/\d+/)"', page.content())
        if found is None:
            sys.exit("no table waits for the score-keeper: run the demo (make run) first")
        url = base + found.group(1)
        page.goto(url)
        if not page.get_by_text("Who deals first?").count():
            sys.exit("the demo's table match has started already: seed a fresh demo")
        shot(page, "recorder-start")
        page.get_by_label("East:").check()
        loaded_again(page, page.get_by_role("button", name="Start the match"))
        page.get_by_label("Bid 9").check()
        for card in ("9S", "9H", "9D", "5C"):
            page.get_by_role("checkbox", name=words(card), exact=True).check()
        shot(page, "recorder-bid")
        loaded_again(page, page.get_by_role("button", name="Record the bid"))
        page.get_by_role("link", name=words("4H")).first.click()
        shot(page, "recorder-card")
        loaded_again(page, page.get_by_role("button", name=re.compile("Build a house of 9")))
        page.get_by_role("link", name=words("9C")).first.click()
        loaded_again(page, page.get_by_role("button", name=re.compile("Capture the house of 9")))
        shot(page, "recorder-breach")
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000")
