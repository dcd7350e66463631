"""What a share button sends to the club's WhatsApp group: the text, and the wa.me link.

A club's players talk in one WhatsApp group, where pairings and results were pasted by hand.
A share button is a plain link to ``https://wa.me/?text=...`` (no paid API, no script): the
phone opens WhatsApp with the text written, and the player picks the group. The texts are
plain and short, one line a table or a team, in the page's language (``gettext``), and are
built here from what the pages themselves show (``web.pages``): a button shares what its page
shows and nothing more (never a card, never a team's link on a public page).

A text longer than :data:`MAX_TEXT` characters keeps its first lines and says how many it
left out, with the page's address, so the link stays short enough for every phone to open.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import quote

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from competition.models import Fixture, Round

from . import words
from .pages import StagePage, Table

#: the longest text a button sends: a wa.me link of Devanagari names grows nine times when
#: percent-encoded, and some phones refuse a link past a few tens of kilobytes
MAX_TEXT = 1500

_SPACES = re.compile(r"\s+")


def whatsapp_url(text: str) -> str:
    """Return the wa.me link that opens WhatsApp with ``text`` written (every character but
    the unreserved ones percent-encoded as UTF-8, so ``&``, ``#``, ``?`` and newlines survive).

    >>> whatsapp_url("Aces & Kings?")
    'https://wa.me/?text=Aces%20%26%20Kings%3F'
    """
    return "https://wa.me/?text=" + quote(text, safe="")


def one_line(name: object) -> str:
    """Return a name on one line (any run of spaces, tabs or newlines as one space), so a
    table's line stays one line whatever a name holds.

    >>> one_line(" Aces\\n& Kings ")
    'Aces & Kings'
    """
    return _SPACES.sub(" ", str(name)).strip()


def fit(head: Sequence[str], lines: Sequence[str], url: str, limit: int = MAX_TEXT) -> str:
    """Return the text of ``head`` lines, then ``lines``, then the page's ``url``: as many of
    ``lines`` as fit in ``limit`` characters, and a line saying how many more the page shows."""
    tail = [url] if url else []
    kept = list(lines)
    while True:
        more = len(lines) - len(kept)
        note = (
            [ngettext("…and %(n)d more on the page:", "…and %(n)d more on the page:", more)
             % {"n": more}]
            if more
            else []
        )  # fmt: skip
        text = "\n".join([*head, *kept, *note, *tail])
        if len(text) <= limit or not kept:
            return text
        kept.pop()


def _place(table: Mapping[str, Any]) -> str:
    if table["table"]:
        return _("Table %(n)s") % {"n": table["table"]}
    name = one_line(table["round"])
    return name[:1].upper() + name[1:]


def pairing_lines(tables: Iterable[Mapping[str, Any]]) -> list[str]:
    """Return a round's pairings, one line a table: "Table 1: Aces v Kings"."""
    out = []
    for t in tables:
        if t["team_b"] is None:
            line = _("%(place)s: %(a)s has a bye")
        else:
            line = _("%(place)s: %(a)s v %(b)s")
        out.append(
            line % {"place": _place(t), "a": one_line(t["team_a"]), "b": one_line(t["team_b"])}
        )
    return out


def result_lines(tables: Iterable[Table]) -> list[str]:
    """Return a round's scores, one line a table that has one: "Table 1: Aces 2-1 Kings,
    final" (or "after 5 deals" while it is played); with the bazzis level, the running
    difference too (team a's, as the page shows it), which decides a match that ends level."""
    out = []
    for t in tables:
        if t["team_b"] is None or not t["started"]:
            continue
        where = (
            _("final")
            if t["over"]
            else ngettext("after %(n)d deal", "after %(n)d deals", t["deals"]) % {"n": t["deals"]}
        )
        if t["bazzis0"] == t["bazzis1"]:
            line = _("%(place)s: %(a)s %(x)d-%(y)d %(b)s, running difference %(d)+d, %(where)s")
        else:
            line = _("%(place)s: %(a)s %(x)d-%(y)d %(b)s, %(where)s")
        out.append(
            line
            % {
                "place": _place(t),
                "a": one_line(t["team_a"]),
                "x": t["bazzis0"],
                "y": t["bazzis1"],
                "b": one_line(t["team_b"]),
                "d": t["difference"],
                "where": where,
            }
        )
    return out


def standings_lines(rows: Iterable[dict[str, Any]]) -> list[str]:
    """Return the standings, one line a team: "1. Aces 6 pts (3 played)"."""
    return [
        ngettext(
            "%(rank)s. %(name)s %(points)s pt (%(played)s played)",
            "%(rank)s. %(name)s %(points)s pts (%(played)s played)",
            row["points"],
        )
        % {
            "rank": row["rank"],
            "name": one_line(row["name"]),
            "points": row["points"],
            "played": row["played"],
        }
        for row in rows
    ]


def _title(tournament: str, stage: StagePage) -> str:
    return f"{one_line(tournament)} · {one_line(stage.stage.name)}"


def pairings_text(tournament: str, stage: StagePage, url: str) -> str:
    """Return the text of the stage's round being played: its pairings, one line a table."""
    round_name = one_line(words.round_name(stage.current)) if stage.current else ""
    head = [_title(tournament, stage), _("Pairings, %(round)s") % {"round": round_name}]
    return fit(head, pairing_lines(stage.tables), url)


def results_text(tournament: str, stage: StagePage, url: str) -> str:
    """Return the text of the scores of the stage's round being played, one line a table."""
    round_name = one_line(words.round_name(stage.current)) if stage.current else ""
    head = [_title(tournament, stage), _("Results, %(round)s") % {"round": round_name}]
    return fit(head, result_lines(stage.tables), url)


def standings_text(tournament: str, stage: StagePage, url: str) -> str:
    """Return the text of the stage's standings, one line a team (a group's name before its
    teams)."""
    head = [_title(tournament, stage), _("Standings %(when)s") % {"when": stage.as_of_words}]
    lines: list[str] = []
    for group, rows in stage.groups:
        if group is not None:
            lines.append(_("Group %(group)s") % {"group": group})
        lines += standings_lines(rows)
    return fit([h.strip() for h in head], lines, url)


def round_pairings_text(
    tournament: str, round_: Round, rows: Iterable[Mapping[str, Any]], url: str
) -> str:
    """Return the text of a published round's pairings from the desk's rows of it
    (``competition.selectors.draft_explained``), one line a table whose teams are known (a
    bracket's slot still waiting for a result is left out)."""
    tables = []
    for row in rows:
        a, b = row["sides"]
        fixture: Fixture = row["fixture"]
        if a["known"] and (b["known"] or row["bye"]):
            tables.append(
                {
                    "table": fixture.table,
                    "round": words.fixture(fixture.key)
                    if fixture.key
                    else words.round_name(round_),
                    "team_a": a["name"],
                    "team_b": b["name"] if b["known"] else None,
                }
            )
    head = [
        f"{one_line(tournament)} · {one_line(round_.stage.name)}",
        _("Pairings, %(round)s") % {"round": one_line(words.round_name(round_))},
    ]
    return fit(head, pairing_lines(tables), url)


def notice_text(tournament: str, stage: str, message: str, url: str) -> str:
    """Return the text of a notice the desk shows, for the players it concerns."""
    head = [one_line(tournament), _("Notice, %(stage)s:") % {"stage": one_line(stage)}]
    return fit(head, [one_line(message)], url)


def team_link_text(tournament: str, team: str, url: str) -> str:
    """Return the text that hands a team its private link: whose it is, and that it is theirs
    alone (whoever opens it enters and answers that team's results)."""
    return "\n".join(
        [
            _("%(team)s: your team's private link for %(tournament)s.")
            % {"team": one_line(team), "tournament": one_line(tournament)},
            _(
                "Whoever opens it enters and answers %(team)s's results: send it to your "
                "team alone, never to a group."
            )
            % {"team": one_line(team)},
            url,
        ]
    )


#: the kinds of text a tournament page's stage shares, each with what it needs to be shown
KINDS = ("pairings", "results", "standings")


def shares(stage: StagePage) -> list[str]:
    """Return the kinds of text the stage can share now: pairings while a round is played,
    results once a table has a score, standings once there are some (not a bracket's)."""
    kinds = []
    if stage.tables:
        kinds.append("pairings")
        if any(t["started"] and t["team_b"] is not None for t in stage.tables):
            kinds.append("results")
    if stage.standings and stage.bracket is None:
        kinds.append("standings")
    return kinds


def stage_text(kind: str, tournament: str, stage: StagePage, url: str) -> str:
    """Return the text of ``kind`` (one of :data:`KINDS`) for the stage."""
    build = {"pairings": pairings_text, "results": results_text, "standings": standings_text}
    return build[kind](tournament, stage, url)
