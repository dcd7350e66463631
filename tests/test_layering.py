"""Apps depend one way: pages and API -> competition -> scoring -> tournaments -> seep_core
(and live, below the apps, which every app may use).

Read from the source (every import statement, at any depth, lazy ones included): no package
imports one above it, and the pure packages import no framework.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
#: each package, and the project packages it may import
ALLOWED = {
    "seep_core": set(),
    # the live messages, hub and push server: every app publishes or streams through it, and
    # it imports none of them (their views, loaders and renderers are handed to it)
    "live": set(),
    "tournaments": {"seep_core", "live"},
    "scoring": {"seep_core", "live", "tournaments"},
    "competition": {"seep_core", "live", "tournaments", "scoring"},
    # what a club learns across evenings: read from results and standings, seeds by rating
    "seasons": {"seep_core", "live", "tournaments", "scoring", "competition"},
    # the pages and the API sit side by side at the top: neither imports the other
    "api": {"seep_core", "live", "tournaments", "scoring", "competition", "seasons"},
    "web": {"seep_core", "live", "tournaments", "scoring", "competition", "seasons"},
}
PROJECT = {
    "seep_core", "live", "tournaments", "scoring", "competition", "seasons", "api", "web",
    "deploy",
}  # fmt: skip
#: pure packages: no Django, no Celery, no database driver
PURE = {
    "seep_core": REPO / "seep_core",
    "competition.formats": REPO / "competition" / "formats",
    "seasons.rating": REPO / "seasons" / "rating.py",
    "seasons.ladder": REPO / "seasons" / "ladder.py",
}
FRAMEWORKS = {"django", "celery", "rest_framework", "psycopg", "redis", "kombu"}


def imported(path: Path) -> set[str]:
    """Return the top-level package of every module ``path`` imports (relative ones resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = path.relative_to(REPO).parts[0]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            out.add(package if node.level else (node.module or "").split(".")[0])
    return out


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_a_package_imports_only_what_lies_below_it(package: str) -> None:
    wrong = {}
    for path in (REPO / package).rglob("*.py"):
        above = (imported(path) & PROJECT) - ALLOWED[package] - {package}
        if above:
            wrong[str(path.relative_to(REPO))] = sorted(above)
    assert not wrong, wrong


@pytest.mark.parametrize("name", sorted(PURE))
def test_the_pure_packages_import_no_framework(name: str) -> None:
    wrong = {
        str(path.relative_to(REPO)): sorted(imported(path) & FRAMEWORKS)
        for path in ([PURE[name]] if PURE[name].is_file() else PURE[name].rglob("*.py"))
        if imported(path) & FRAMEWORKS
    }
    assert not wrong, wrong
