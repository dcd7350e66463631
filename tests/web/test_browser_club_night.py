"""A whole club night served as ``make club`` serves it (issue 38's acceptance check): the real
``python -m deploy.club`` process on a fresh SQLite database, bound to a second loopback
address that stands in for the laptop's Wi-Fi address, an organizer at the desk on a laptop
(1280 px) and ten phones (390 px, no account) that each opened their team's link by reading
the QR code on the card the organizer printed.

The evening: ten teams pasted, one of them not checked in at the start and checked in late
(it joins the Swiss's second round), one withdrawn and the withdrawal undone; a Swiss of 2
rounds, the other team confirming every deal, at most 2 deals a match; then the top 4 in a
knockout. Every Swiss match is drawn (each team's phone enters one deal of 60 for its own
team, typed into the first box, and the other confirms), and the club breaks ties on the
points difference alone, so eight teams are level from 2nd place, across the cut: the desk
asks the organizer to decide the tie, and a lot is drawn. In
round 1 one entry is disputed and settled at the table (the entering team accepts the other
team's numbers); in round 2 both phones of every table send deal 1 at the same moment, and
the later one confirms the other's entry shown to it. The knockout ends each match with a
bazzi in one deal, to the champion, whom every phone then shows.

The test talks only HTTP to the server (and reads its SQLite file read-only to check what the
phones sent); it counts every person's actions and writes them to
test-artifacts/club-night-actions.json.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

# Playwright's names from .browser, which first skips this module without the browser tools
from .browser import (
    ARTIFACTS,
    MATCH_OVER,
    PHONE,
    SHOTS,
    WIDE,
    Browser,
    Locator,
    Page,
    expect,
    page_width,
    serious_violations,
)

try:
    import zxingcpp
    from PIL import Image
except ImportError:  # pragma: no cover - the dev extra installs them
    REASON = "the club night reads the cards' QR codes with zxing-cpp and pillow (the dev extra)"
    if os.environ.get("SEEP_CI") == "1":
        pytest.fail(REASON, pytrace=False)
    pytest.skip(REASON, allow_module_level=True)

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
HOST = "127.0.0.2"
ORGANIZER, PASSWORD = "ravi", "a-long-pass-phrase-77"
EVENING = "Club night"
SLUG = "club-night"
TEAMS = """Aces: Asha & Bilal
Kings: Chandra & Dev
Queens: Esha & Farid
Jacks: Gita & Hari
Tens: Indu & Javed
Nines: Kiran & Lata
Eights: Mohan & Nisha
Sevens: Om & Priya
Sixes: Qasim & Rani
Fives: Sunil & Tara"""
LATE = "Fives"  # registered, not checked in at the start; checked in once the Swiss runs
#: what each phone types as its own team's card points in a Swiss deal; the other team has
#: the rest, and the two deals of a match (one entered by each team) leave it level: a draw
OURS = 60


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """Yield the club night's address and its database file: ``python -m deploy.club`` on a
    new database, serving on 127.0.0.2, stopped at the end."""
    try:
        port = _free_port()
    except OSError:
        pytest.skip("no second loopback address here")
    where = tmp_path_factory.mktemp("club")
    database = where / "club.sqlite3"
    env = {
        "PATH": os.environ.get("PATH", ""),
        "CLUB_HOST": HOST,
        "CLUB_BIND": f"{HOST}:{port}",
        "PORT": str(port),
        "DATABASE_URL": f"sqlite:///{database}",
        "STATIC_ROOT": str(where / "static"),
        "CLUB_ORGANIZER": ORGANIZER,
        "CLUB_NAME": "Friday Seep",
        "CLUB_TIME_ZONE": "Asia/Kolkata",
        "FIRST_RUN_PASSWORD": PASSWORD,
        "SECRET_KEY": "club-night-" + "k" * 50,
        "RECEIPT_SIGNING_KEY": os.environ["RECEIPT_SIGNING_KEY"],
        # the phones' pages poll as often as the suite's do (pyproject.toml), not every 3 s
        "LIVE_POLL_MS": os.environ["LIVE_POLL_MS"],
    }
    log = (where / "server.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "deploy.club"],
        cwd=REPO,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
    )
    base = f"http://{HOST}:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"{base}/login/", timeout=5):
                    break
            except urllib.error.HTTPError:
                break
            except OSError:
                assert server.poll() is None, (where / "server.log").read_text()
                assert time.monotonic() < deadline, (where / "server.log").read_text()
                time.sleep(0.3)
        yield base, database
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
    output = (where / "server.log").read_text()
    assert f"Made the organizer '{ORGANIZER}'" in output
    assert f"serving the evening on {base}/" in output
    assert "Traceback" not in output, output


def rows(database: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    """Read the club night's database, read-only (the server is its one writer)."""
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
        return list(db.execute(sql, args))


