"""``manage.py rebuild_snapshots``: rebuild every match snapshot from its event log."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from tournaments.matchlog import LogInconsistent
from tournaments.models import Match
from tournaments.snapshots import rebuild_snapshot


class Command(BaseCommand):
    help = "Rebuild match snapshots (the engine state that validates appends) from the logs."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--match", type=int, action="append", help="only this match id")

    def handle(self, *args: Any, **options: Any) -> None:
        ids = Match.objects.order_by("pk").values_list("pk", flat=True)
        if options["match"]:
            ids = ids.filter(pk__in=options["match"])
        failed = 0
        for match_id in ids:
            try:
                with transaction.atomic():  # locked: no append can slip in mid-rebuild
                    match = Match.objects.select_for_update(no_key=True).get(pk=match_id)
                    rebuild_snapshot(match)
            except LogInconsistent as exc:
                failed += 1
                self.stderr.write(f"match {match_id}: log does not replay: {exc}")
            else:
                self.stdout.write(f"match {match_id}: snapshot at seq {match.last_seq}")
        if failed:
            raise CommandError(f"{failed} match(es) could not be rebuilt")
