"""Signed receipts: an anchor for a finished match's history that lives outside the database.

A forger who can write every table (triggers off, chain recomputed, head and snapshot fixed up)
passes every check the database can make about itself; the receipts handed out when the
match ended give them away, checked by ``verify_match --receipts`` or offline by anyone with
the public key, and they cannot be re-signed without the key.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from tests.matches import forge
from tournaments import receipts
from tournaments.access import SYSTEM
from tournaments.clubs import club_create
from tournaments.matchlog import repeatable_decks
from tournaments.models import Match, MatchReceipt, Tournament
from tournaments.services import match_append_event
from tournaments.snapshots import rebuild_snapshot
from tournaments.verify import verify_match

pytestmark = pytest.mark.django_db

REPO = Path(settings.BASE_DIR)


def append(match: Match, kind: str, payload: dict[str, Any]) -> Any:
    match.refresh_from_db()
    return match_append_event(match=match, expected_seq=match.last_seq, kind=kind,
                              payload=payload, actor=SYSTEM,
                              shuffle=repeatable_decks(1))  # fmt: skip


def finish(match: Match) -> Match:
    append(match, "match_started", {"first_dealer": 0})
    append(match, "deal_ended", {"points": [60, 40], "sweeps": [[], []]})
    append(match, "deal_ended", {"points": [95, 5], "sweeps": [[], []]})  # L3: team 0's bazzi
    match.refresh_from_db()
    return match


def export(tmp_path: Path) -> Path:
    out = StringIO()
    call_command("export_receipts", stdout=out)
    path = tmp_path / "receipts.json"
    path.write_text(out.getvalue())
    return path


def verify_command(*args: Any) -> tuple[str, str, CommandError | None]:
    out, err = StringIO(), StringIO()
    try:
        call_command("verify_match", *map(str, args), stdout=out, stderr=err)
    except CommandError as exc:
        return out.getvalue(), err.getvalue(), exc
    return out.getvalue(), err.getvalue(), None


def offline(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the offline check as a stranger would: no Django settings, no database."""
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "tournaments.receipts", *args], env=env,
                          capture_output=True, text=True, timeout=60, check=False)  # fmt: skip


def public_key() -> str:
    return receipts.public_key_text(receipts.signing_key().public_key())


def test_a_finished_match_gets_one_signed_receipt_of_its_head_and_result(world: Any) -> None:
    match = finish(world.score_match)
    (receipt,) = MatchReceipt.objects.filter(match=match)
    body = receipts.verify(receipts.Receipt(receipt.body, receipt.signature),
                           receipts.trusted_public_keys())  # fmt: skip
    assert (body["match"], body["seq"], body["head_hash"]) == (match.pk, 4, match.last_hash)
    assert body["result"] == {"winner": 0, "draw": False, "bazzis": [1, 0],
                              "difference": 0, "deals": 2}  # fmt: skip
    assert body["tournament"] == "club-championship"


def test_a_match_still_in_play_has_no_receipt(world: Any) -> None:
    match = world.score_match
    append(match, "match_started", {"first_dealer": 0})
    append(match, "deal_ended", {"points": [60, 40], "sweeps": [[], []]})
    assert not MatchReceipt.objects.filter(match=match).exists()


@pytest.mark.process
def test_receipts_check_out_offline_with_the_public_key(world: Any, tmp_path: Path) -> None:
    finish(world.score_match)
    path = export(tmp_path)
    checked = offline("verify", "--public-key", public_key(), str(path))
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.startswith(
        f"receipt 1: ok: match {world.score_match.pk} ended at event 4"
    )
    stranger = receipts.public_key_text(
        receipts.load_private_key(receipts.generate_private_key_text()).public_key()
    )
    wrong_key = offline("verify", "--public-key", stranger, str(path))
    assert wrong_key.returncode == 1 and "INVALID" in wrong_key.stdout
    # a key may begin with "-" (URL-safe base64): still a key, not an option
    dashed = offline("verify", "--public-key", "-" + stranger[1:], str(path))
    assert "expected one argument" not in dashed.stderr and dashed.returncode == 1