def deals(database: Path, match: int) -> list[tuple[str, int, str, int]]:
    """Return each counted deal of a match as (team 0, its points, team 1, its points)."""
    return [
        (r[0], r[1], r[2], r[3])
        for r in rows(
            database,
            "SELECT a.name, d.points0, b.name, d.points1 FROM scoring_dealresult d"
            " JOIN tournaments_match m ON m.id = d.match_id"
            " JOIN tournaments_team a ON a.id = m.team0_id"
            " JOIN tournaments_team b ON b.id = m.team1_id"
            " WHERE m.id = ? ORDER BY d.deal",
            match,
        )
    ]


def points_of(database: Path, match: int, team: str) -> list[int]:
    """Return a team's card points in each counted deal of a match."""
    return [p0 if a == team else p1 for a, p0, b, p1 in deals(database, match)]


class Watch:
    """What every browser context was answered: a 5xx (never), or a refusal (4xx)."""

    def __init__(self) -> None:
        self.failed: list[str] = []
        self.refused: list[str] = []

    def context(self, browser: Browser, contexts: list[Any], viewport: dict[str, int]) -> Page:
        context = browser.new_context(viewport=viewport)
        contexts.append(context)
        context.on("response", self._answered)
        page = context.new_page()
        page.set_default_timeout(15_000)
        return page

    def _answered(self, response: Any) -> None:
        if response.status >= 500:
            self.failed.append(f"{response.status} {response.url}")
        elif response.status >= 400:
            self.refused.append(f"{response.status} {urlsplit(response.url).path}")


def narrow_enough(page: Page) -> None:
    """No page is wider than its screen."""
    size = page.viewport_size
    assert size is not None
    width = page_width(page)
    assert width <= size["width"], f"{page.url} is {width} px wide at {size['width']}"


class Person:
    """A person at a browser, counting what they do (a click, a field filled, an address
    typed or a link opened from a card)."""

    def __init__(self, page: Page, base: str) -> None:
        self.page, self.base = page, base
        self.actions = 0

    def click(self, target: Locator) -> None:
        self.actions += 1
        target.click()

    def fill(self, target: Locator, value: str) -> None:
        self.actions += 1
        target.fill(value)

    def choose(self, target: Locator, label: str) -> None:
        self.actions += 1
        target.select_option(label=label)

    def open(self, url: str) -> None:
        self.actions += 1
        answer = self.page.goto(url)
        assert answer is not None and answer.status == 200, url
        self.page.wait_for_load_state("load")
        narrow_enough(self.page)


class Organizer(Person):
    """The organizer at the desk, counting their actions per phase of the evening."""

    def __init__(self, page: Page, base: str) -> None:
        super().__init__(page, base)
        self.main = page.get_by_role("main")
        self.phases: dict[str, int] = {}
        self.phase = ""

    def begin(self, phase: str) -> None:
        self.phase = phase
        self.phases.setdefault(phase, self.actions)

    def counted(self) -> dict[str, int]:
        marks = [*self.phases.items(), ("", self.actions)]
        return {name: marks[i + 1][1] - at for i, (name, at) in enumerate(marks[:-1])}

    def follow(self, link: Locator) -> None:
        """Follow a link, and wait for the page it leads to."""
        href = link.get_attribute("href")
        assert href is not None
        self.click(link)
        self.page.wait_for_url(re.compile(re.escape(href) + "$"))
        self.page.wait_for_load_state("load")
        narrow_enough(self.page)

    def press_first(self, name: str) -> None:
        self.click(self.page.get_by_role("button", name=name).first)
        self.page.wait_for_load_state("load")
        narrow_enough(self.page)

    def press(self, name: str) -> None:
        """Press a button by its name, and wait for the page it leads to."""
        self.click(self.page.get_by_role("button", name=name, exact=True))
        self.page.wait_for_load_state("load")
        narrow_enough(self.page)

    def to_desk(self) -> None:
        self.open(f"{self.base}/desk/{SLUG}/")

    def stage(self, name: str) -> Locator:
        return self.page.locator("#stages .card", has=self.page.locator("h3", has_text=name))

    def cards(self) -> dict[str, str]:
        """Print a round's cards (from the round's page) and return each team's printed link,
        checked against what its QR code says."""
        self.click(self.page.get_by_role("link", name="The tables' cards"))
        self.page.wait_for_url(re.compile(r"/rounds/\d+/cards/$"))
        narrow_enough(self.page)
        printed: dict[str, str] = {}
        for card in self.page.locator(".team-card:not(.table-card)").all():
            team = card.locator("h2").inner_text().strip()
            url = card.locator(".card-url").inner_text().strip()
            assert url.startswith(f"{self.base}/l/"), url
            assert read_qr(card.locator("svg.qr")) == url, team
            printed[team] = url
        return printed


