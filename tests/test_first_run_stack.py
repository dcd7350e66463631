"""README's first organizer against ``make stack``'s settings: the documented command line,
run as written from a plain shell (no ``DEBUG``, none of the stack's variables but those a test
must point elsewhere), makes the organizer, their club and a token on the stack's database."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from deploy.stack import REPO

pytestmark = pytest.mark.process


def test_the_readmes_first_run_line_works_against_the_stacks_settings(tmp_path: Path) -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    line = 'python -m deploy.stack manage first_run --username meera --club "Chennai Seep"'
    assert line in readme  # the line tested is the line documented
    database = tmp_path / "stack.sqlite3"
    secret, receipts = tmp_path / "secret", tmp_path / "receipts"
    secret.write_text("s" * 60 + "\n")
    from tournaments.receipts import generate_private_key_text

    receipts.write_text(generate_private_key_text() + "\n")
    # a plain shell's: none of the settings the tests' own process was given
    env = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG", "TMPDIR"}}
    env.update(
        FIRST_RUN_PASSWORD="a long enough passphrase 42",
        DATABASE_URL=f"sqlite:///{database}",  # the stack's PostgreSQL, here a scratch file
        REDIS_URL="redis://127.0.0.1:6379/8",
        SECRET_KEY_FILE=str(secret),  # the stack's own key files, here scratch ones
        RECEIPT_SIGNING_KEY_FILE=str(receipts),
    )
    args = ["-m", "deploy.stack", "manage", "first_run", "--username", "meera"]
    done = subprocess.run(
        [sys.executable, *args, "--club", "Chennai Seep"],
        check=False,
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[0].startswith("Made the organizer 'meera' (a superuser) and the club")
    assert lines[-1].startswith("seep_")  # the token, alone on the last line
    with sqlite3.connect(database) as db:
        users = db.execute("SELECT username, is_superuser FROM auth_user").fetchall()
        clubs = db.execute("SELECT name FROM tournaments_club").fetchall()
    assert users == [("meera", 1)] and clubs == [("Chennai Seep",)]
