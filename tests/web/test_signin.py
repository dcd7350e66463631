"""Signing in resists guessing: after SIGNIN_FAILURE_LIMIT failures for one account from one
address, or SIGNIN_ADDRESS_FAILURE_LIMIT from one address, signing in there is refused (429,
in words how long to wait) before any password is checked, until the lock ends by itself;
nobody else is locked out by it (tests/web/test_signin_owner.py: not even the account's
owner)."""

from __future__ import annotations

import time
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import MD5PasswordHasher
from django.test import Client

pytestmark = pytest.mark.django_db

PATHS = ["/login/", "/admin/login/"]


@pytest.fixture
def people(db: None, settings: Any) -> dict[str, Any]:
    """Two accounts (staff, so the admin lets them in too), each's password its name twice.

    Hashed with a fast hasher: a wrong password against a hash weaker than the default costs
    the default's full work (Django's ``harden_runtime``), 0.3 s a guess here."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    users = get_user_model().objects
    return {
        name: users.create_user(name, password=name * 2, is_staff=True) for name in ("asha", "dev")
    }


def sign_in(path: str, username: str, password: str, address: str = "10.0.0.1") -> Any:
    return Client().post(path, {"username": username, "password": password}, REMOTE_ADDR=address)


def signed_in(response: Any) -> bool:
    return response.status_code == 302 and "_auth_user_id" in response.client.session


@pytest.mark.parametrize("path", PATHS)
def test_thirty_wrong_passwords_then_the_right_one_is_refused(
    path: str, people: dict[str, Any]
) -> None:
    answers = [sign_in(path, "asha", f"guess{n}").status_code for n in range(30)]
    assert answers == [200] * 9 + [429] * 21  # the tenth failure sets the lock
    refused = sign_in(path, "asha", "ashaasha")
    assert refused.status_code == 429 and not signed_in(refused)
    text = refused.content.decode()
    assert "Too many failed sign-ins for this account from this address" in text
    assert "Wait 15 minutes, then try again." in text
    assert 890 <= int(refused["Retry-After"]) <= 900
    assert refused["Content-Type"].startswith("text/html")


def test_the_lock_ends_by_itself(people: dict[str, Any], settings: Any) -> None:
    settings.SIGNIN_LOCKOUT_SECONDS = 1
    for n in range(9):
        sign_in("/login/", "asha", f"guess{n}")
    last_failure = time.monotonic()  # the lock runs from when the tenth failure came in
    sign_in("/login/", "asha", "guess9")
    refused = sign_in("/login/", "asha", "ashaasha")
    assert (
        refused.status_code == 429 and "Wait 1 second, then try again." in refused.content.decode()
    )
    time.sleep(max(0.0, 1.1 - (time.monotonic() - last_failure)))
    assert signed_in(sign_in("/login/", "asha", "ashaasha"))


def test_the_guesses_after_the_lock_do_not_keep_it(people: dict[str, Any], settings: Any) -> None:
    """A failure while locked is not counted: guessing on does not stretch the lock."""
    settings.SIGNIN_LOCKOUT_SECONDS = 1
    for n in range(9):
        sign_in("/login/", "asha", f"guess{n}")
    last_counted = time.monotonic()
    sign_in("/login/", "asha", "guess9")
    while time.monotonic() - last_counted < 0.8:
        assert sign_in("/login/", "asha", "more guessing").status_code == 429
    time.sleep(max(0.0, 1.1 - (time.monotonic() - last_counted)))
    assert signed_in(sign_in("/login/", "asha", "ashaasha"))


def test_an_address_guessing_many_accounts_is_locked_out_alone(
    people: dict[str, Any], settings: Any
) -> None:
    assert settings.SIGNIN_ADDRESS_FAILURE_LIMIT == 50  # the default
    answers = [
        sign_in("/login/", f"nobody{n}", "guess", address="10.0.0.9").status_code for n in range(50)
    ]
    assert answers == [200] * 49 + [429]  # one failure each: no account's lock, the address's
    assert sign_in("/login/", "dev", "devdev", address="10.0.0.9").status_code == 429
    # the accounts it tried are not locked: elsewhere they, and others, sign in
    assert signed_in(sign_in("/login/", "dev", "devdev", address="10.0.0.2"))
    assert signed_in(sign_in("/admin/login/", "asha", "ashaasha", address="10.0.0.3"))


def test_others_failures_from_another_address_lock_nothing(people: dict[str, Any]) -> None:
    for n in range(30):  # the pair's lock, three times over
        sign_in("/login/", "asha", f"guess{n}", address="10.0.0.66")
    assert signed_in(sign_in("/login/", "asha", "ashaasha", address="10.0.0.7"))
    assert signed_in(sign_in("/login/", "dev", "devdev", address="10.0.0.7"))


def test_a_locked_sign_in_hashes_no_password(people: dict[str, Any], settings: Any) -> None:
    settings.SIGNIN_ADDRESS_FAILURE_LIMIT = 10
    for n in range(10):
        sign_in("/login/", "asha", f"guess{n}")
    hashed = AssertionError("a password was hashed")
    with (
        mock.patch.object(MD5PasswordHasher, "verify", side_effect=hashed) as verify,
        mock.patch.object(MD5PasswordHasher, "encode", side_effect=hashed) as encode,
    ):
        assert sign_in("/login/", "asha", "ashaasha").status_code == 429
        assert sign_in("/login/", "nobody", "guess").status_code == 429  # the address's lock
    assert not verify.called and not encode.called


def test_the_address_is_the_connections_unless_proxies_are_configured(
    people: dict[str, Any], settings: Any
) -> None:
    def guess(n: int, forwarded: str) -> int:
        return (
            Client()
            .post(
                "/login/",
                {"username": f"nobody{n}", "password": "guess"},
                REMOTE_ADDR="10.0.0.1",
                HTTP_X_FORWARDED_FOR=forwarded,
            )
            .status_code
        )

    settings.SIGNIN_ADDRESS_FAILURE_LIMIT = 10
    # no proxy configured: a forwarded address a caller sends is no way around the lock
    assert [guess(n, f"192.0.2.{n}") for n in range(11)] == [200] * 9 + [429] * 2
    # behind one proxy: the address it saw, and a value that is no address never a 500
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    assert guess(0, "198.51.100.1") == 200
    assert guess(1, "not an address") == 429  # counted as the connection's (10.0.0.1)
    assert guess(2, "2001:db8:1:2::1, 198.51.100.2") == 200


def test_the_sign_in_attempts_in_the_admin_are_a_superusers_alone(
    people: dict[str, Any], django_user_model: Any
) -> None:
    from django.contrib.auth.models import Permission

    Client().post("/login/", {"username": "nobody", "password": "guess"})
    staff = django_user_model.objects.create_user("staff", is_staff=True)
    staff.user_permissions.set(Permission.objects.filter(content_type__app_label="axes"))
    root = django_user_model.objects.create_superuser("root")
    for who, seen in ((staff, False), (root, True)):
        client = Client()
        client.force_login(who)
        listed = client.get("/admin/axes/accessattempt/")
        assert (listed.status_code == 200) is seen, who
        assert ("nobody" in listed.content.decode()) is seen
        assert ("/admin/axes/" in client.get("/admin/").content.decode()) is seen
