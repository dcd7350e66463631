"""What the wall screen shows: the tournament page's own read (``pages.tournament_page``) cut
into panels that each fit a 1920x1080 projector in large type (the current round's pairings,
the standings a page at a time, the bracket), shown in turn by ``wall.js``.

No panel holds a hand, the stock or any card: the wall shows results, never a deal in play.
The panels' titles are in the language of the page (the wall is rendered once per version and
language, ``views.common.live_part``); names stay as they were typed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from competition.models import Stage
from tournaments.models import Tournament

from .pages import StagePage, tournament_page
from .words import round_name

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
    stage = page.stage.name
    if page.stage.elimination:
        title = _("%(stage)s: matches being played") % {"stage": stage}
    elif page.current:
        said = {"stage": stage, "round": round_name(page.current)}
        title = _("%(stage)s: %(round)s pairings") % said
    else:
        title = stage
    chunks = _chunks(page.tables, TABLES_PER_PANEL)
    return [
        Panel(f"pairings-{page.stage.pk}-{n}", "pairings", title, n, len(chunks), page, rows)
        for n, rows in enumerate(chunks, 1)
    ]


def _standings(page: StagePage) -> list[Panel]:
    panels: list[Panel] = []
    for group, rows in page.groups:
        said = {"stage": page.stage.name, "group": group}
        if group is None:
            title = _("%(stage)s: standings") % said
        else:
            title = _("%(stage)s: standings, group %(group)s") % said
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
        said = {"stage": page.stage.name, "part": name}
        if part == "main":
            title = _("%(stage)s: the bracket") % said
        else:
            title = _("%(stage)s: the bracket, %(part)s") % said
        note = ""
        if len(columns) < len(rounds):
            note = _("Earlier rounds are on the tournament's page.")
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
        title = _("%(tournament)s starts soon") % {"tournament": tournament.name}
        panels.append(Panel("waiting", "waiting", title))
    return panels
