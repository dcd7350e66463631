"""Nobody can turn the sign-in lock-outs against an account's owner: failures lock the
account only from the address that failed (and an address only for its own failures across
accounts), a lock grows with each failure after it rather than holding everyone out, and a
browser that signed in to the account before gets past every lock for that account, though
never past its password."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.core import signing
from django.test import Client
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from web import known_browsers
from web.lockouts import lock_length

pytestmark = pytest.mark.django_db

CLUB_WIFI = "10.0.0.50"


@pytest.fixture
def people(db: None, settings: Any) -> dict[str, Any]:
    """The organizer and another director (staff: the admin lets them in), each's password
    their name twice, hashed fast (tests/web/test_signin.py's fixture says why)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    return {
        name: users.create_user(name, password=name * 2, is_staff=True)
        for name in ("organizer", "dev")
    }


def sign_in(
    username: str,
    password: str,
    address: str,
    browser: Client | None = None,
    path: str = "/login/",
) -> Any:
    client = browser or Client()
    return client.post(path, {"username": username, "password": password}, REMOTE_ADDR=address)


def signed_in(response: Any) -> bool:
    return response.status_code == 302 and "_auth_user_id" in response.client.session


def known_browser(username: str, address: str) -> Client:
    """A browser that has signed in as ``username`` and signed out again: it keeps the
    known-browser cookie and nothing else of the session."""
    browser = Client()
    assert signed_in(sign_in(username, username * 2, address, browser))
    browser.post("/logout/", REMOTE_ADDR=address)
    assert "_auth_user_id" not in browser.session
    assert browser.cookies[known_browsers.COOKIE].value
    return browser


def test_the_organizer_signs_in_while_an_attacker_fails_from_a_hundred_addresses(
    people: dict[str, Any],
) -> None:
    """The finding: ten wrong passwords from anywhere locked the account for everyone."""
    own = known_browser("organizer", "192.0.2.10")
    for n in range(100):
        attacker = f"198.51.100.{n}"
        assert sign_in("organizer", f"guess{n}", attacker).status_code == 200
        if n % 10 == 9:
            assert signed_in(sign_in("organizer", "organizerorganizer", "192.0.2.10", own))
            own.post("/logout/", REMOTE_ADDR="192.0.2.10")
            # a browser never used before, at another address of the organizer's, too
            assert signed_in(sign_in("organizer", "organizerorganizer", "203.0.113.7"))


def test_an_attacker_at_ten_addresses_locks_only_those_addresses(
    people: dict[str, Any],
) -> None:
    for n in range(100):
        sign_in("organizer", f"guess{n}", f"198.51.100.{n % 10}")
    assert sign_in("organizer", "organizerorganizer", "198.51.100.3").status_code == 429
    assert signed_in(sign_in("organizer", "organizerorganizer", "192.0.2.10"))


def test_a_browser_that_signed_in_before_gets_in_on_the_attackers_address(
    people: dict[str, Any], settings: Any
) -> None:
    """The club's shared Wi-Fi: the attacker's failures lock the organizer's account there,
    and the address itself; the organizer's own browser gets in all the same."""
    own = known_browser("organizer", CLUB_WIFI)
    for n in range(100):
        sign_in("organizer", f"guess{n}", CLUB_WIFI)
    for n in range(settings.SIGNIN_ADDRESS_FAILURE_LIMIT):
        sign_in(f"nobody{n}", "guess", CLUB_WIFI)
    # a browser that never signed in as the organizer is refused, right password or not
    assert sign_in("organizer", "organizerorganizer", CLUB_WIFI).status_code == 429
    dev_browser = known_browser("dev", "192.0.2.11")
    assert sign_in("organizer", "organizerorganizer", CLUB_WIFI, dev_browser).status_code == 429
    # the organizer's own browser: its password is still checked, then it is in
    wrong = sign_in("organizer", "not the password", CLUB_WIFI, own)
    assert wrong.status_code == 200 and not signed_in(wrong)
    assert signed_in(sign_in("organizer", "organizerorganizer", CLUB_WIFI, own))
    # and at the admin's sign-in as well
    own.post("/logout/", REMOTE_ADDR=CLUB_WIFI)
    admin = sign_in("organizer", "organizerorganizer", CLUB_WIFI, own, path="/admin/login/")
    assert signed_in(admin)


