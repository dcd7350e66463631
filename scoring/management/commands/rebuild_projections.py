"""``manage.py rebuild_projections``: recompute the scoring read models from the event logs."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.projections import ProjectionError
from scoring.services import update_match_projection
from tournaments.models import Match


class Command(BaseCommand):
    help = (
        "Recompute the scoring projections (deal and match results) from the match logs, "
        "ignoring checkpoints, and write the rows that differ."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--match", type=int, action="append", help="only this match id (repeatable)"
        )
        parser.add_argument(
            "--check",
            action="store_true",
            help="fail if any row had to change (the incremental projection was not the "
            "rebuild's); the rows are corrected all the same",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        ids = Match.objects.order_by("pk").values_list("pk", flat=True)
        if options["match"]:
            ids = ids.filter(pk__in=options["match"])
            missing = sorted(set(options["match"]) - set(ids))
            if missing:
                raise CommandError(f"no match with id {', '.join(map(str, missing))}")
        failed, changed, matches = 0, 0, 0
        for match_id in ids:
            try:
                update = update_match_projection(match_id=match_id, rebuild=True)
            except ProjectionError as exc:
                failed += 1
                self.stderr.write(f"match {match_id}: the log does not fold: {exc}")
                continue
            matches += 1
            changed += update.rows_changed
            if update.rows_changed or options["verbosity"] > 1:
                self.stdout.write(
                    f"match {match_id}: at event {update.seq}, {update.rows_changed} row(s) changed"
                )
        self.stdout.write(f"{matches} match(es) rebuilt, {changed} row(s) changed")
        if failed:
            raise CommandError(f"{failed} match(es) could not be rebuilt")
        if options["check"] and changed:
            raise CommandError(f"{changed} row(s) differed from the rebuild")
