"""``manage.py first_run``: the first organizer, their club and a club token, on a new site.

What ``createsuperuser`` and a browser did before: an integrator starts from the token this
prints, and does everything else over HTTP (docs/api.md, "Tokens"). The organizer is the
site's superuser (the admin is theirs too) and directs the club; the token is scoped to the
club, may write, and is shown once (stored hashed).

The password comes from ``FIRST_RUN_PASSWORD`` in the environment, or is asked for twice on
a terminal; with ``--no-password`` the account has none (the token is the way in; a password
can be set later with ``changepassword``). It runs once: when the site has a superuser
already it refuses and changes nothing. Everything is made in one transaction.
"""

from __future__ import annotations

import getpass
import os
import sys
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from tournaments import clubs
from tournaments.errors import ClubRefused

from ... import services

#: the environment variable holding the first organizer's password
PASSWORD_VARIABLE = "FIRST_RUN_PASSWORD"


class Command(BaseCommand):
    help = "Make the first organizer (a superuser), their club, and print a club token."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", required=True, help="The organizer's user name.")
        parser.add_argument("--email", default="", help="The organizer's e-mail, if any.")
        parser.add_argument("--club", required=True, help="The club's name.")
        parser.add_argument(
            "--time-zone", default="UTC", help="The club's IANA time zone (Asia/Kolkata)."
        )
        parser.add_argument(
            "--no-password",
            action="store_true",
            help="Make the account without a password: the printed token is the way in.",
        )
        parser.add_argument(
            "--token-days", type=int, default=30, help="Days the club token lasts (1-366)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        accounts = get_user_model()
        first = accounts._default_manager.filter(is_superuser=True).order_by("pk").first()
        if first is not None:
            raise CommandError(
                f"first_run has run already: the site's organizer is {first.get_username()!r}. "
                "Nothing was changed. Sign in as them (or make a token at /account/tokens/ or "
                "POST /api/v1/tokens/ with a club's token) instead."
            )
        if not 1 <= options["token_days"] <= 366:
            raise CommandError("--token-days is from 1 to 366")
        username = options["username"].strip()
        if not username:
            raise CommandError("--username cannot be empty")
        user = accounts(**{accounts.USERNAME_FIELD: username, "email": options["email"]})
        password = self._password(options["no_password"])
        if password is not None:
            try:
                validate_password(password, user)
            except ValidationError as exc:
                raise CommandError("the password is refused: " + " ".join(exc.messages)) from exc
        try:
            with transaction.atomic():
                user.is_staff = user.is_superuser = True
                if password is None:
                    user.set_unusable_password()
                else:
                    user.set_password(password)
                user.full_clean()
                user.save()
                club = clubs.club_create(
                    actor=user, name=options["club"], time_zone=options["time_zone"]
                )
                token, text = services.token_create(
                    user=user,
                    name="first run",
                    club=club,
                    expires_in_days=options["token_days"],
                    write=True,
                )
        except ValidationError as exc:
            raise CommandError("the account is refused: " + " ".join(exc.messages)) from exc
        except ClubRefused as exc:
            raise CommandError(f"the club is refused: {exc.message}") from exc
        self.stdout.write(
            f"Made the organizer {username!r} (a superuser) and the club {club.name!r} "
            f"(id {club.pk}, /clubs/{club.slug}/members/).\n"
            f"Its token (club {club.pk}, may write, expires {token.expiry:%Y-%m-%d}; shown "
            "this once, keep it secret):\n"
        )
        self.stdout.write(text)

    def _password(self, none: bool) -> str | None:
        """The password: from the environment, asked for on a terminal, or none if asked."""
        if none:
            return None
        given = os.environ.get(PASSWORD_VARIABLE)
        if given:
            return given
        if not sys.stdin.isatty():
            raise CommandError(
                f"no password: set {PASSWORD_VARIABLE}, run it on a terminal to be asked, or "
                "pass --no-password (the printed token is then the way in)"
            )
        password = getpass.getpass("Password: ")
        if password != getpass.getpass("Password (again): "):
            raise CommandError("the two passwords differ: nothing was changed")
        return password
