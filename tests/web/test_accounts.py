"""Accounts people make themselves (django-allauth): the sign-up is closed unless the operator
opens it; an organizer who signs up verifies their address, names their club and lands on its
desk; until the address is verified, the account does not sign in; accounts made without an
address (by a director, by ``first_run``) sign in as before."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.test import Client

from tournaments.models import Club

pytestmark = pytest.mark.django_db

PASSWORD = "Kabaddi-Night-2026"


def sign_up(client: Client, name: str = "meera") -> Any:
    return client.post(
        "/accounts/signup/",
        {
            "email": f"{name}@example.org",
            "username": name,
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )


def mailed_link() -> str:
    """Return the path of the link in the last mail sent (the verification, the reset)."""
    found = re.search(r"https?://[^/\s]+(/accounts/\S+/)", mail.outbox[-1].body)
    assert found, mail.outbox[-1].body
    return found.group(1)


@pytest.fixture(autouse=True)
def _fresh_rate_limits() -> Iterator[None]:
    """allauth's rate limits (a verification mail a few minutes per address) live in the
    cache, which outlives a test: each test starts with none."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def open_signup(settings: Any) -> None:
    settings.SIGNUP_OPEN = True
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_the_sign_up_is_closed_unless_the_operator_opens_it(settings: Any) -> None:
    assert settings.SIGNUP_OPEN is False  # the default: a club's own server stays closed
    client = Client()
    page = client.get("/accounts/signup/")
    assert "Sign-up is closed" in page.content.decode() or "closed" in page.content.decode()
    sign_up(client)
    assert not get_user_model().objects.filter(username="meera").exists()
    assert not mail.outbox
    assert "Make an account for your club" not in client.get("/login/").content.decode()


def test_an_organizer_signs_up_verifies_names_their_club_and_lands_on_its_desk(
    open_signup: None,
) -> None:
    client = Client()
    assert "Make an account for your club" in client.get("/login/").content.decode()
    answer = sign_up(client)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    user = get_user_model().objects.get(username="meera")
    assert "_auth_user_id" not in client.session  # not before the address is verified
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["meera@example.org"]
    link = mailed_link()
    assert client.get(link).status_code == 200
    confirmed = client.post(link)
    assert confirmed.status_code == 302 and confirmed["Location"] == "/clubs/new/"
    assert client.session["_auth_user_id"] == str(user.pk)
    page = client.get("/clubs/new/")
    assert "Name your club" in page.content.decode()
    made = client.post(
        "/clubs/new/",
        {"name": "Chennai Seep", "time_zone": "Asia/Kolkata", "language": "ta"},
    )
    assert made.status_code == 422  # no such language here: nothing made
    assert not Club.objects.exists()
    made = client.post(
        "/clubs/new/",
        {"name": "Chennai Seep", "time_zone": "Asia/Kolkata", "language": "hi"},
    )
    assert made.status_code == 302 and made["Location"] == "/desk/"
    club = Club.objects.get()
    assert (club.name, club.time_zone, club.language) == ("Chennai Seep", "Asia/Kolkata", "hi")
    assert list(club.directors.all()) == [user]
    desk = client.get("/desk/").content.decode()
    assert "Chennai Seep is made, and you direct it." in desk
    assert "/clubs/chennai-seep/members/" in desk


def test_an_unverified_account_does_not_sign_in_until_its_address_is_verified(
    open_signup: None,
) -> None:
    sign_up(Client())
    client = Client()
    held = client.post("/login/", {"username": "meera", "password": PASSWORD})
    assert "_auth_user_id" not in client.session
    assert held.status_code == 302 and held["Location"] == "/accounts/confirm-email/"
    assert "Verify" in client.get(held["Location"]).content.decode()
    Client().post(mailed_link())
    # once verified, a sign-in with no club yet goes to name the club
    again = Client()
    signed = again.post("/login/", {"username": "meera", "password": PASSWORD})
    assert signed.status_code == 302
    assert again.session["_auth_user_id"]


def test_an_account_made_without_an_address_signs_in_as_before(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    get_user_model().objects.create_user("scorer", password=PASSWORD)
    client = Client()
    answer = client.post("/login/", {"username": "scorer", "password": PASSWORD})
    assert answer.status_code == 302 and answer["Location"] == "/keep/"
    assert client.session["_auth_user_id"]
    assert not mail.outbox


def test_a_forgotten_password_is_reset_by_a_mailed_link(open_signup: None) -> None:
    sign_up(Client())
    Client().post(mailed_link())
    mail.outbox.clear()
    client = Client()
    client.post("/accounts/password/reset/", {"email": "meera@example.org"})
    assert len(mail.outbox) == 1
    link = client.get(mailed_link())  # the key moves into the session, then a form
    assert link.status_code == 302
    new = "Another-Night-2027"
    done = client.post(link["Location"], {"password1": new, "password2": new})
    assert done.status_code == 302
    fresh = Client()
    fresh.post("/login/", {"username": "meera", "password": new})
    assert fresh.session["_auth_user_id"]


def test_the_account_pages_list_the_sessions_and_the_passkeys(open_signup: None) -> None:
    sign_up(Client())
    client = Client()
    client.post(mailed_link())
    client.post("/login/", {"username": "meera", "password": PASSWORD})
    for path, words in (
        ("/accounts/email/", "meera@example.org"),
        ("/accounts/sessions/", "Where you are signed in"),
        ("/accounts/2fa/", "Passkeys and second factor"),
    ):
        page = client.get(path)
        assert page.status_code == 200, path
        assert words in page.content.decode(), path


def test_an_address_is_changed_once_the_new_one_is_verified(open_signup: None) -> None:
    sign_up(Client())
    client = Client()
    client.post(mailed_link())
    client.post("/login/", {"username": "meera", "password": PASSWORD})
    mail.outbox.clear()
    client.post("/accounts/email/", {"email": "meera@chennai.example", "action_add": ""})
    user = get_user_model().objects.get(username="meera")
    addresses = {a.email: a.verified for a in EmailAddress.objects.filter(user=user)}
    assert addresses == {"meera@example.org": True, "meera@chennai.example": False}
    assert mail.outbox[-1].to == ["meera@chennai.example"]
    client.post(mailed_link())
    addresses = {a.email: (a.verified, a.primary) for a in EmailAddress.objects.filter(user=user)}
    assert addresses == {"meera@chennai.example": (True, True)}