def test_a_known_browsers_own_failures_end_its_pass(people: dict[str, Any]) -> None:
    """A cookie taken from a browser that signed in once buys a handful of guesses."""
    own = known_browser("organizer", CLUB_WIFI)
    for n in range(10):
        sign_in("organizer", f"guess{n}", "198.51.100.1")
        sign_in("organizer", f"guess{n}", CLUB_WIFI)  # the pair at the Wi-Fi is locked
    answers = [sign_in("organizer", f"g{n}", CLUB_WIFI, own).status_code for n in range(12)]
    assert answers == [200] * 9 + [429] * 3  # its tenth failure ends its pass
    assert sign_in("organizer", "organizerorganizer", CLUB_WIFI, own).status_code == 429
    # elsewhere no lock holds, so neither does the pass matter there
    assert signed_in(sign_in("organizer", "organizerorganizer", "192.0.2.10", own))


@pytest.mark.parametrize(
    "cookie",
    [
        "edited",
        signing.dumps({"id": "x", "accounts": ["organizer"]}, salt="another purpose"),
        signing.dumps({"id": "x", "accounts": "organizer"}, salt=known_browsers.SALT),
        signing.dumps(["organizer"], salt=known_browsers.SALT),
    ],
    # named, not shown: a signed value holds the time it was made, and two xdist workers
    # collecting a second apart would each name these tests differently
    ids=["edited", "another-purpose", "accounts-not-a-list", "not-a-dict"],
)
def test_a_forged_or_edited_cookie_is_no_pass(people: dict[str, Any], cookie: str) -> None:
    own = known_browser("organizer", CLUB_WIFI)
    for n in range(10):
        sign_in("organizer", f"guess{n}", CLUB_WIFI)
    value = own.cookies[known_browsers.COOKIE].value
    own.cookies[known_browsers.COOKIE] = value + "x" if cookie == "edited" else cookie
    assert sign_in("organizer", "organizerorganizer", CLUB_WIFI, own).status_code == 429


@pytest.mark.parametrize("days_old", [0, 364, 366])
def test_a_cookie_older_than_its_lifetime_is_no_pass(
    people: dict[str, Any], settings: Any, days_old: int
) -> None:
    assert settings.SIGNIN_KNOWN_BROWSER_DAYS == 365  # the default
    for n in range(10):
        sign_in("organizer", f"guess{n}", CLUB_WIFI)
    then = time.time() - days_old * 86400
    with mock.patch("django.core.signing.time.time", return_value=then):
        mark = known_browsers.account_mark("organizer")
        cookie = signing.dumps({"id": "x", "accounts": [mark]}, salt=known_browsers.SALT)
    browser = Client()
    browser.cookies[known_browsers.COOKIE] = cookie
    answer = sign_in("organizer", "organizerorganizer", CLUB_WIFI, browser)
    assert signed_in(answer) is (days_old < 365)


@pytest.mark.parametrize("secure", [True, False])
def test_the_cookie_is_kept_from_scripts_and_other_sites(
    people: dict[str, Any], settings: Any, secure: bool
) -> None:
    settings.SESSION_COOKIE_SECURE = secure
    browser = Client()
    assert signed_in(sign_in("dev", "devdev", CLUB_WIFI, browser))
    cookie = browser.cookies[known_browsers.COOKIE]
    assert cookie["httponly"] is True and cookie["samesite"] == "Lax"
    assert bool(cookie["secure"]) is secure
    assert int(cookie["max-age"]) == settings.SIGNIN_KNOWN_BROWSER_DAYS * 86400
    # one browser, two accounts: it stays known for both, the latest first
    browser.post("/logout/", REMOTE_ADDR=CLUB_WIFI)
    assert signed_in(sign_in("organizer", "organizerorganizer", CLUB_WIFI, browser))
    raw = browser.cookies[known_browsers.COOKIE].value
    named = signing.loads(raw, salt=known_browsers.SALT)
    marks = [known_browsers.account_mark(name) for name in ("organizer", "dev")]
    assert named["accounts"] == marks
    # the cookie is only signed, not sealed: it names its accounts by marks, never by name
    assert "organizer" not in raw and "organizer" not in str(named) and "dev" not in str(named)
    # a cookie of the old kind, naming the account, is no pass
    for n in range(10):
        sign_in("organizer", f"guess{n}", CLUB_WIFI)
    old = Client()
    old.cookies[known_browsers.COOKIE] = signing.dumps(
        {"id": "y", "accounts": ["organizer"]}, salt=known_browsers.SALT
    )
    assert not signed_in(sign_in("organizer", "organizerorganizer", CLUB_WIFI, old))
    # a failed sign-in makes no browser known
    stranger = Client()
    sign_in("dev", "wrong", CLUB_WIFI, stranger)
    assert known_browsers.COOKIE not in stranger.cookies