def read_qr(code: Locator) -> str:
    """Return what a QR code on the page says, read from its picture as a camera would."""
    picture = Image.open(io.BytesIO(code.screenshot(type="png")))
    found = zxingcpp.read_barcodes(picture)
    assert len(found) == 1, f"{len(found)} codes read"
    return str(found[0].text)


def pairings(page: Page) -> list[tuple[str, str]]:
    """Return a round page's tables as (first team, second team)."""
    found = []
    for row in page.locator("table.pairings tbody tr").all():
        a, b = (
            re.sub(r"\s*\(.*$", "", c).strip() for c in row.locator("td").all_inner_texts()[1:3]
        )
        found.append((a, b))
    return found


class Phone(Person):
    """A team's phone: no account, one browser context all evening, its team's link opened
    from the QR code on the card."""

    def __init__(self, page: Page, base: str, team: str) -> None:
        super().__init__(page, base)
        self.team = team
        self.last = 0  # the last match it opened

    def scan(self, url: str) -> None:
        """Open the team's link read from its card's QR code."""
        self.open(url)
        self.page.wait_for_url(f"{self.base}/keep/")
        expect(self.page.get_by_text(f"you act for {self.team}", exact=False)).to_be_visible()

    def match(self, opponent: str) -> int:
        """Open the team's match against ``opponent`` from /keep/; return the match's id."""
        self.open(f"{self.base}/keep/")
        link = self.page.get_by_role("main").get_by_role(
            "link", name=re.compile(rf"^({self.team} v {opponent}|{opponent} v {self.team})$")
        )
        self.click(link)
        self.page.wait_for_url(re.compile(r"/keep/\d+/$"))
        self.page.wait_for_load_state("load")
        narrow_enough(self.page)
        found = re.search(r"/keep/(\d+)/$", self.page.url)
        assert found is not None
        self.last = int(found[1])
        return self.last

    def first_box(self, deal: int) -> Locator:
        """The first card-points box of the deal's entry form ("our points", always)."""
        form = self.page.locator(
            "form", has=self.page.get_by_role("button", name=f"Send deal {deal}")
        )
        return form.locator("input.points").first

    def type_ours(self, deal: int, ours: int, sweeps: int = 0) -> None:
        """Type our points into the first box, and our sweeps."""
        first = self.first_box(deal)
        expect(first).to_be_visible()
        self.fill(first, str(ours))
        for _ in range(sweeps):
            self.click(self.page.get_by_role("button", name=f"One more sweep for {self.team}"))

    def send(self, deal: int, ours: int, sweeps: int = 0) -> None:
        """Type our points (and sweeps) and send the deal."""
        self.type_ours(deal, ours, sweeps)
        self.sent(self.page.get_by_role("button", name=f"Send deal {deal}"))
        expect(self.page.get_by_text("Waiting for the other team to confirm")).to_be_visible()

    def confirm(self, deal: int) -> None:
        button = self.page.get_by_role("button", name=f"Confirm deal {deal}")
        expect(button).to_be_visible()  # on the page already open: shown without a reload
        self.sent(button)

    def sent(self, button: Locator) -> None:
        """Press a button whose command, once the server has it, loads the page again; wait
        for that page. (A poll can show the next deal's form before it loads: numbers typed
        there meanwhile were lost with the old page.)"""
        with self.page.expect_navigation():
            self.click(button)

    def never_told_of_a_failure(self) -> None:
        for words in ("Nothing was recorded", "no longer works"):
            expect(self.page.get_by_text(words)).to_have_count(0)

    def over(self) -> None:
        expect(self.page.locator("#live").get_by_text(MATCH_OVER)).to_be_visible()

    def look(self, name: str) -> None:
        """An axe-core scan and a screenshot of one phone's page."""
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"club-night-{name}-390.png"), full_page=True)
        serious = serious_violations(self.page)
        assert not serious, (self.page.url, serious)


