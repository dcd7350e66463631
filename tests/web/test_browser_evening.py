"""A whole club evening run from an empty database on the desk's pages alone, in a real
browser, on a phone (390x844); each distinct page is looked at on a laptop (1280x900) too.

An organizer (a plain account: not staff, no club, no tournament) signs in, makes "Friday
night" in the new-evening form (a Swiss of 3 rounds, then the top 4 in a knockout; the
entry counts at once; at most 2 deals a match), pastes 10 teams, pairs, reads and publishes
each Swiss round, keeps score at every match on the phone page /keep/<id>/, starts the
knockout (its cut table), publishes it, scores the semi-finals and the final (level after
its cap, it plays on), and finds the champion on the public page.

Along the way: every action a person takes is counted per phase (a click, one field filled,
a whole paste, a typed address), written to test-artifacts/evening-actions-<width>.json and
printed (``-s``); no address under /admin is ever requested and no page answers 500; no page
is wider than the phone's screen; and each distinct page, at both widths (the browser's window
made wide and then narrow again, on the same page), is no wider than the screen, screenshotted
(test-artifacts/screenshots/evening-<name>-<width>.png) and scanned by axe-core (no serious or
critical violation). The evening ran once at each width before; the actions do not depend on
the width, so it runs once and its pages' layout is checked at both.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest

from competition.models import Fixture, Stage
from tournaments.models import Match, Tournament

# Playwright's names from .browser, which first skips this module without the browser tools
from .browser import (
    ARTIFACTS,
    PHONE,
    SHOTS,
    WIDE,
    Browser,
    Locator,
    Page,
    database,
    expect,
    page_width,
    serious_violations,
)
from .conftest import with_password

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a long evening"
# three ways a club's list reaches the desk: "Team: A & B", a spreadsheet's cells (tabs),
# and commas
TEAMS = """Aces: Asha & Bilal
Kings\tChandra\tDev
Queens, Esha, Farid
Jacks: Gita & Hari
Tens\tIndu\tJaved
Nines, Kiran, Lata
Eights: Mohan & Nisha
Sevens\tOm\tPriya
Sixes, Qasim, Rani
Fives: Sunil & Tara"""

#: a deal as the score-keeper enters it: the first team's card points (the second's fill
#: themselves in), then each team's sweeps (worth 50)
Deal = tuple[int, int, int]

# Every plan ends its match exactly at its last deal (at most 2 deals; a bazzi at a lead of
# 100 ends a match of one bazzi at once):
SWISS_PLANS: list[list[Deal]] = [
    [(75, 1, 0)],  # 125 - 25: a bazzi at once, the first team wins
    [(40, 0, 0), (45, 0, 0)],  # -20, -10: at the cap the second team wins by 30
    [(60, 0, 0), (55, 0, 1)],  # +20, -40: the second team by 20
    [(50, 0, 0), (50, 0, 0)],  # level at the cap: a draw (the Swiss allows them)
    [(25, 0, 1)],  # 25 - 125: a bazzi for the second team
]
SEMI_FINALS: list[list[Deal]] = [[(75, 1, 0)], [(25, 0, 1)]]
# level at the cap: a knockout match plays on, deal by deal, until one team leads
FINAL: list[Deal] = [(50, 0, 0), (50, 0, 0), (25, 0, 1)]


class Evening:
    """One browser page driven as a person would, counting their actions per phase, and
    looking at each distinct page once (a screenshot, axe-core) and at every page's width."""

    def __init__(self, page: Page, base: str, viewport: dict[str, int]) -> None:
        self.page, self.base = page, base
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
            shot = SHOTS / f"evening-{name}-{viewport['width']}.png"
            self.page.screenshot(path=str(shot), full_page=True)
            serious = serious_violations(self.page)
            if serious:
                self.problems[f"{name} at {viewport['width']}"] = serious

    def back_to_the_desk(self) -> None:
        """From any page: the desk's home (the site's navigation), then the evening's desk."""
        self.nav("Director's desk")
        self.link("Friday night")
        expect(self.page.get_by_role("heading", level=1)).to_have_text("Friday night")

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
        over = page.get_by_text("The match is over")
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


