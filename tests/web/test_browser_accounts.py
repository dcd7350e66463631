"""Accounts in Chromium, at 390 and 1280 pixels: an organizer signs up, verifies their
address from the mail, names their club and lands on its desk (on the phone they go on to run
a 4-team evening from the desk's pages alone, as issue 46 asks); a forgotten password is reset
from a mailed link; a passkey added with Chromium's virtual authenticator signs its owner in
with nothing typed, and stands as a second factor after a password."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache

from competition.models import Stage
from tournaments.models import Club, Match, Tournament

# Playwright's names from .browser, which first skips this module without the browser tools
from .browser import (
    PHONE,
    SHOTS,
    WIDE,
    Browser,
    Deal,
    Evening,
    Page,
    database,
    expect,
    page_width,
    serious_violations,
)

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "Kabaddi-Night-2026"
FOUR_TEAMS = """Aces: Asha & Bilal
Kings: Chandra & Dev
Queens: Esha & Farid
Jacks: Gita & Hari"""
#: each round's two tables, one deal a match: a bazzi (a lead of 100) ends it at once, for the
#: first team named at table 1 and the second at table 2; in round 2 the first team named wins
ROUNDS: list[list[list[Deal]]] = [
    [[(75, 1, 0)], [(25, 0, 1)]],
    [[(75, 1, 0)], [(75, 1, 0)]],
]


@pytest.fixture(autouse=True)
def _accounts_open(settings: Any) -> Iterator[None]:
    """The sign-up open, WebAuthn on the live server's plain HTTP, no rate limit left over."""
    settings.SIGNUP_OPEN = True
    settings.MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN = True
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()
    yield
    cache.clear()


def new_page(browser: Browser, contexts: list[Any], viewport: dict[str, int]) -> Page:
    context = browser.new_context(viewport=viewport)
    contexts.append(context)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def mailed_link(base: str) -> str:
    """Return the link of the last mail sent, on the live server."""
    found = re.search(r"https?://[^/\s]+(/accounts/\S+/)", mail.outbox[-1].body)
    assert found, mail.outbox[-1].body
    return base + found.group(1)


