"""The pages' translation catalogs (docs/languages.md): ``locale/<language>/LC_MESSAGES``.

Each language's ``django.po`` is the source, written by hand; its ``django.mo`` is what
Django reads, compiled here with polib (pure Python, pinned in the dev dependencies), so no
machine needs GNU gettext's ``msgfmt``. The compiled files are committed beside their sources;
``manage.py compile_catalogs`` makes them again after an edit, and tests/web/test_languages.py
fails when a compiled file says anything other than its source, or a source leaves a word
untranslated.
"""

from __future__ import annotations

import gettext
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

#: where the catalogs are (settings.LOCALE_PATHS has it first)
LOCALE = Path(settings.BASE_DIR) / "locale"
DOMAIN = "django"


@dataclass(frozen=True)
class Catalog:
    """One language's catalog: its source and its compiled file."""

    language: str
    po: Path
    mo: Path


def catalogs() -> list[Catalog]:
    """Return the catalog of each language of ``settings.LANGUAGES``, in that order."""
    out = []
    for code, _name in settings.LANGUAGES:
        folder = LOCALE / code / "LC_MESSAGES"
        out.append(Catalog(code, folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"))
    return out


def compile_catalog(catalog: Catalog) -> None:
    """Write ``catalog``'s compiled file from its source (fuzzy entries left out, as msgfmt
    leaves them)."""
    import polib

    polib.pofile(str(catalog.po)).save_as_mofile(str(catalog.mo))


def compiled_messages(path: Path) -> dict[object, str]:
    """Return what a compiled file says: each message (a msgid, "ctxt\\x04msgid" for a
    context, (msgid, n) for a plural form) and its translation; the header left out."""
    with path.open("rb") as handle:
        read = gettext.GNUTranslations(handle)
    said: dict[object, str] = dict(read._catalog)  # type: ignore[attr-defined]
    said.pop("", None)
    return said


def source_messages(path: Path) -> dict[object, str]:
    """Return what a source says, shaped as ``compiled_messages`` reads a compiled file:
    only the entries msgfmt would compile (translated, not fuzzy, not obsolete)."""
    import polib

    said: dict[object, str] = {}
    for entry in polib.pofile(str(path)).translated_entries():
        key = f"{entry.msgctxt}\x04{entry.msgid}" if entry.msgctxt else entry.msgid
        if entry.msgid_plural:
            for n, text in entry.msgstr_plural.items():
                said[(key, int(n))] = text
        else:
            said[key] = entry.msgstr
    return said