def tables_on_the_cards(page: Page) -> list[list[str]]:
    """Return the round's tables as the printed cards give them (each card says its table)."""
    at: dict[str, list[str]] = {}
    for card in page.locator(".team-card").all():
        where = card.locator(".card-tournament").inner_text()
        found = re.search(r"Table (\S+)", where)
        if found:
            at.setdefault(found[1], []).append(card.locator("h2").inner_text().strip())
    return [teams for teams in at.values() if len(teams) == 2]


def test_a_club_night_served_by_make_club_to_phones_that_read_their_cards(
    browser: Browser, club: tuple[str, Path], contexts: list[Any]
) -> None:
    started = time.monotonic()
    base, database = club
    watch = Watch()
    desk = Organizer(watch.context(browser, contexts, WIDE), base)
    page, main = desk.page, desk.main

    # --- the organizer signs in and makes the evening ---------------------------------------
    desk.begin("signing in and making the evening")
    desk.open(f"{base}/login/")
    desk.fill(page.get_by_label("User name"), ORGANIZER)
    desk.fill(page.get_by_label("Password"), PASSWORD)
    desk.press("Sign in")
    desk.follow(
        page.get_by_role("navigation", name="Site").get_by_role("link", name="Director's desk")
    )
    desk.follow(main.get_by_role("link", name="New evening").first)
    desk.fill(page.get_by_label("Name", exact=True), EVENING)
    desk.click(page.get_by_label("a Swiss of N rounds, then the top K in a knockout"))
    desk.fill(page.get_by_label("Swiss rounds (N)"), "2")
    desk.fill(page.get_by_label("Teams going through to the knockout (K)"), "4")
    desk.choose(page.get_by_label("Who confirms an entered deal"), "the other team confirms")
    desk.fill(page.get_by_label("At most this many deals"), "2")
    # the club breaks ties on the card points alone (for and against, over every deal): a
    # night of level matches leaves its teams level across the knockout's cut
    desk.choose(page.get_by_label("Tie-break 1", exact=True), "points difference")
    desk.press("Make the evening")
    expect(main.get_by_text(f"{EVENING} is made.")).to_be_visible()

    desk.begin("registering the teams")
    desk.fill(page.get_by_label("Teams, one a line"), TEAMS)
    desk.press("Check the teams")
    expect(page.get_by_role("heading", level=1)).to_have_text("Register 10 teams?")
    desk.press("Register 10 teams")
    expect(main.get_by_text("10 teams registered.")).to_be_visible()
    desk.press(f"Undo check-in of {LATE}")  # they are not here yet
    expect(page.get_by_role("button", name=f"Check in {LATE}")).to_be_visible()

    # late entry is the Swiss's own setting, fixed when it starts: set before the start
    desk.begin("starting the Swiss")
    desk.follow(page.get_by_role("link", name="Edit Swiss"))
    desk.click(page.get_by_label("Swiss: a team checked in late joins the next round"))
    desk.press("Save Swiss")
    desk.press("Start Swiss")
    expect(page.get_by_role("heading", level=1)).to_have_text(
        f"1 team registered is not checked in: {LATE} — start without it?"
    )
    expect(main.get_by_text("Checked in later, it joins Swiss")).to_be_visible()
    desk.click(page.locator("main form button.danger"))
    page.wait_for_load_state("load")
    expect(main.get_by_text("Swiss has started.")).to_be_visible()

    desk.begin("Swiss round 1: pair, publish, the late team checked in")
    desk.press("Pair the next round of Swiss")
    expect(page.get_by_role("heading", level=1)).to_have_text("Swiss: Round 1 (draft)")
    expect(page.locator("table.pairings tbody tr")).to_have_count(5)  # 9 teams: a bye
    desk.press("Publish round 1")
    expect(main.get_by_text("round 1 is published")).to_be_visible()
    desk.press(f"Check in {LATE}")
    expect(
        main.get_by_text(
            f"{LATE} joins Swiss at round 2, with 0 points (the rounds before are not its)"
        )
    ).to_be_visible()
    desk.begin("Swiss round 1: a withdrawal, undone")
    withdrawn = "Aces"  # at a table of round 1, before it has begun: its match is forfeited
    desk.press(f"Withdraw {withdrawn}")
    desk.click(page.locator("main form button.danger"))  # the page says what it will do first
    page.wait_for_load_state("load")
    expect(main.get_by_text(f"{withdrawn} withdrawn.")).to_be_visible()
    desk.press(f"Undo withdrawal of {withdrawn}")
    expect(main.get_by_text(f"{withdrawn} is back in the tournament.")).to_be_visible()

    # --- the cards of round 1, read by the phones' cameras --------------------------------
    desk.begin("Swiss round 1: printing the cards")
    desk.follow(page.locator("#stages").get_by_role("link", name="Round 1"))
    printed = desk.cards()
    round_1 = tables_on_the_cards(page)
    assert len(printed) == 9 and LATE not in printed and len(round_1) == 4
    (bye,) = set(printed) - {team for table in round_1 for team in table}
    phones: dict[str, Phone] = {}
    for team, url in printed.items():
        phones[team] = Phone(watch.context(browser, contexts, PHONE), base, team)
        phones[team].scan(url)
    phones[bye].look("keep-bye")
    expect(phones[bye].page.get_by_text(f"{bye} has a bye in round 1")).to_be_visible()

    per_deal: list[dict[str, Any]] = []
    desk.begin("Swiss round 1: results (at the desk: nothing)")
    for number, (a, b) in enumerate(round_1):
        play_swiss_match(
            phones[a], phones[b], database, per_deal, dispute=number == 0, look=number == 0
        )

    # --- round 2: the late team joins --------------------------------------------------------
    desk.begin("Swiss round 2: pair, publish, print")
    desk.to_desk()
    expect(main.locator("#stages li", has_text="Round 1: complete")).to_be_visible()
    desk.press("Pair the next round of Swiss")
    expect(page.get_by_role("heading", level=1)).to_have_text("Swiss: Round 2 (draft)")
    expect(page.locator("table.pairings tbody tr")).to_have_count(5)  # ten teams, no bye
    expect(page.locator("table.pairings")).to_contain_text(LATE)
    desk.press("Publish round 2")
    expect(main.get_by_text("round 2 is published")).to_be_visible()
    desk.follow(page.locator("#stages").get_by_role("link", name="Round 2"))
    again = desk.cards()
    round_2 = tables_on_the_cards(page)
    assert len(again) == 10 and len(round_2) == 5
    assert {t: u for t, u in again.items() if t != LATE} == printed  # a link is for the evening
    phones[LATE] = Phone(watch.context(browser, contexts, PHONE), base, LATE)
    phones[LATE].scan(again[LATE])

    desk.begin("Swiss round 2: results (at the desk: nothing)")
    for a, b in round_2:
        play_swiss_match(phones[a], phones[b], database, per_deal, crossed=True)

    # --- the cut: every Swiss match was a draw, so the table is level across the line ---------
    desk.begin("the knockout: the tie at the cut, the start")
    desk.to_desk()
    knockout = desk.stage("Knockout")
    expect(knockout.get_by_role("alert")).to_contain_text("A tie at the cut waits for you")
    desk.follow(knockout.get_by_role("link", name="Decide the tie"))
    # the team with the bye has 3 points; the eight that drew both matches 2, on a points
    # difference of 0 each; the late team 1: eight level for places 2 to 4, three go through
    tie = main.locator(
        "section.card", has=page.get_by_role("heading", name=re.compile("A tie at the cut"))
    )
    expect(tie).to_contain_text("are level on points and on every tie-break, and 3 of them go")
    desk.press_first("Draw a lot")
    expect(main.get_by_role("heading", name=re.compile("A decided tie"))).to_be_visible()
    expect(
        main.get_by_role("status").filter(has_text=f"Decided: lot drawn by {ORGANIZER}")
    ).to_be_visible()
    in_ = main.locator("table tbody td", has_text=re.compile(r"^in$"))
    expect(in_).to_have_count(4)
    desk.to_desk()
    desk.press("Start Knockout")
    expect(page.locator("table.pairings tbody tr")).to_have_count(2)  # two semi-finals
    semi_finals = pairings(page)
    desk.press("Publish semi-finals")
    expect(main.get_by_text("semi-finals is published")).to_be_visible()

    desk.begin("the knockout: results (at the desk: nothing)")
    winners = [
        play_knockout_match(phones[a], phones[b], database, per_deal) for a, b in semi_finals
    ]
    final = phones[winners[0]].page.locator("[data-next]")
    expect(final).to_contain_text("Your next match: ")
    a, b = final.inner_text().removeprefix("Your next match: ").split(" v ")
    assert {a, b} == set(winners)
    champion = play_knockout_match(phones[a], phones[b], database, per_deal)

    # --- every phone: the tournament is over, and who won -----------------------------------
    for phone in phones.values():
        phone.open(f"{base}/keep/")
        expect(phone.page.get_by_text(f"{EVENING} is over.")).to_be_visible()
        expect(phone.page.get_by_role("main")).to_contain_text(f"Champion: {champion}")
        phone.never_told_of_a_failure()
        phone.open(f"{base}/keep/{phone.last}/")
        expect(phone.page.locator("[data-champion]")).to_contain_text(f"Champion: {champion}")
        phone.never_told_of_a_failure()
    phones[champion].look("keep-champion")
    seconds = round(time.monotonic() - started, 1)

    assert not watch.failed, watch.failed
    # the one refusal of the evening: the later of each crossed send (its page's head was old)
    assert len(watch.refused) == len(round_2), watch.refused
    assert all(re.fullmatch(r"409 /keep/\d+/enter/", r) for r in watch.refused), watch.refused
    finished = rows(
        database,
        "SELECT status, count(*) FROM tournaments_match GROUP BY status ORDER BY status",
    )
    assert dict(finished).get("finished") == 4 + 5 + 3, finished

    by_how: dict[str, dict[str, Any]] = {}
    for deal in per_deal:
        how = by_how.setdefault(
            deal["how"], {"deals": 0, "entering phone": [], "confirming phone": []}
        )
        how["deals"] += 1
        how["entering phone"].append(deal["entering"])
        how["confirming phone"].append(deal["confirming"])
    for how in by_how.values():  # each phone's actions a deal: the fewest and the most
        for who in ("entering phone", "confirming phone"):
            how[who] = {"min": min(how[who]), "max": max(how[who])}
    report = {
        "organizer": desk.counted(),
        "organizer total": desk.actions,
        "phones": {
            "deals": len(per_deal),
            "actions a deal, by how it went": by_how,
            "entering phones, all deals": sum(d["entering"] for d in per_deal),
            "confirming phones, all deals": sum(d["confirming"] for d in per_deal),
            "opening the team's link from its card, each phone": 1,
            "opening a match (its address, then its link), each phone and match": 2,
            "all phone actions": sum(p.actions for p in phones.values()),
            "each deal": per_deal,
        },
        "seconds": seconds,
    }
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "club-night-actions.json").write_text(json.dumps(report, indent=2))
    print(f"\nThe club night: {json.dumps(report, indent=2)}")


