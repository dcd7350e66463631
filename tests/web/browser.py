"""What the browser tests share: Debian's headless Chromium driven by Playwright for Python
(``executable_path``: no tool downloads a browser of its own), a live server that on SQLite
answers one request at a time, signing in through the form, axe-core (from npm,
package-lock.json) run in a page, and an evening run on the desk's pages as a person would.

Importing this module skips the importing test module when Chromium, axe-core or Playwright
is missing (``make browser-tools`` installs them); under SEEP_CI=1 it fails instead.
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest
from django.core.servers.basehttp import WSGIServer
from django.db import connection
from django.test.testcases import LiveServerThread

__all__ = [  # Playwright's names too: the test modules take them from here, after the check
    "ARTIFACTS", "AXE", "MATCH_OVER", "PHONE", "SHOTS", "WIDE", "Browser", "Deal", "Evening",
    "Locator", "Page", "checked", "closing", "database", "expect", "launched", "mark_loaded",
    "never_reloaded", "page_width", "serious_violations", "signed_in",
]  # fmt: skip

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"
ARTIFACTS = REPO / "test-artifacts"
SHOTS = ARTIFACTS / "screenshots"
#: the words a page shows once its match has ended (anchored: the live announcer, heard and
#: not seen, says them too, after the deal that ended it)
MATCH_OVER = re.compile(r"^The match is over")
PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1280, "height": 900}

missing = [str(p) for p in (CHROMIUM, AXE) if not p.exists()]
try:
    from playwright.sync_api import Browser, Locator, Page, expect, sync_playwright
except ImportError:  # pragma: no cover - the dev extra installs it
    missing.append("playwright")
if missing:
    reason = f"the browser tests need {', '.join(missing)}: make browser-tools installs them"
    if os.environ.get("SEEP_CI") == "1":
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason, allow_module_level=True)


#: held by the live server while it answers, and by a test while it reads or writes the
#: database itself: on SQLite both use the one in-memory connection (see below)
DATABASE = threading.Lock()


class OneRequestAtATime(WSGIServer):
    """The live server without threads (it answers in its own thread, on the shared
    connection the live server thread set up), one request at a time."""

    def __init__(self, *args: Any, connections_override: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)

    def process_request(self, request: Any, client_address: Any) -> None:
        with DATABASE:
            super().process_request(request, client_address)


def database() -> Any:
    """Return what a test holds while it uses the database with browsers open."""
    return DATABASE if connection.vendor == "sqlite" else contextlib.nullcontext()


if connection.vendor == "sqlite":
    # The in-memory test database is one connection shared with the live server's threads,
    # and SQLite locks its tables against a second request at the same moment (three
    # browsers polling, and the test itself): serve one request at a time (Django then
    # closes each connection), and let a test that touches the database wait for it.
    LiveServerThread.server_class = OneRequestAtATime


def launched() -> Iterator[Browser]:
    """Yield Debian's Chromium, headless; a test module's ``browser`` fixture yields from it."""
    # Playwright's sync API runs an event loop in this thread, which Django takes for an
    # async context; the ORM calls these tests make between browser steps are plain
    # synchronous ones. Only while the module's tests run.
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"]
        )
        yield chromium
        chromium.close()


class Watched(list[Any]):
    """The browser contexts a test opened, each one's console watched for what the
    Content-Security-Policy refused (Chromium logs each refusal as an error)."""

    def __init__(self, opened: list[Any]) -> None:
        super().__init__()
        self.refused: list[str] = []
        for context in opened:
            self.append(context)

    def append(self, context: Any) -> None:
        context.on("console", self._console)
        super().append(context)

    def _console(self, message: Any) -> None:
        if "Content Security Policy" in message.text:
            self.refused.append(f"{message.location.get('url', '')}: {message.text}")


def closing(opened: list[Any]) -> Iterator[list[Any]]:
    """Yield a list for the browser contexts a test opens, and close them at its end (no
    page polls the next test); a test module's ``contexts`` fixture yields from it. No page
    may have needed anything the Content-Security-Policy refuses."""
    watched = Watched(opened)
    yield watched
    for context in watched:
        context.close()
    assert not watched.refused, "the Content-Security-Policy refused:\n" + "\n".join(
        watched.refused
    )


def signed_in(
    contexts: list[Any],
    browser: Browser,
    base: str,
    who: str | None,
    viewport: dict[str, int],
    password: str | None = None,
) -> Page:
    """Return a page in a fresh browser context, signed in through the login form (the
    password is the user name unless given)."""
    context = browser.new_context(viewport=viewport)
    contexts.append(context)
    page = context.new_page()
    page.set_default_timeout(15_000)
    if who is not None:
        page.goto(f"{base}/login/")
        page.get_by_label("User name").fill(who)
        page.get_by_label("Password").fill(who if password is None else password)
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_load_state()
    return page


def serious_violations(page: Page) -> list[dict[str, Any]]:
    """Run axe-core in the page; return its serious and critical violations. (Evaluated by
    the driver, not added as a <script>: the page's Content-Security-Policy runs no inline
    script, and the driver's own code is not the page's.)"""
    page.evaluate(AXE.read_text(encoding="utf-8"))
    found: list[dict[str, Any]] = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.length,"
        " where: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))"
    )
    return [v for v in found if v["impact"] in ("serious", "critical")]


def mark_loaded(page: Page) -> None:
    """Leave a mark in the page's window: a reload (or any new document) loses it."""
    page.evaluate("window.__seepKept = true")


