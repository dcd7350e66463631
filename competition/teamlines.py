"""Teams typed or pasted one a line, as a director has them: read into (team, player, player).

Each line is a team: "Aces: Asha & Bilal", "Aces: Asha and Bilal", or three cells separated
by tabs (a spreadsheet's copy), commas or semicolons ("Aces,Asha,Bilal"; a CSV file's rows
read the same). A line with two names and no team name ("Asha & Bilal") makes the team's
name from its players. Blank lines and lines starting with "#" are skipped. Pure: what the
names match among the club's members is the registration service's business.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass

#: at most this many teams in one paste (a club's evening; a larger field is an API job)
MAX_LINES = 512
#: a first row naming the columns (a spreadsheet's header) is no team
_HEADERS = frozenset({"team", "team name", "name", "teams"})
_PAIR = re.compile(r"\s*(?:&|\+|/|\band\b)\s*", re.IGNORECASE)


@dataclass(frozen=True)
class TeamLine:
    """One line read: its number (from 1), the team's name and its two players' names."""

    line: int
    name: str
    first: str
    second: str
    seed: int | None = None
    rating: int | None = None


class LineError(ValueError):
    """A line that does not read as a team (``line`` says which, the message why)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


def _clean(text: str) -> str:
    return " ".join(text.split())


def _cells(text: str) -> list[str]:
    for sep in ("\t", ";", ","):
        if sep in text:
            return next(csv.reader(io.StringIO(text), delimiter=sep))
    return [text]


def read_line(number: int, text: str) -> TeamLine | None:
    """Return the team a line names, None for a blank or comment line; raise LineError.

    >>> read_line(1, "Aces: Asha & Bilal")
    TeamLine(line=1, name='Aces', first='Asha', second='Bilal')
    >>> read_line(2, "Kings\\tChandra\\tDev")
    TeamLine(line=2, name='Kings', first='Chandra', second='Dev')
    >>> read_line(3, "Esha and Farid")
    TeamLine(line=3, name='Esha & Farid', first='Esha', second='Farid')
    """
    stripped = text.strip()
    if not stripped or stripped.startswith("#"):
        return None
    cells = [_clean(c) for c in _cells(stripped)]
    cells = [c for c in cells if c]
    if len(cells) == 1 and ":" in cells[0]:
        name, _, rest = cells[0].partition(":")
        cells = [_clean(name), *(_clean(p) for p in _PAIR.split(rest))]
    elif len(cells) == 1:
        cells = [_clean(p) for p in _PAIR.split(cells[0])]
        if len(cells) == 2:
            cells = [f"{cells[0]} & {cells[1]}", *cells]
    elif len(cells) == 2 and _PAIR.search(cells[1]):
        cells = [cells[0], *(_clean(p) for p in _PAIR.split(cells[1]))]
    cells = [c for c in cells if c]
    if len(cells) != 3:
        raise LineError(
            number, 'write a team as "Team: First & Second" (or three cells: team, first, second)'
        )
    name, first, second = cells
    for what, value in (("team name", name), ("player's name", first), ("player's name", second)):
        if len(value) > 200:
            raise LineError(number, f"a {what} has at most 200 characters")
    if first.casefold() == second.casefold():
        raise LineError(number, f"a team is two different players ({first} twice)")
    return TeamLine(number, name, first, second)


def read_lines(text: str) -> tuple[list[TeamLine], list[LineError]]:
    """Return every team the text names, and every line that could not be read."""
    teams: list[TeamLine] = []
    errors: list[LineError] = []
    rows = text.splitlines()
    if len([r for r in rows if r.strip()]) > MAX_LINES:
        return [], [LineError(MAX_LINES + 1, f"at most {MAX_LINES} teams at a time")]
    for number, row in enumerate(rows, start=1):
        try:
            team = read_line(number, row)
        except LineError as exc:
            errors.append(exc)
        else:
            if team is not None and not (not teams and team.name.casefold() in _HEADERS):
                teams.append(team)
    return teams, errors
