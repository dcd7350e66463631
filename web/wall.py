"""What the wall screen shows: the tournament page's own read (``pages.tournament_page``) cut
into panels that each fit a 1920x1080 projector in large type (the current round's pairings,
the standings a page at a time, the bracket), shown in turn by ``wall.js``.

No panel holds a hand, the stock or any card: the wall shows results, never a deal in play.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from competition.models import Stage
from tournaments.models import Tournament

from .pages import StagePage, tournament_page

#: tables on one pairings panel and standings lines on one panel:
#: what fits a 1920x1080 screen in type read from across a room (site: wall.css)
TABLES_PER_PANEL = 10
LINES_PER_PANEL = 10
#: the longest bracket column the wall draws (a 16-team bracket's first round); earlier,
#: longer rounds are on the tournament page
BRACKET_COLUMN = 8
#: how long each panel stays on the screen (seconds)
PANEL_SECONDS = 12


@dataclass
class Panel:
    key: str  # stays the same across updates, so the screen stays on the panel it shows
    kind: str  # pairings, standings, bracket, waiting
    title: str
    page: int = 1
    pages: int = 1
    stage: StagePage | None = None
    rows: list[Any] = field(default_factory=list)
    columns: list[dict[str, Any]] = field(default_factory=list)  # a bracket's rounds
    note: str = ""


def _chunks(rows: list[Any], size: int) -> list[list[Any]]:
    return [rows[i : i + size] for i in range(0, len(rows), size)] or [[]]


def _shown(stages: list[StagePage]) -> list[StagePage]:
    """Return the stages the wall shows: those running, else the last one played."""
    running = [p for p in stages if p.stage.status == Stage.Status.RUNNING]
    if running:
        return running
    played = [p for p in stages if p.stage.status == Stage.Status.COMPLETE]
    return played[-1:]


def _pairings(page: StagePage) -> list[Panel]:
    if not page.tables:
        return []
    if page.stage.elimination:
        title = f"{page.stage.name}: matches being played"
    else:
        title = f"{page.stage.name}: {page.current} pairings" if page.current else page.stage.name
    chunks = _chunks(page.tables, TABLES_PER_PANEL)
    return [
        Panel(f"pairings-{page.stage.pk}-{n}", "pairings", title, n, len(chunks), page, rows)
        for n, rows in enumerate(chunks, 1)
    ]


def _standings(page: StagePage) -> list[Panel]:
    panels: list[Panel] = []
    for group, rows in page.groups:
        title = f"{page.stage.name}: standings" + ("" if group is None else f", group {group}")
        if page.as_of_words:  # in the tournament page's words: the last round played
            title += f" {page.as_of_words}"
        chunks = _chunks(rows, LINES_PER_PANEL)
        key = f"standings-{page.stage.pk}-{group or 'all'}"
        panels.extend(
            Panel(f"{key}-{n}", "standings", title, n, len(chunks), page, chunk)
            for n, chunk in enumerate(chunks, 1)
        )
    return panels


def _brackets(page: StagePage) -> list[Panel]:
    bracket = page.bracket
    if not bracket:
        return []
    panels = []
    for number, (part, name, rounds) in enumerate(bracket["parts"]):
        columns = [r for r in rounds if len(r["fixtures"]) <= BRACKET_COLUMN]
        title = f"{page.stage.name}: the bracket" + ("" if part == "main" else f", {name}")
        note = "Earlier rounds are on the tournament's page." if len(columns) < len(rounds) else ""
        panels.append(
            Panel(f"bracket-{page.stage.pk}-{number}", "bracket", title, stage=page,
                  columns=columns, note=note)
        )  # fmt: skip
    return panels


def wall_panels(tournament: Tournament) -> list[Panel]:
    """Return the wall's panels in the order they are shown: for each stage shown, its
    current round's pairings, then its bracket or its standings."""
    panels: list[Panel] = []
    for page in _shown(tournament_page(tournament)):
        panels.extend(_pairings(page))
        panels.extend(_brackets(page) if page.bracket else _standings(page))
    if not panels:
        panels.append(Panel("waiting", "waiting", f"{tournament.name} starts soon"))
    return panels