class Clock:
    """axes' clock and Django's (a new record's time), set by the test: the time every record
    and every check goes by."""

    def __init__(self) -> None:
        self.now = timezone.now()

    @contextlib.contextmanager
    def running(self) -> Iterator[None]:
        with (
            mock.patch("axes.handlers.proxy.now", side_effect=lambda: self.now),
            mock.patch("django.utils.timezone.now", side_effect=lambda: self.now),
        ):
            yield

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def test_each_failure_after_a_lock_doubles_it_up_to_the_longest(
    people: dict[str, Any], settings: Any
) -> None:
    settings.SIGNIN_LOCKOUT_MAX_SECONDS = 3600
    clock = Clock()
    with clock.running():
        for n in range(10):
            sign_in("organizer", f"guess{n}", CLUB_WIFI)
        waits = []
        for n in range(4):
            refused = sign_in("organizer", "organizerorganizer", CLUB_WIFI)
            assert refused.status_code == 429
            wait = int(refused["Retry-After"])
            waits.append((wait, refused.content.decode()))
            clock.advance(wait - 1)
            assert sign_in("organizer", "organizerorganizer", CLUB_WIFI).status_code == 429
            clock.advance(1)
            answer = sign_in("organizer", f"after the lock {n}", CLUB_WIFI)  # counted again
            assert answer.status_code == 429  # and locked again at once, for longer
        assert [wait for wait, _ in waits] == [900, 1800, 3600, 3600]
        assert "Wait 15 minutes, then try again." in waits[0][1]
        assert "Wait 30 minutes, then try again." in waits[1][1]
        assert "Wait 60 minutes, then try again." in waits[3][1]
        clock.advance(3600)
        assert signed_in(sign_in("organizer", "organizerorganizer", CLUB_WIFI))


def test_failures_are_forgotten_after_twice_the_longest_lock(
    people: dict[str, Any], settings: Any
) -> None:
    settings.SIGNIN_LOCKOUT_MAX_SECONDS = 3600
    clock = Clock()
    with clock.running():
        for n in range(13):  # an hour apart: locked, then three more, each after the lock
            sign_in("organizer", f"guess{n}", CLUB_WIFI)
            clock.advance(3600)
        clock.advance(2 * 3600)
        answers = [sign_in("organizer", f"g{n}", CLUB_WIFI).status_code for n in range(10)]
        assert answers == [200] * 9 + [429]  # a fresh count: ten failures again, 15 minutes
        clock.advance(900)
        assert signed_in(sign_in("organizer", "organizerorganizer", CLUB_WIFI))


@given(
    limit=st.integers(1, 100),
    base=st.integers(1, 10**6),
    extra=st.integers(0, 10**6),
    failures=st.integers(0, 10**4),
)
def test_a_lock_grows_by_doubling_and_stops_at_the_longest(
    limit: int, base: int, extra: int, failures: int
) -> None:
    from django.test import override_settings

    longest = base + extra
    with override_settings(SIGNIN_LOCKOUT_SECONDS=base, SIGNIN_LOCKOUT_MAX_SECONDS=longest):
        length = lock_length(failures, limit)
        following = lock_length(failures + 1, limit)
    if failures < limit:
        assert length is None
        return
    assert length is not None and following is not None
    expected = min(longest, base * 2 ** min(failures - limit, 64))
    assert length == timedelta(seconds=expected)
    assert following == min(timedelta(seconds=longest), 2 * length)
