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
from urllib.parse import urlsplit

import pytest

from competition.models import Fixture, Stage
from tournaments.models import Match, Tournament

# Playwright's names from .browser, which first skips this module without the browser tools
from .browser import ARTIFACTS, PHONE, SHOTS, Browser, Deal, Evening, database, expect
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
