"""``manage.py first_run``: the first organizer, their club and a club token, once."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from api.models import ApiToken
from tournaments.models import Club, Tournament

from .conftest import CommittingClient

pytestmark = pytest.mark.django_db


def first_run(*args: str) -> str:
    out = io.StringIO()
    call_command("first_run", *args, stdout=out)
    return out.getvalue()


def test_first_run_makes_the_organizer_their_club_and_a_working_token(
    monkeypatch: Any,
) -> None:
    monkeypatch.setenv("FIRST_RUN_PASSWORD", "a long enough passphrase 42")
    out = first_run("--username", "meera", "--club", "Chennai Seep", "--time-zone", "Asia/Kolkata")
    meera = get_user_model().objects.get(username="meera")
    assert meera.is_superuser and meera.check_password("a long enough passphrase 42")
    club = Club.objects.get(name="Chennai Seep")
    assert list(club.directors.all()) == [meera] and club.time_zone == "Asia/Kolkata"
    text = out.strip().splitlines()[-1]
    token = ApiToken.objects.get()
    assert (token.club, token.write, token.user) == (club, True, meera)
    assert text.startswith(token.token_key) and text != token.digest
    client = CommittingClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {text}")
    made = client.post(
        "/api/v1/tournaments/", {"name": "First evening", "slug": "first"}, format="json"
    )
    assert made.status_code == 201, made.content
    assert Tournament.objects.get(pk=made.json()["id"]).club == club


def test_a_second_run_refuses_and_changes_nothing(monkeypatch: Any) -> None:
    first_run("--username", "meera", "--club", "Chennai Seep", "--no-password")
    assert not get_user_model().objects.get(username="meera").has_usable_password()
    before = (get_user_model().objects.count(), Club.objects.count(), ApiToken.objects.count())
    with pytest.raises(CommandError, match="has run already"):
        first_run("--username", "other", "--club", "Other club", "--no-password")
    after = (get_user_model().objects.count(), Club.objects.count(), ApiToken.objects.count())
    assert after == before


def test_without_a_password_off_a_terminal_it_asks_for_one(monkeypatch: Any) -> None:
    monkeypatch.delenv("FIRST_RUN_PASSWORD", raising=False)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    with pytest.raises(CommandError, match="FIRST_RUN_PASSWORD"):
        first_run("--username", "meera", "--club", "Chennai Seep")
    assert not get_user_model().objects.exists()


def test_a_refused_club_leaves_no_account(monkeypatch: Any) -> None:
    with pytest.raises(CommandError, match="time zone"):
        first_run("--username", "meera", "--club", "C", "--time-zone", "Mars/Base", "--no-password")
    assert not get_user_model().objects.exists() and not Club.objects.exists()
