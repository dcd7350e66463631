"""Accounts in Chromium, at 390 and 1280 pixels: an organizer signs up, verifies their
address from the mail, names their club and lands on its desk; a forgotten password is reset
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

from tournaments.models import Club

# Playwright's names from .browser, which first skips this module without the browser tools
from .browser import (
    PHONE,
    SHOTS,
    WIDE,
    Browser,
    Page,
    database,
    expect,
    page_width,
    serious_violations,
)

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "Kabaddi-Night-2026"


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


@pytest.mark.parametrize("viewport", [PHONE, WIDE], ids=["390", "1280"])
def test_an_organizer_signs_up_verifies_names_their_club_and_lands_on_its_desk(
    browser: Browser, live_server: Any, contexts: list[Any], viewport: dict[str, int]
) -> None:
    base = live_server.url
    page = new_page(browser, contexts, viewport)
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
    page.wait_for_url(re.compile(r"/accounts/2fa/"))
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
