"""``manage.py export_receipts``: write the signed receipts of finished matches as JSON."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.access import at_slug
from tournaments.models import ID_LIMIT, MatchReceipt, Tournament
from tournaments.receipts import Receipt, public_key_text, signing_key


def _tournament(named: str) -> Tournament | None:
    """The tournament ``--tournament`` names: by its slug (``tournaments.access.at_slug``:
    several private tournaments of several clubs may hold one), else by its id; None (no
    receipts) if none."""
    found = at_slug(Tournament.objects.all(), named)
    if found is None and named.isascii() and named.isdigit() and int(named) < ID_LIMIT:
        found = Tournament.objects.filter(pk=int(named)).first()
    return found


class Command(BaseCommand):
    help = (
        "Print the signed receipts of finished matches (all, or one tournament's) as JSON, "
        "with the public key that checks them: keep a copy outside the database."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--tournament",
            help="only this tournament (its slug: the published one holding it, else the "
            "oldest, as its address finds it; or its id)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        rows = MatchReceipt.objects.order_by("match", "seq")
        if options["tournament"]:
            found = _tournament(options["tournament"])
            rows = rows.filter(match__tournament=found) if found is not None else rows.none()
        out = {
            "public_key": public_key_text(signing_key().public_key()),
            "receipts": [Receipt(r.body, r.signature).to_dict() for r in rows],
        }
        self.stdout.write(json.dumps(out, indent=2, ensure_ascii=False))
