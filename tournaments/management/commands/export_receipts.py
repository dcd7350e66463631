"""``manage.py export_receipts``: write the signed receipts of finished matches as JSON."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.models import MatchReceipt
from tournaments.receipts import Receipt, public_key_text, signing_key


class Command(BaseCommand):
    help = (
        "Print the signed receipts of finished matches (all, or one tournament's) as JSON, "
        "with the public key that checks them: keep a copy outside the database."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tournament", help="only this tournament (its slug)")

    def handle(self, *args: Any, **options: Any) -> None:
        rows = MatchReceipt.objects.order_by("match", "seq")
        if options["tournament"]:
            rows = rows.filter(match__tournament__slug=options["tournament"])
        out = {
            "public_key": public_key_text(signing_key().public_key()),
            "receipts": [Receipt(r.body, r.signature).to_dict() for r in rows],
        }
        self.stdout.write(json.dumps(out, indent=2, ensure_ascii=False))