MOMENT = "at the same moment as you"


def send_together(deal: int, *phones: Phone) -> None:
    """Both phones press Send at the same moment (a timer in each page, set to one instant)."""
    at = phones[0].page.evaluate("Date.now()") + 500
    for phone in phones:
        phone.actions += 1
        phone.page.evaluate(
            "([at, name]) => { const send = [...document.querySelectorAll('button')]"
            ".find(b => b.textContent.trim() === name);"
            " setTimeout(() => send.click(), at - Date.now()); }",
            [at, f"Send deal {deal}"],
        )


def later_of(a: Phone, b: Phone) -> tuple[Phone, Phone]:
    """Return (the phone whose send got there first, the later one), as the later is told."""
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        told = [p for p in (a, b) if p.page.get_by_text(MOMENT).count()]
        if told:
            assert len(told) == 1, "both phones were told the other got there first"
            return (b, a) if told[0] is a else (a, b)
        time.sleep(0.1)
    raise AssertionError(f"neither {a.team} nor {b.team} was told of the other's entry")


def play_swiss_match(
    a: Phone,
    b: Phone,
    database: Path,
    per_deal: list[dict[str, Any]],
    *,
    dispute: bool = False,
    crossed: bool = False,
    look: bool = False,
) -> None:
    """Play a Swiss match to a draw: deal 1 entered by a's phone (60 for a), deal 2 by b's
    (60 for b), each confirmed on the other phone; or settled at the table (``dispute``), or
    sent by both phones at once (``crossed``)."""
    match = a.match(b.team)
    assert b.match(a.team) == match
    if look:
        a.look("keep-entry")
    before = a.actions, b.actions
    if crossed:
        a.type_ours(1, OURS)
        b.type_ours(1, 100 - OURS)  # the same deal, as b's phone has it: our 40
        send_together(1, a, b)
        first, later = later_of(a, b)
        entry = later.page.locator("[data-entry]")
        expect(entry).to_contain_text(f"{a.team}{' (your team)' if later is a else ''} {OURS}")
        expect(later.page.get_by_text("They entered the same numbers as you")).to_be_visible()
        later.confirm(1)
        kind = "crossed send"
    elif dispute:
        a.send(1, OURS + 5)  # a slip of the finger
        reason = b.page.get_by_label("Not right? Say what is wrong")
        b.fill(reason, f"You had {OURS}")
        b.click(b.page.get_by_text("Your numbers for deal 1"))
        ours = b.page.locator("[data-entry] details input.points").first
        b.fill(ours, str(100 - OURS))  # b's own points come first here too
        expect(b.page.locator("[data-entry] details input.points").nth(1)).to_have_value(str(OURS))
        b.click(b.page.get_by_role("button", name="Reject"))
        expect(b.page.locator("#live").get_by_text("Deal 1 is disputed")).to_be_visible()
        accept = a.page.get_by_role("button", name="Accept their numbers")
        expect(accept).to_be_visible()  # on a's page, never reloaded by the test
        a.look("keep-dispute")
        a.click(accept)
        kind = "disputed, their numbers accepted"
    else:
        a.send(1, OURS)
        entry = b.page.locator("[data-entry]")
        expect(entry).to_contain_text(f"{a.team} {OURS}")
        expect(entry).to_contain_text(f"{b.team} (your team) {100 - OURS}")
        b.confirm(1)
        kind = "entered and confirmed"
    entering, confirming = (a, b) if not crossed else (first, later)
    per_deal.append(
        {
            "match": f"{a.team} v {b.team}",
            "deal": 1,
            "how": kind,
            "entering": entering.actions - before[0 if entering is a else 1],
            "confirming": confirming.actions - before[0 if confirming is a else 1],
        }
    )
    before = a.actions, b.actions
    b.send(2, OURS)
    a.confirm(2)
    per_deal.append(
        {
            "match": f"{a.team} v {b.team}",
            "deal": 2,
            "how": "entered and confirmed",
            "entering": b.actions - before[1],
            "confirming": a.actions - before[0],
        }
    )
    for phone in (a, b):
        phone.over()
        expect(
            phone.page.locator("#live").get_by_text("The match is over: a draw.")
        ).to_be_visible()
    # "our points" typed in the first box went to the phone's own team, every time
    assert points_of(database, match, a.team) == [OURS, 100 - OURS]
    assert points_of(database, match, b.team) == [100 - OURS, OURS]


def play_knockout_match(a: Phone, b: Phone, database: Path, per_deal: list[dict[str, Any]]) -> str:
    """Play a knockout match won by a with a bazzi in one deal (75 and a sweep: 125 to 25),
    entered on a's phone and confirmed on b's; return the winner."""
    match = a.match(b.team)
    assert b.match(a.team) == match
    before = a.actions, b.actions
    a.send(1, 75, sweeps=1)
    b.confirm(1)
    per_deal.append(
        {
            "match": f"{a.team} v {b.team}",
            "deal": 1,
            "how": "a bazzi (our points and a sweep) entered, and confirmed",
            "entering": a.actions - before[0],
            "confirming": b.actions - before[1],
        }
    )
    b.over()
    expect(a.page.locator("#live").get_by_text("The match is over: your team won.")).to_be_visible()
    assert points_of(database, match, a.team) == [75]
    return a.team
