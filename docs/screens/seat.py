"""Take docs/web.md's screenshots of the seat page, from the demo, on a 390-pixel phone.

Run the demo first (``make run``: it seeds the "Online friendly", whose digital match waits
for its players), then, in another terminal::

    .venv/bin/python docs/screens/seat.py            # or: ... seat.py http://127.0.0.1:8000

It drives Debian's Chromium (``/usr/bin/chromium``) with Playwright, as the browser tests do,
and writes three PNGs next to itself:

- ``seat-choose.png``: a phone that opened the Jokers' private link asks who is holding it;
- ``seat-bid.png``: the bidder's page, their first four cards and the bids they may make;
- ``seat-play.png``: the bidder again after bidding the first value offered (the script
  makes that bid: the demo's match moves on by one bid), a card tapped, its moves shown.

The demo deals from ``secrets``, so the cards differ from run to run; the pages do not.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

HERE = Path(__file__).resolve().parent
PHONE = {"width": 390, "height": 844}
#: the Online friendly's players (the demo's user name and password: the name in lower case)
PLAYERS = ("anil", "bina", "govind", "hema")
SLUG = "online-friendly"


def phone(browser: Browser, base: str, who: str | None = None) -> Page:
    """A new phone-sized browser, signed in as ``who`` (none: no account)."""
    page = browser.new_context(viewport=PHONE, device_scale_factor=1).new_page()
    if who is not None:
        page.goto(f"{base}/login/")
        page.get_by_label("User name").fill(who)
        page.get_by_label("Password").fill(who)
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_load_state()
    return page


def shot(page: Page, name: str) -> None:
    page.screenshot(path=str(HERE / f"{name}.png"), full_page=True)
    print(f"wrote {HERE / name}.png")


def main(base: str) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
        )
        pages = {who: phone(browser, base, who) for who in PLAYERS}
        pages["anil"].goto(f"{base}/keep/")
        found = re.search(r'href="(/play/\d+/)"', pages["anil"].content())
        if found is None:
            sys.exit("no digital match waits for Anil: run the demo (make run) first")
        seat_page = base + found.group(1)

        director = phone(browser, base, "organizer")
        director.goto(f"{base}/desk/{SLUG}/cards/")
        jokers = director.locator(".team-card", has_text="Jokers").locator(".card-url")
        linked = phone(browser, base)
        linked.goto(jokers.inner_text().strip())
        linked.goto(seat_page)
        shot(linked, "seat-choose")

        bidder = None
        for page in pages.values():
            page.goto(seat_page)
            if page.get_by_role("button", name=re.compile(r"^Bid \d+$")).count():
                bidder = page
        if bidder is None:
            sys.exit("nobody is bidding in the demo's digital match: seed a fresh demo")
        shot(bidder, "seat-bid")
        with bidder.expect_event("load"):  # the page loads again once the bid is recorded
            bidder.get_by_role("button", name=re.compile(r"^Bid \d+$")).first.click()
        bidder.locator("details.play summary").first.click()
        shot(bidder, "seat-play")
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000")
