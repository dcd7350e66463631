"""``manage.py compile_catalogs``: compile each language's django.po into its django.mo with
polib (web.catalogs), where ``compilemessages`` would need GNU gettext's msgfmt."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from web import catalogs


class Command(BaseCommand):
    help = "Compile the pages' translation catalogs (locale/*/LC_MESSAGES/django.po) to .mo."

    def handle(self, *args: Any, **options: Any) -> None:
        for catalog in catalogs.catalogs():
            catalogs.compile_catalog(catalog)
            self.stdout.write(f"{catalog.language}: {catalog.mo}")