def never_reloaded(page: Page) -> bool:
    """Whether the page still holds the mark ``mark_loaded`` left: it was never reloaded."""
    kept: bool = page.evaluate("window.__seepKept === true")
    return kept


def page_width(page: Page) -> int:
    """Return how wide the page is laid out (wider than the screen: it scrolls sideways).
    Waits for a page a click has started to load: between two documents there is none."""
    page.wait_for_load_state("load")
    width: int = page.evaluate("document.documentElement.scrollWidth")
    return width


def checked(page: Page, name: str) -> None:
    """The page as a phone or a laptop shows it: no sideways scroll, no serious accessibility
    violation; its screenshot is kept as ``name``.png among the artifacts."""
    assert page_width(page) <= page.viewport_size["width"], f"{page.url} scrolls sideways"
    assert not serious_violations(page), serious_violations(page)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


#: a deal as the score-keeper enters it: the first team's card points (the second's fill
#: themselves in), then each team's sweeps (worth 50)
Deal = tuple[int, int, int]


class Evening:
    """One browser page driven as a person would, counting their actions per phase, and
    looking at each distinct page once (a screenshot, axe-core) and at every page's width."""

    def __init__(
        self,
        page: Page,
        base: str,
        viewport: dict[str, int],
        *,
        evening: str = "Friday night",
        shots: str = "evening",
    ) -> None:
        """``evening``: the tournament's name, as its desk's link shows it; ``shots``: how
        the screenshots' names begin."""
        self.page, self.base = page, base
        self.evening, self.shots = evening, shots
        self.width = viewport["width"]
        self.counts: dict[str, int] = {}
        self.phase = ""
        self.seen: set[str] = set()
        self.problems: dict[str, Any] = {}

    # --- what a person does, counted ---------------------------------------------------------
    def begin(self, phase: str) -> None:
        self.phase = phase
        self.counts.setdefault(phase, 0)

    def act(self) -> None:
        self.counts[self.phase] += 1

    def click(self, target: Locator) -> None:
        self.act()
        target.click()

    def fill(self, target: Locator, value: str) -> None:
        """One field filled (a whole paste is one action too)."""
        self.act()
        target.fill(value)

    def choose(self, target: Locator, label: str) -> None:
        self.act()
        target.select_option(label=label)

    def type_address(self, path: str) -> None:
        """An address typed into the browser: for a page no link leads to."""
        self.act()
        response = self.page.goto(self.base + path)
        assert response is not None and response.status == 200, path
        self.arrived()

    def link(self, name: str, *, within: Locator | None = None) -> None:
        """Follow a link by its name (the first of that name), and arrive."""
        where = within if within is not None else self.page.get_by_role("main")
        target = where.get_by_role("link", name=name, exact=True).first
        href = target.get_attribute("href")
        assert href is not None, name
        to = urljoin(self.page.url, href)
        self.click(target)
        self.arrived(to)

    def nav(self, name: str) -> None:
        """Follow a link of the site's navigation (at the top of every page)."""
        self.link(name, within=self.page.get_by_role("navigation", name="Site"))

    # --- what the test checks ----------------------------------------------------------------
    def arrived(self, url: str | re.Pattern[str] | None = None) -> None:
        """Wait for a page to load; no page is wider than the screen."""
        if url is not None:
            self.page.wait_for_url(url)
        self.page.wait_for_load_state("load")
        width = page_width(self.page)
        assert width <= self.width, f"{self.page.url} is {width} px wide at {self.width}"

    def look(self, name: str) -> None:
        """The first visit of a distinct page, at each width: no wider than the screen, a
        screenshot and an axe-core scan."""
        if name in self.seen:
            return
        self.seen.add(name)
        for viewport in (WIDE, PHONE):  # the phone last: the evening goes on there
            self.page.set_viewport_size(viewport)
            width = page_width(self.page)
            assert width <= viewport["width"], f"{name} is {width} px wide at {viewport}"
            shot = SHOTS / f"{self.shots}-{name}-{viewport['width']}.png"
            self.page.screenshot(path=str(shot), full_page=True)
            serious = serious_violations(self.page)
            if serious:
                self.problems[f"{name} at {viewport['width']}"] = serious

    def back_to_the_desk(self) -> None:
        """From any page: the desk's home (the site's navigation), then the evening's desk."""
        self.nav("Director's desk")
        self.link(self.evening)
        expect(self.page.get_by_role("heading", level=1)).to_have_text(self.evening)

    def keep_score(self, plans: list[list[Deal]]) -> list[tuple[str, str, str]]:
        """Score one match a plan, each picked from /keep/; return (team a, team b, winner)."""
        page, results = self.page, []
        for plan in plans:
            self.nav("Keep score")
            picked = page.get_by_role("main").get_by_role("link", name=re.compile(r" v "))
            self.click(picked.first)
            self.arrived(re.compile(r"/keep/\d+/$"))
            self.look("keep")
            a = page.locator("h1 .team-a").inner_text()
            b = page.locator("h1 .team-b").inner_text()
            results.append((a, b, self.enter(a, b, plan)))
        return results

    def enter(self, a: str, b: str, plan: list[Deal]) -> str:
        """Enter the plan's deals on the phone page; return who won more bazzis ('' when
        level: a draw, or the running difference decided)."""
        page = self.page
        over = page.get_by_text(MATCH_OVER)
        for number, (points, sweeps_a, sweeps_b) in enumerate(plan, start=1):
            assert not over.is_visible(), f"{a} v {b} ended before deal {number}"
            self.fill(page.get_by_label(f"Card points of {a}"), str(points))
            expect(page.get_by_label(f"Card points of {b}")).to_have_value(str(100 - points))
            for team, sweeps in ((a, sweeps_a), (b, sweeps_b)):
                for _ in range(sweeps):
                    self.click(page.get_by_role("button", name=f"One more sweep for {team}"))
            self.click(page.get_by_role("button", name=f"Send deal {number}"))
            # the entry counts at once; the page then loads again, at the next deal or over
            following = page.get_by_role("button", name=f"Send deal {number + 1}")
            expect(over.or_(following)).to_be_visible()
            self.arrived()
        expect(over).to_be_visible()  # the plan's last deal ended the match
        score = page.locator("p.score").inner_text()  # "The match is over: A 1 (dash) 0 B."
        found = re.search(r"(\d+) \W (\d+)", score)
        assert found is not None, score
        won = int(found[1]), int(found[2])
        if won[0] != won[1]:
            return a if won[0] > won[1] else b
        return ""
