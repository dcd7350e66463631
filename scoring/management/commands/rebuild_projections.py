"""``manage.py rebuild_projections``: recompute the scoring read models from the event logs."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.projections import ProjectionError
from scoring.services import check_match_projection, update_match_projection
from scoring.signals import projections_rebuilt
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
            help="fail if any row differed from the rebuild as of its own checkpoint (the "
            "incremental projection was wrong); a projection only behind its log (its task "
            "still queued) is reported as behind, not wrong. The rows are corrected all the same",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        ids = Match.objects.order_by("pk").values_list("pk", flat=True)
        if options["match"]:
            ids = ids.filter(pk__in=options["match"])
            missing = sorted(set(options["match"]) - set(ids))
            if missing:
                raise CommandError(f"no match with id {', '.join(map(str, missing))}")
        failed, changed, matches, wrong = 0, 0, 0, 0
        for match_id in ids:
            try:
                if options["check"]:
                    check = check_match_projection(match_id=match_id)
                    if check.differing:
                        wrong += check.differing
                        self.stderr.write(
                            f"match {match_id}: {check.differing} row(s) differ from the log "
                            f"as of event {check.checkpoint}"
                        )
                    elif check.behind:
                        self.stdout.write(
                            f"match {match_id}: behind its log (projected to event "
                            f"{check.checkpoint} of {check.head}): brought up to date"
                        )
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
        # Projections built on these (a stage's standings) are rebuilt by their own apps.
        for _receiver, said in projections_rebuilt.send(sender=self.__class__):
            if said:
                self.stdout.write(str(said))
        if failed:
            raise CommandError(f"{failed} match(es) could not be rebuilt")
        if options["check"] and wrong:
            raise CommandError(f"{wrong} row(s) differed from the rebuild")
