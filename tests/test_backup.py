"""A backup restores whole: dump the database, restore it into a fresh one, and it verifies.

Uses the documented scripts (deploy/backup.sh, deploy/restore.sh) on the project's own data:
finished and running matches, digital and by score, with their projections and the signed
receipts of the finished ones. The restored database passes ``verify_match --all`` (checking
the logs against the receipts exported before the backup, too) and ``rebuild_projections
--check`` run against it, and its heads of log, events, snapshots, projection rows and
receipts are the original's, to the byte.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.db import connection
from psycopg import sql

from tests.scoring.helpers import enter, new_match, play, start
from tests.scoring.worker import REPO, database_url

pytestmark = [pytest.mark.postgres, pytest.mark.process, pytest.mark.django_db(transaction=True)]

#: what must survive a restore unchanged, each query ordered
CONTENT = {
    "heads": "SELECT id, last_seq, last_hash, status FROM tournaments_match ORDER BY id",
    "events": "SELECT match_id, seq, kind, payload::text, actor_id, recorded_at, "
    "idempotency_key, caused_by, hash FROM tournaments_matchevent ORDER BY match_id, seq",
    "snapshots": "SELECT match_id, seq, state::text FROM tournaments_matchsnapshot ORDER BY 1",
    "match_results": "SELECT * FROM scoring_matchresult ORDER BY match_id",
    "deal_results": "SELECT * FROM scoring_dealresult ORDER BY match_id, deal",
    "receipts": "SELECT match_id, seq, body::text, signature, key_id, issued_at "
    "FROM tournaments_matchreceipt ORDER BY match_id, seq",
}


def content(url: str) -> dict[str, list[tuple[Any, ...]]]:
    with psycopg.connect(url) as db:
        return {name: db.execute(query).fetchall() for name, query in CONTENT.items()}


def manage(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO,
        env={**os.environ, "DATABASE_URL": url},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_dump_restored_into_a_fresh_database_verifies_and_matches_the_original(
    world: Any, tmp_path: Path
) -> None:
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        pytest.fail("pg_dump and pg_restore are needed (PostgreSQL's client programs)")
    digital = world.digital_match
    start(digital, first_dealer=2, seed=3)
    play(digital, random.Random(4), moves=120)
    for teams, deals in (((2, 3), [[60, 40], [5, 95], [70, 30]]), ((0, 2), [[8, 92], [3, 97]])):
        match = new_match(world, fmt={"bazzis": 2}, teams=teams)
        start(match)
        for points in deals:
            enter(match, points)
    original_url = database_url(connection.settings_dict)
    original = content(original_url)
    assert original["match_results"] and original["deal_results"], "projections were made"
    assert original["receipts"], "a match finished, and its receipt was signed"
    exported = manage(original_url, "export_receipts")
    assert exported.returncode == 0, exported.stderr
    handed_out = tmp_path / "receipts.json"
    handed_out.write_text(exported.stdout)  # what the teams were given before the backup

    name = f"{connection.settings_dict['NAME']}_restore"
    admin = psycopg.connect(original_url, autocommit=True)
    admin.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
    admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    restored_url = original_url.rsplit("/", 1)[0] + f"/{name}"
    try:
        dump = tmp_path / "seep.dump"
        backup = subprocess.run(
            [str(REPO / "deploy" / "backup.sh"), str(dump)],
            env={**os.environ, "DATABASE_URL": original_url},
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert backup.returncode == 0, backup.stderr
        assert dump.stat().st_size > 0 and not (tmp_path / "seep.dump.partial").exists()
        restore = subprocess.run(
            [str(REPO / "deploy" / "restore.sh"), str(dump), restored_url],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert restore.returncode == 0, restore.stderr

        verified = manage(restored_url, "verify_match", "--all", "--receipts", str(handed_out))
        assert verified.returncode == 0, verified.stdout + verified.stderr
        assert verified.stdout.count(": ok (") == len(original["heads"])
        rebuilt = manage(restored_url, "rebuild_projections", "--check")
        assert rebuilt.returncode == 0, rebuilt.stdout + rebuilt.stderr
        assert manage(restored_url, "migrate", "--check").returncode == 0

        assert content(restored_url) == original
        with (
            psycopg.connect(restored_url) as db,
            pytest.raises(psycopg.IntegrityError, match="append-only"),
        ):
            db.execute("UPDATE tournaments_matchevent SET kind = kind")  # still append-only
    finally:
        admin.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        admin.close()