def verified_director(name: str = "meera") -> Any:
    """An organizer who signed up and verified their address, with their club."""
    user = get_user_model().objects.create_user(name, f"{name}@example.org", PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    club = Club.objects.create(name=f"{name.title()}'s Seep", slug=f"{name}-seep")
    club.directors.add(user)
    return user


def sign_in(page: Page, base: str, name: str, password: str) -> None:
    page.goto(f"{base}/login/")
    page.get_by_label("User name").fill(name)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_load_state()


def run_a_four_team_evening(page: Page, base: str) -> None:
    """From the desk the organizer landed on, on the phone: make a Swiss of 2 rounds (an
    entry counts at once, one deal a match), paste 4 teams, pair and publish each round, keep
    score at each match on /keep/<id>/, and find the winner first in the public standings."""
    run = Evening(page, base, PHONE, evening="Tuesday four", shots="accounts-evening")
    main = page.get_by_role("main")
    run.begin("the evening")
    run.link("New evening")
    run.fill(page.get_by_label("Name", exact=True), "Tuesday four")
    run.fill(page.get_by_label("Date", exact=True), "2026-12-08")
    expect(page.get_by_label("Club", exact=True)).to_have_value(re.compile(r"^\d+$"))
    run.click(page.get_by_label("a Swiss of N rounds", exact=True))
    run.fill(page.get_by_label("Swiss rounds (N)"), "2")
    run.choose(page.get_by_label("Who confirms an entered deal"), "it counts at once")
    run.fill(page.get_by_label("At most this many deals"), "1")
    run.click(page.get_by_role("button", name="Make the evening"))
    run.arrived(re.compile(r"/desk/tuesday-four/#teams$"))
    expect(main.get_by_text("Tuesday four is made.")).to_be_visible()
    run.fill(page.get_by_label("Teams, one a line"), FOUR_TEAMS)
    run.click(page.get_by_role("button", name="Check the teams"))
    run.arrived(re.compile(r"/teams/many/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Register 4 teams?")
    run.click(page.get_by_role("button", name="Register 4 teams"))
    run.arrived(re.compile(r"/desk/tuesday-four/#teams$"))
    expect(page.get_by_role("heading", name="Teams (4)")).to_be_visible()
    run.click(page.get_by_role("button", name="Start Swiss"))
    run.arrived(re.compile(r"/desk/tuesday-four/#stage-\d+$"))
    wins: dict[str, int] = {}
    for number, plans in enumerate(ROUNDS, start=1):
        if number > 1:
            run.back_to_the_desk()
            done = page.locator("#stages li", has_text=f"Round {number - 1}: complete")
            expect(done).to_be_visible()
        run.click(page.get_by_role("button", name="Pair the next round of Swiss"))
        run.arrived(re.compile(r"/desk/tuesday-four/rounds/\d+/$"))
        expect(page.get_by_role("heading", level=1)).to_have_text(f"Swiss: Round {number} (draft)")
        expect(page.locator("table.pairings tbody tr")).to_have_count(2)
        run.click(page.get_by_role("button", name=f"Publish round {number}"))
        run.arrived(re.compile(r"/desk/tuesday-four/#stage-\d+$"))
        expect(main.get_by_text(f"round {number} is published")).to_be_visible()
        for a, b, winner in run.keep_score(plans):
            assert winner in (a, b), (a, b, winner)
            for team in (a, b):
                wins[team] = wins.get(team, 0) + (team == winner)
    # the two winners of round 1 met in round 2: one team won both, one lost both
    assert sorted(wins.values()) == [0, 1, 1, 2], wins
    champion = max(wins, key=wins.__getitem__)
    last = min(wins, key=wins.__getitem__)
    run.nav("Tournaments")
    run.link("Tuesday four")
    expect(main.get_by_text("Swiss · complete")).to_be_visible()
    standings = main.locator("table.standings tbody tr")
    expect(standings.locator("td[data-points]")).to_have_text(["4", "2", "2", "0"])
    expect(standings.first.locator("td").first).to_have_text("1")
    expect(standings.first.locator("th")).to_have_text(champion)
    expect(standings.last.locator("th")).to_have_text(last)
    assert not run.problems, run.problems
    with database():
        t = Tournament.objects.get(slug="tuesday-four")
        assert t.club is not None and t.club.name == "Chennai Seep"
        assert Stage.objects.get(tournament=t).status == Stage.Status.COMPLETE
        finished = Match.objects.filter(tournament=t, status=Match.Status.FINISHED)
        assert finished.count() == Match.objects.filter(tournament=t).count() == 4


@pytest.mark.parametrize(
    ("viewport", "evening"), [(PHONE, True), (WIDE, False)], ids=["390", "1280"]
)
def test_an_organizer_signs_up_verifies_names_their_club_and_lands_on_its_desk(
    browser: Browser,
    live_server: Any,
    contexts: list[Any],
    viewport: dict[str, int],
    evening: bool,
) -> None:
    """At both widths the new organizer lands on their club's desk; on the phone alone (one
    evening is enough for the suite's time) they run a 4-team evening from it."""
    base = live_server.url
    page = new_page(browser, contexts, viewport)
    failed: list[str] = []
    page.context.on(
        "response",
        lambda response: (
            failed.append(f"{response.status} {response.url}") if response.status >= 500 else None
        ),
    )
    page.goto(f"{base}/login/")
    page.get_by_role("link", name="New here? Make an account for your club").click()
    page.get_by_label("Email", exact=True).fill("meera@example.org")
    page.get_by_label("Username").fill("meera")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password (again)").fill(PASSWORD)
    assert page_width(page) <= viewport["width"]
    assert not serious_violations(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"accounts-signup-{viewport['width']}.png"), full_page=True)
    page.get_by_role("button", name="Sign Up").click()
    expect(page.get_by_role("heading", name="Verify Your Email Address")).to_be_visible()
    with database():
        assert [m.to for m in mail.outbox] == [["meera@example.org"]]
        link = mailed_link(base)
    page.goto(link)
    page.get_by_role("button", name="Confirm").click()
    expect(page.get_by_role("heading", name="Name your club")).to_be_visible()
    page.get_by_label("Your club's name").fill("Chennai Seep")
    page.get_by_label("Time zone").fill("Asia/Kolkata")
    page.get_by_label("Your club's language").select_option("hi")
    assert page_width(page) <= viewport["width"]
    assert not serious_violations(page)
    page.screenshot(path=str(SHOTS / f"accounts-club-{viewport['width']}.png"), full_page=True)
    page.get_by_role("button", name="Make the club").click()
    expect(page.get_by_role("heading", name="Director's desk")).to_be_visible()
    expect(page.get_by_text("Chennai Seep is made, and you direct it.")).to_be_visible()
    expect(page.get_by_role("link", name="Chennai Seep")).to_be_visible()
    assert page_width(page) <= viewport["width"]
    page.screenshot(path=str(SHOTS / f"accounts-desk-{viewport['width']}.png"), full_page=True)
    with database():
        club = Club.objects.get()
        assert (club.name, club.time_zone, club.language) == ("Chennai Seep", "Asia/Kolkata", "hi")
        assert [u.username for u in club.directors.all()] == ["meera"]
    if evening:
        run_a_four_team_evening(page, base)
    assert not failed, failed


def test_a_forgotten_password_is_reset_from_the_mailed_link(
    browser: Browser, live_server: Any, contexts: list[Any]
) -> None:
    base = live_server.url
    with database():
        verified_director()
    page = new_page(browser, contexts, PHONE)
    page.goto(f"{base}/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    page.get_by_label("Email").fill("meera@example.org")
    page.get_by_role("button", name="Reset My Password").click()
    expect(page.get_by_role("heading", name="Password Reset")).to_be_visible()
    with database():
        link = mailed_link(base)
    page.goto(link)
    new = "Another-Night-2027"
    page.get_by_label("New Password", exact=True).fill(new)
    page.get_by_label("New Password (again)").fill(new)
    assert page_width(page) <= PHONE["width"]
    page.get_by_role("button", name="Change Password").click()
    expect(page.get_by_text("Your password is now changed.")).to_be_visible()
    again = new_page(browser, contexts, PHONE)
    sign_in(again, base, "meera", PASSWORD)
    expect(again.get_by_text("do not match an account")).to_be_visible()
    sign_in(again, base, "meera", new)
    expect(again.get_by_role("button", name="Sign out meera")).to_be_visible()


def virtual_authenticator(page: Page) -> Any:
    """Chromium's virtual authenticator in the page: a platform one with a resident key and
    user verification (a phone's fingerprint), which answers by itself."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    return cdp


def test_a_passkey_signs_its_director_in_alone_and_as_a_second_factor(
    browser: Browser, live_server: Any, contexts: list[Any]
) -> None:
    base = live_server.url.replace("127.0.0.1", "localhost")  # an IP address is no RP ID
    with database():
        verified_director()
    page = new_page(browser, contexts, PHONE)
    virtual_authenticator(page)
    sign_in(page, base, "meera", PASSWORD)
    page.goto(f"{base}/accounts/2fa/")
    page.goto(f"{base}/accounts/2fa/webauthn/add/")
    # adding a key asks for the password again first (allauth's reauthentication)
    expect(page.get_by_role("heading", name="Confirm Access")).to_be_visible()
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Confirm").click()
    page.get_by_label("Name").fill("Meera's phone")
    page.get_by_label("Passwordless").check()
    assert page_width(page) <= PHONE["width"]
    page.get_by_role("button", name="Add", exact=True).click()
    # away from the form (its own address holds "/accounts/2fa/" too: that wait returned at
    # once, and CI read the keys before the form's POST had written them)
    page.wait_for_url(lambda url: "/webauthn/add/" not in url)
    with database():
        from allauth.mfa.models import Authenticator

        kinds = sorted(a.type for a in Authenticator.objects.filter(user__username="meera"))
    assert kinds == ["recovery_codes", "webauthn"]
    # signed out, the passkey alone signs in: nothing typed
    page.get_by_role("button", name="Sign out meera").click()
    page.goto(f"{base}/login/")
    assert page_width(page) <= PHONE["width"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "accounts-login-390.png"), full_page=True)
    page.get_by_role("button", name="Use a passkey").click()
    expect(page.get_by_role("button", name="Sign out meera")).to_be_visible()
    # and after a password, it is asked for as the second factor
    page.get_by_role("button", name="Sign out meera").click()
    sign_in(page, base, "meera", PASSWORD)
    expect(page.get_by_role("heading", name="Two-Factor Authentication")).to_be_visible()
    expect(page.get_by_role("button", name="Sign out meera")).to_have_count(0)
    page.get_by_role("button", name="Use a security key").click()
    expect(page.get_by_role("button", name="Sign out meera")).to_be_visible()
    assert not serious_violations(page)
