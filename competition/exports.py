"""A tournament's tables as CSV files: a stage's standings, the results a row a match, and the
deals a row a deal, for the pages' links and the API's ``.csv`` paths alike.

What is written is what the pages and the API already show anyone who may see the tournament
(the caller is checked by the view that asks, as for the page or the endpoint it sits beside):
the standings, each match's score and each recorded deal's points, sweeps and bazzis. Never a
card: a deal's result is public once recorded, the hands it was played from are not (this
module reads the scoring projections, which hold no card).

The file is UTF-8 with a byte-order mark: Excel, which a club's secretary most likely opens it
in, reads a file without one in the computer's old code page and turns Devanagari, Gurmukhi
or Urdu names into question marks; LibreOffice, Google Sheets and Python's ``utf-8-sig`` read
the mark and drop it. A text cell that a spreadsheet would run as a formula (one starting with
``=``, ``+``, ``-``, ``@``, a tab or a carriage return) is written with a leading ``'``, as text;
numbers are written as numbers (a running difference of -30 stays a number).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scoring.models import DealResult
from tournaments.models import Match, Tournament

from . import selectors
from .models import Fixture, Round, Stage

#: what a spreadsheet reads as the start of a formula (OWASP's "CSV injection" list)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: the byte-order mark the file starts with (see the module's docstring)
BOM = "\ufeff"


def cell(value: object) -> object:
    """Return ``value`` as a cell: a number as it is, None as empty, text that a spreadsheet
    would read as a formula with a leading ``'``.

    >>> cell("=SUM(A1)"), cell(-30), cell(None), cell("Aces")
    ("'=SUM(A1)", -30, '', 'Aces')
    """
    if value is None:
        return ""
    if isinstance(value, bool | int | float):
        return value
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


@dataclass(frozen=True)
class Table:
    """A CSV file's contents: its header and its rows (cells not yet guarded)."""

    name: str  # what the file is called, without ".csv"
    header: Sequence[str]
    rows: Sequence[Sequence[object]]

    def text(self) -> str:
        """Return the file: the mark, the header, a line a row (CRLF, as RFC 4180 says)."""
        out = io.StringIO()
        out.write(BOM)
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(self.header)
        writer.writerows([cell(v) for v in row] for row in self.rows)
        return out.getvalue()


STANDINGS_HEADER = ["group", "rank", "team", "points", "played", "won", "drawn", "lost", "byes"]


def standings(*, stage: Stage, as_of_round: int | None = None) -> Table:
    """Return the stage's standings as of a round (default: the latest, as its page shows):
    a row a team, with each tie-break the stage ranks by."""
    rows = list(selectors.standings_for_stage(stage=stage, as_of_round=as_of_round))
    names = [name for name, _ in rows[0].tiebreaks] if rows else list(stage.tiebreaks or [])
    return Table(
        name=f"{stage.tournament.slug}-{stage.order}-standings",
        header=[*STANDINGS_HEADER, *[str(n).replace("_", " ") for n in names]],
        rows=[
            [r.group, r.rank, r.team.name, r.points, r.played, r.won, r.drawn, r.lost, r.byes,
             *[v for _, v in r.tiebreaks]]
            for r in rows
        ],
    )  # fmt: skip


def _shown_matches(tournament: Tournament) -> Any:
    """The tournament's matches anyone who sees it sees: not those of a round taken back to
    a draft (its matches are called off, and drafts are the directors')."""
    return (
        Match.objects.filter(tournament=tournament)
        .exclude(fixture__round__status=Round.Status.DRAFT)
        .select_related("team0", "team1", "result", "fixture__round__stage")
        .order_by("fixture__stage__order", "fixture__round__number", "fixture__table", "pk")
    )


def _where(match: Match) -> list[object]:
    """The match's stage, round and table (empty for a match outside any stage)."""
    fixture: Fixture | None = getattr(match, "fixture", None)
    if fixture is None:
        return ["", "", ""]
    return [fixture.stage.name, str(fixture.round), fixture.table or fixture.key]


MATCHES_HEADER = [
    "match", "stage", "round", "table", "team a", "team b", "status", "deals", "bazzis a",
    "bazzis b", "running difference", "winner", "forfeited by",
]  # fmt: skip


def matches(*, tournament: Tournament) -> Table:
    """Return the tournament's results, a row a match: where it was played, its teams, how it
    stands (deals scored, bazzis, running difference of team a minus team b) and who won."""
    rows: list[list[object]] = []
    for m in _shown_matches(tournament):
        teams = (m.team0.name, m.team1.name)
        r = getattr(m, "result", None)
        if r is None:
            score: list[object] = [0, 0, 0, 0, "", ""]
        else:
            winner = "draw" if r.draw else "" if r.winner is None else teams[r.winner]
            forfeit = "" if r.forfeited_by is None else teams[r.forfeited_by]
            score = [r.deals, r.bazzis0, r.bazzis1, r.difference, winner, forfeit]
        rows.append([m.pk, *_where(m), *teams, m.get_status_display(), *score])
    return Table(f"{tournament.slug}-results", MATCHES_HEADER, rows)


DEALS_HEADER = [
    "match", "stage", "round", "table", "team a", "team b", "deal", "dealer",
    "card points a", "card points b", "sweeps a", "sweeps b", "sweep points a",
    "sweep points b", "total a", "total b", "difference", "running difference", "bazzi",
    "bazzi reason", "bazzis a", "bazzis b",
]  # fmt: skip


def deals(*, tournament: Tournament) -> Table:
    """Return every recorded deal of the tournament, a row a deal: its match and where it was
    played, its number and dealer, each side's card points, sweeps and total, the difference
    and the running difference (team a minus team b), and a bazzi won in it. No card."""
    shown = _shown_matches(tournament).select_related(
        "team0__first_player", "team0__second_player",
        "team1__first_player", "team1__second_player",
    )  # fmt: skip
    by_match = {m.pk: m for m in shown}
    results = DealResult.objects.filter(match_id__in=list(by_match)).order_by("match_id", "deal")
    grouped: dict[int, list[DealResult]] = {}
    for d in results:
        grouped.setdefault(d.match_id, []).append(d)
    rows: list[list[object]] = []
    for match_id, m in by_match.items():  # in the matches' order, then each match's deals
        teams = (m.team0.name, m.team1.name)
        seated = [p.name for p in m.seat_players()]
        for d in grouped.get(match_id, []):
            rows.append(
                [m.pk, *_where(m), *teams, d.deal, seated[d.dealer], d.points0, d.points1,
                 len(d.sweeps0), len(d.sweeps1), sum(d.sweeps0), sum(d.sweeps1), d.total0,
                 d.total1, d.difference, d.running_difference,
                 "" if d.bazzi is None else teams[d.bazzi], d.reason or "", d.bazzis0, d.bazzis1]
            )  # fmt: skip
    return Table(f"{tournament.slug}-deals", DEALS_HEADER, rows)