@pytest.mark.process
def test_an_edited_receipt_no_longer_checks_out(world: Any, tmp_path: Path) -> None:
    finish(world.score_match)
    path = export(tmp_path)
    data = json.loads(path.read_text())
    data["receipts"][0]["receipt"]["result"]["winner"] = 1
    path.write_text(json.dumps(data))
    checked = offline("verify", "--public-key", public_key(), str(path))
    assert checked.returncode == 1
    assert "INVALID: the signature does not match the receipt" in checked.stdout


def test_a_rewritten_history_is_caught_by_the_receipts_handed_out(
    world: Any, tmp_path: Path
) -> None:
    match = finish(world.score_match)
    handed_out = export(tmp_path)
    # The forger rewrites the first deal's result consistently (points, total, every hash,
    # the head, the snapshot) and deletes the stored receipt that would give it away.
    forge(match, lambda e: {**e.payload, "points": [55, 45], "total": [55, 45]}
          if e.kind == "deal_ended" and e.payload["deal"] == 1 else None)  # fmt: skip
    MatchReceipt.objects.filter(match=match).delete()
    rebuild_snapshot(match)
    without = [str(p) for p in verify_match(match)]
    assert without == ["event 4: the match ended here, and no receipt was stored for it"]
    _, err, error = verify_command(match.pk, "--receipts", handed_out)
    assert error is not None
    assert f"match {match.pk}: event 4: the log differs from its signed receipt (head hash)" in err


def test_an_intact_database_passes_against_its_receipts(world: Any, tmp_path: Path) -> None:
    match = finish(world.score_match)
    out, err, error = verify_command("--all", "--receipts", export(tmp_path))
    assert error is None, err
    assert f"match {match.pk}: ok" in out


def test_a_receipt_for_a_match_that_is_gone_is_reported(world: Any, tmp_path: Path) -> None:
    finish(world.score_match)
    path = export(tmp_path)
    data = json.loads(path.read_text())
    data["receipts"][0]["receipt"]["match"] = 99999  # a stranger's receipt: signature breaks
    path.write_text(json.dumps(data))
    _, err, error = verify_command("--all", "--receipts", path)
    assert error is not None and "match 99999: has a receipt but is not in the database" in err


def test_a_receipt_signed_by_a_retired_key_is_still_accepted(world: Any, settings: Any) -> None:
    match = finish(world.score_match)
    old = receipts.signing_key()
    settings.RECEIPT_SIGNING_KEY = receipts.generate_private_key_text()
    assert any("signed with key" in str(p) for p in verify_match(match))
    settings.RECEIPT_PUBLIC_KEYS = [receipts.public_key_text(old.public_key())]
    assert verify_match(match) == []


def test_export_receipts_finds_its_tournament_by_slug_as_the_pages_do_or_by_id(
    world: Any,
) -> None:
    finish(world.score_match)

    def exported(*args: str) -> list[int]:
        out = StringIO()
        call_command("export_receipts", *args, stdout=out)
        found = json.loads(out.getvalue())["receipts"]
        return [r["receipt"]["match"] for r in found]

    club = club_create(actor=world.organizer, name="Elsewhere")
    later = Tournament.objects.create(  # another club's, private, at the same slug
        name="Later", slug="club-championship", organizer=world.organizer, club=club
    )
    assert exported("--tournament", "club-championship") == [world.score_match.pk]  # the oldest
    assert exported("--tournament", str(world.tournament.pk)) == [world.score_match.pk]
    assert exported("--tournament", "nobody-has-this") == []
    Tournament.objects.filter(pk=later.pk).update(published=True)  # the published one, now
    assert exported("--tournament", "club-championship") == []
    assert exported("--tournament", str(world.tournament.pk)) == [world.score_match.pk]
