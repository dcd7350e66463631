"""``manage.py verify_match <id>...``: recompute hash chains and replay matches from their logs."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Match
from tournaments.verify import verify_match


class Command(BaseCommand):
    help = (
        "Recompute each match's hash chain and replay it from its first event through the "
        "engine, comparing with the stored snapshot; exit non-zero and say where on a mismatch."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_ids", nargs="*", type=int, help="match ids (default: all)")
        parser.add_argument("--all", action="store_true", help="verify every match")

    def handle(self, *args: Any, **options: Any) -> None:
        ids = options["match_ids"]
        if not ids and not options["all"]:
            raise CommandError("name one or more match ids, or --all")
        matches = Match.objects.order_by("pk")
        if ids:
            matches = matches.filter(pk__in=ids)
            missing = sorted(set(ids) - set(matches.values_list("pk", flat=True)))
            if missing:
                raise CommandError(f"no match with id {', '.join(map(str, missing))}")
        failed = 0
        for match in matches:
            problems = verify_match(match)
            if problems:
                failed += 1
                for problem in problems:
                    self.stderr.write(f"match {match.pk}: {problem}")
            else:
                self.stdout.write(f"match {match.pk}: ok ({match.last_seq} events)")
        if failed:
            raise CommandError(f"{failed} match(es) failed verification")
