"""The competition's services form a chain, read from the source: every import statement of
``competition/services/*.py``, ``competition/selectors.py`` and ``competition/tasks.py`` (and
of the modules they share), lazy ones inside functions included. From the bottom up:

1. ``standings`` (the projection), then ``cut`` (reading a qualification's cut) and ``draw``
   (the one bridge between the pure formats and the tables);
2. ``selectors``: the reads, which import no service;
3. ``services._common`` (the director check, the locks, the standings to follow), then
   ``services.notices``;
4. ``services.follow``: what follows a decided fixture;
5. ``services.results``, ``services.registration``, ``services.withdrawals``,
   ``services.roster``, ``services.stage_settings``, ``services.rounds``,
   ``services.stages``, ``services.cut_decisions``, ``services.evenings``;
6. ``services`` (the package, which re-exports them), then ``tasks``, which call them.

A module imports only modules before it in that order. The services tell the tasks what to do
through a signal connected in ``apps.py`` (``services._common.schedule_standings``), so no
import runs back up the chain.
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
APP = REPO / "competition"

#: the chain, bottom first (a module may import only those before it)
ORDER = [
    "competition.standings",
    "competition.cut",
    "competition.draw",
    "competition.selectors",
    "competition.services._common",
    "competition.services.notices",
    "competition.services.follow",
    "competition.services.results",
    "competition.services.registration",
    "competition.services.withdrawals",
    "competition.services.roster",
    "competition.services.stage_settings",
    "competition.services.rounds",
    "competition.services.stages",
    "competition.services.cut_decisions",
    "competition.services.evenings",
    "competition.services",
    "competition.tasks",
]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    """Return every module of the competition app (migrations aside), by dotted name."""
    return {module_name(path): path for path in APP.rglob("*.py") if "migrations" not in path.parts}


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Return the competition modules ``path`` imports, at any depth (lazy ones too).

    ``from .x import y`` imports ``x``, and ``y`` too where it is a module; importing a module
    of another package runs that package's ``__init__`` first, so it counts as imported.
    """
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            targets = [module] + [f"{module}.{alias.name}" for alias in node.names]
        for target in targets:
            parts = target.split(".")
            for n in range(1, len(parts) + 1):
                prefix = ".".join(parts[:n])
                # a package above the importer is running already: its import adds nothing
                if prefix in known and not (name == prefix or name.startswith(prefix + ".")):
                    found.add(prefix)
    found.discard(name)
    return found


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imports(name, path, set(found)) for name, path in found.items()}


def cycle(edges: dict[str, set[str]]) -> list[str]:
    """Return one cycle of the import graph (its modules, the first again at the end), or []."""
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    path: list[str] = []

    def walk(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state:
                found = walk(nxt)
                if found:
                    return found
        state[node] = 2
        path.pop()
        return []

    for node in sorted(edges):
        if node not in state:
            found = walk(node)
            if found:
                return found
    return []


def test_the_chain_names_every_service_module() -> None:
    services = {n for n in modules() if n.startswith("competition.services")}
    assert services <= set(ORDER), sorted(services - set(ORDER))


def test_no_competition_module_imports_one_that_imports_it_back() -> None:
    assert cycle(graph()) == []


def test_each_module_of_the_chain_imports_only_those_below_it() -> None:
    edges = graph()
    place = {name: n for n, name in enumerate(ORDER)}
    upward = sorted(
        f"{name} imports {other}"
        for name in ORDER
        for other in edges[name]
        if other in place and place[other] > place[name]
    )
    assert upward == []


def test_the_selectors_import_no_service() -> None:
    services = sorted(
        n for n in graph()["competition.selectors"] if n.startswith("competition.services")
    )
    assert services == []


def test_the_check_finds_a_loop_when_one_comes_back() -> None:
    edges = graph()
    edges["competition.services._common"].add("competition.tasks")  # a lazy import, say
    assert cycle(edges)[0] in ORDER
