"""A signed-in person changes their password (an account a director made over the API gets a
password only its owner knows)."""

from __future__ import annotations

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.test import Client

pytestmark = pytest.mark.django_db

FIRST = "a long first password 7"
OWN = "my very own secret 42"


def test_a_player_changes_the_password_they_were_handed_and_the_old_one_stops() -> None:
    user = get_user_model().objects.create_user("chitra", password=FIRST)
    client = Client()
    assert client.post("/login/", {"username": "chitra", "password": FIRST}).status_code == 302
    page = client.get("/password/")
    assert page.status_code == 200 and b"Change your password" in page.content
    changed = client.post(
        "/password/",
        {"old_password": FIRST, "new_password1": OWN, "new_password2": OWN},
    )
    assert changed.status_code == 302 and changed["Location"] == "/password/changed/"
    assert client.get("/password/changed/").status_code == 200  # still signed in
    assert authenticate(username="chitra", password=FIRST) is None
    assert authenticate(username="chitra", password=OWN) == user


def test_a_weak_new_password_or_a_wrong_old_one_changes_nothing() -> None:
    get_user_model().objects.create_user("dev", password=FIRST)
    client = Client()
    client.post("/login/", {"username": "dev", "password": FIRST})
    for body in (
        {"old_password": FIRST, "new_password1": "12345678", "new_password2": "12345678"},
        {"old_password": "wrong one", "new_password1": OWN, "new_password2": OWN},
        {"old_password": FIRST, "new_password1": OWN, "new_password2": OWN + "x"},
    ):
        answer = client.post("/password/", body)
        assert answer.status_code == 200 and b'role="alert"' in answer.content
    assert authenticate(username="dev", password=FIRST) is not None


def test_the_signed_out_are_sent_to_sign_in() -> None:
    answer = Client().get("/password/")
    assert answer.status_code == 302 and "/login/" in answer["Location"]
