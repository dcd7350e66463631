"""``manage.py verify_match <id>...``: recompute hash chains, replay matches, check receipts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Match
from tournaments.receipts import ReceiptInvalid, read_receipts
from tournaments.verify import verify_match


class Command(BaseCommand):
    help = (
        "Recompute each match's hash chain and replay it from its first event through the "
        "engine, comparing with the stored snapshot and the signed receipts (stored, and "
        "those in --receipts files); exit non-zero and say where on a mismatch."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_ids", nargs="*", type=int, help="match ids (default: all)")
        parser.add_argument("--all", action="store_true", help="verify every match")
        parser.add_argument(
            "--receipts",
            type=Path,
            action="append",
            default=[],
            help="a JSON file of receipts handed out earlier (manage.py export_receipts); "
            "every receipt in it must match the log (repeatable)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        ids = options["match_ids"]
        if not ids and not options["all"]:
            raise CommandError("name one or more match ids, or --all")
        try:
            given = [r for path in options["receipts"] for r in read_receipts(path)]
        except ReceiptInvalid as exc:
            raise CommandError(str(exc)) from exc
        matches = Match.objects.order_by("pk")
        if ids:
            matches = matches.filter(pk__in=ids)
            missing = sorted(set(ids) - set(matches.values_list("pk", flat=True)))
            if missing:
                raise CommandError(f"no match with id {', '.join(map(str, missing))}")
        by_match: dict[Any, list[Any]] = {}
        for receipt in given:
            by_match.setdefault(receipt.body.get("match"), []).append(receipt)
        known = set(Match.objects.values_list("pk", flat=True))
        lost = sorted(str(m) for m in by_match if m not in known)
        failed = 0
        for match in matches:
            problems = verify_match(match, receipts_given=by_match.get(match.pk, []))
            if problems:
                failed += 1
                for problem in problems:
                    self.stderr.write(f"match {match.pk}: {problem}")
            else:
                self.stdout.write(f"match {match.pk}: ok ({match.last_seq} events)")
        for match_id in lost:
            failed += 1
            self.stderr.write(f"match {match_id}: has a receipt but is not in the database")
        if failed:
            raise CommandError(f"{failed} match(es) failed verification")