def test_a_club_evening_from_an_empty_database_on_the_desk_alone(
    browser: Browser, live_server: Any, contexts: list[Any], django_user_model: Any
) -> None:
    viewport = PHONE
    started = time.monotonic()
    SHOTS.mkdir(parents=True, exist_ok=True)
    with database():
        assert not Tournament.objects.exists()
        organizer = with_password(django_user_model.objects.create_user("meera"), PASSWORD)
    assert not (organizer.is_staff or organizer.is_superuser)

    context = browser.new_context(viewport=viewport)
    contexts.append(context)
    requested: list[str] = []
    failed: list[str] = []
    context.on("request", lambda request: requested.append(request.url))
    context.on(
        "response",
        lambda response: (
            failed.append(f"{response.status} {response.url}") if response.status >= 500 else None
        ),
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    run = Evening(page, live_server.url, viewport)
    main = page.get_by_role("main")

    # --- 1-2. sign in, and make the evening in one form ----------------------------------------
    run.begin("making the evening")
    run.type_address("/login/")
    run.fill(page.get_by_label("User name"), "meera")
    run.fill(page.get_by_label("Password"), PASSWORD)
    run.click(page.get_by_role("button", name="Sign in"))
    run.arrived(re.compile(r"/keep/$"))  # where signing in leads
    run.nav("Director's desk")  # the site's navigation leads there once signed in
    expect(main.get_by_text("You direct no tournament yet")).to_be_visible()
    run.look("desk-home")
    run.link("New evening")
    run.look("new-evening")
    run.fill(page.get_by_label("Name", exact=True), "Friday night")
    run.fill(page.get_by_label("Date", exact=True), "2026-12-04")
    run.fill(page.get_by_label("Place", exact=True), "Community hall")
    # the preset is the evening's shape already: a Swiss of 3, then the top 4
    expect(page.get_by_label("a Swiss of N rounds, then the top K in a knockout")).to_be_checked()
    expect(page.get_by_label("Swiss rounds (N)")).to_have_value("3")
    expect(page.get_by_label("Teams going through to the knockout (K)")).to_have_value("4")
    run.choose(
        page.get_by_label("Who confirms an entered deal"),
        "it counts at once",
    )
    run.fill(page.get_by_label("At most this many deals"), "2")
    run.click(page.get_by_role("button", name="Make the evening"))
    run.arrived(re.compile(r"/desk/friday-night/#teams$"))
    expect(main.get_by_text("Friday night is made.")).to_be_visible()
    run.look("desk-new")

    # --- 3. ten teams pasted, checked, registered --------------------------------------------
    run.begin("registering the 10 teams")
    run.fill(page.get_by_label("Teams, one a line"), TEAMS)
    run.click(page.get_by_role("button", name="Check the teams"))
    run.arrived(re.compile(r"/teams/many/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Register 10 teams?")
    expect(main.get_by_text("20 new members will join the club")).to_be_visible()
    expect(page.get_by_label("Checked in now")).to_be_checked()
    run.look("teams-preview")
    run.click(page.get_by_role("button", name="Register 10 teams"))
    run.arrived(re.compile(r"/desk/friday-night/#teams$"))
    expect(main.get_by_text("10 teams registered.")).to_be_visible()
    expect(page.get_by_role("heading", name="Teams (10)")).to_be_visible()

    # --- 4. the Swiss: three rounds paired, read, published, and scored on the phone page ----
    plans = SWISS_PLANS
    for number in (1, 2, 3):
        run.begin(f"Swiss round {number}: pair and publish")
        if number == 1:
            run.click(page.get_by_role("button", name="Start Swiss"))
            run.arrived(re.compile(r"/desk/friday-night/#stage-\d+$"))
            expect(main.get_by_text("Swiss has started.")).to_be_visible()
        else:
            run.back_to_the_desk()
            # the round ended by itself with its last result (the projections after commit)
            done = page.locator("#stages li", has_text=f"Round {number - 1}: complete")
            expect(done).to_be_visible()
            run.look("desk-running")
        run.click(page.get_by_role("button", name="Pair the next round of Swiss"))
        run.arrived(re.compile(r"/desk/friday-night/rounds/\d+/$"))
        expect(page.get_by_role("heading", level=1)).to_have_text(f"Swiss: Round {number} (draft)")
        pairings = page.locator("table.pairings tbody tr")
        expect(pairings).to_have_count(5)  # ten teams: five tables, no bye
        if number > 1:  # each team's place and match points before the round
            for row in pairings.all():
                assert len(re.findall(r"\(\d+\., \d+ pts\)", row.inner_text())) == 2
        run.look(f"round-{min(number, 2)}-draft")  # 2 and 3: the same page
        run.click(page.get_by_role("button", name=f"Publish round {number}"))
        run.arrived(re.compile(r"/desk/friday-night/#stage-\d+$"))
        expect(main.get_by_text(f"round {number} is published")).to_be_visible()
        if number == 1:  # published too soon: taken back (asked first) and published again
            run.begin("Swiss round 1: unpublished and published again")
            run.click(page.locator("#stages").get_by_role("link", name="Round 1", exact=False))
            run.arrived(re.compile(r"/desk/friday-night/rounds/\d+/$"))
            run.click(page.get_by_role("button", name="Unpublish round 1"))
            expect(page.get_by_role("heading", level=1)).to_contain_text("Unpublish round 1?")
            run.look("unpublish-question")
            run.click(page.get_by_role("button", name="Unpublish"))
            expect(main.get_by_text("Round 1 is a draft again")).to_be_visible()
            expect(page.get_by_role("heading", level=1)).to_have_text("Swiss: Round 1 (draft)")
            run.click(page.get_by_role("button", name="Publish round 1"))
            run.arrived(re.compile(r"/desk/friday-night/#stage-\d+$"))
            expect(main.get_by_text("round 1 is published")).to_be_visible()

        run.begin(f"Swiss round {number}: results")
        run.keep_score(plans)
        plans = plans[1:] + plans[:1]  # each table another story next round

    # --- 5. the knockout: the cut, the semi-finals, the final ----------------------------------
    run.begin("knockout: start and publish")
    run.back_to_the_desk()
    expect(page.locator("#stages h3", has_text="Swiss")).to_contain_text("complete")
    run.click(page.get_by_role("button", name="Start Knockout"))
    run.arrived(re.compile(r"/desk/friday-night/rounds/\d+/$"))
    cut = page.locator("table", has=page.locator("caption", has_text="The cut: the top 4"))
    expect(cut).to_be_visible()
    expect(cut.locator("tbody tr")).to_have_count(10)
    expect(cut.locator("tbody td", has_text=re.compile(r"^in$"))).to_have_count(4)
    expect(page.locator("table.pairings tbody tr")).to_have_count(2)  # two semi-finals
    run.look("knockout-draft")
    run.click(page.get_by_role("button", name="Publish semi-finals"))
    run.arrived(re.compile(r"/desk/friday-night/#stage-\d+$"))
    expect(main.get_by_text("semi-finals is published")).to_be_visible()

    run.begin("knockout: results")
    semis = run.keep_score(SEMI_FINALS)
    assert [winner for _, _, winner in semis] == [semis[0][0], semis[1][1]]
    ((a, b, champion),) = run.keep_score([FINAL])  # opened by the semi-finals' results
    assert {a, b} == {semis[0][0], semis[1][1]} and champion == b

    # --- 6. the public page shows the champion ---------------------------------------------
    run.begin("seeing the champion")
    run.nav("Tournaments")
    run.link("Friday night")
    expect(page.locator(".champion")).to_have_text(f"Champion: {champion}")
    run.look("tournament")
    seconds = round(time.monotonic() - started, 1)

    # --- what the browser did, and what the database holds -------------------------------
    admin = [url for url in requested if urlsplit(url).path.startswith("/admin")]
    assert not admin, admin
    assert not failed, failed
    assert not run.problems, run.problems
    with database():
        t = Tournament.objects.get(slug="friday-night")
        assert t.club is not None and list(t.club.directors.all()) == [organizer]
        stages = list(Stage.objects.filter(tournament=t).order_by("order"))
        assert [(s.format, s.status) for s in stages] == [
            ("swiss", Stage.Status.COMPLETE),
            ("single_elimination", Stage.Status.COMPLETE),
        ]
        matches = Match.objects.filter(tournament=t)
        called_off = matches.filter(status=Match.Status.CALLED_OFF)
        assert called_off.count() == 5  # round 1 as first published, taken back
        assert not called_off.filter(fixture__isnull=False).exists()
        matches = matches.exclude(pk__in=called_off)
        assert matches.count() == 15 + 3
        assert not matches.exclude(status=Match.Status.FINISHED).exists()
        assert not matches.exclude(confirmation="none").exists()
        final = Fixture.objects.get(stage=stages[1], round__name="final")
        assert final.winner() is not None and final.winner().name == champion
        assert not django_user_model.objects.filter(is_staff=True).exists()

    report = {
        "viewport": f"{viewport['width']}x{viewport['height']}",
        "actions": run.counts,
        "total": sum(run.counts.values()),
        "seconds": seconds,
    }
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"evening-actions-{run.width}.json").write_text(json.dumps(report, indent=2))
    print(f"\nThe evening at {report['viewport']}: {json.dumps(report, indent=2)}")
