"""What the director's desk calls the competition's settings and its cut, in words.

The competition names its tie-breaks, presets, stage entries and seedings, and explains a
cut, in English (``competition.formats.TIEBREAK_LABELS``, ``competition.presets.PRESETS``,
the models' choices, ``competition.selectors.cut_explained``): the API and the admin show
those. The desk's pages say them through this module instead, in the language of the
request (docs/languages.md), the same way ``web/words.py`` says the pages' codes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from competition import formats

from .words import said

#: each tie-break (``competition.formats.TIEBREAK_LABELS``'s keys), as the desk names it
TIEBREAKS: dict[str, Promise] = {
    "bazzis_won": gettext_lazy("bazzis won"),
    "bazzi_difference": gettext_lazy("bazzi difference"),
    "running_difference": gettext_lazy("running difference"),
    "points_difference": gettext_lazy("points difference"),
    "deals_won": gettext_lazy("deals won"),
    "sweeps": gettext_lazy("sweeps"),
    "head_to_head": gettext_lazy("head-to-head"),
    "buchholz": gettext_lazy("Buchholz"),
    "buchholz_cut1": gettext_lazy("Buchholz cut-1"),
    "sonneborn_berger": gettext_lazy("Sonneborn-Berger"),
    "random": gettext_lazy("random draw"),
}

#: the new evening's shapes (``competition.presets.PRESETS``' keys)
PRESETS: dict[str, Promise] = {
    "swiss": gettext_lazy("a Swiss of N rounds"),
    "round_robin": gettext_lazy("a round robin (everyone plays everyone)"),
    "swiss_knockout": gettext_lazy("a Swiss of N rounds, then the top K in a knockout"),
    "groups_knockout": gettext_lazy("groups, then the top K of each group in a knockout"),
    "single_elimination": gettext_lazy("a single-elimination knockout"),
    "double_elimination": gettext_lazy("a double-elimination knockout"),
}

#: which teams a stage takes (``competition.models.Stage.Entry``)
ENTRIES: dict[str, Promise] = {
    "registered": gettext_lazy("every checked-in team"),
    "top": gettext_lazy("the top N of the previous stage"),
    "top_per_group": gettext_lazy("the top N of each group of the previous stage"),
}

#: how a stage seeds its teams (``competition.models.Stage.Seeding``)
SEEDINGS: dict[str, Promise] = {
    "manual": gettext_lazy("by the seeds given at registration"),
    "rating": gettext_lazy("by rating, highest first"),
    "random": gettext_lazy("at random (the draw is recorded)"),
    "standings": gettext_lazy("by the previous stage's standings"),
}

#: how a tournament's teams were seeded by their members' ratings (seasons' ``Measure``)
MEASURES: dict[str, Promise] = {
    "sum": gettext_lazy("the sum of its members' ratings"),
    "conservative": gettext_lazy(
        "the sum of their conservative estimates (a pair of newcomers seeds low)"
    ),
}

#: who confirms an entered deal (``tournaments.matchlog.Confirmation``)
CONFIRMATIONS: dict[str, Promise] = {
    "other_team": gettext_lazy("the other team confirms"),
    "both_enter": gettext_lazy("both teams enter"),
    "none": gettext_lazy("it counts at once"),
}

#: what put a place of a cut above the next, where it is no tie-break (``cut_explained``)
_ABOVE: dict[str, Promise] = {
    "points": gettext_lazy("points"),
    "head_to_head_among_level": gettext_lazy("head-to-head among the teams still level"),
    "undecided": gettext_lazy("undecided: level on everything across the cut"),
    "seed": pgettext_lazy("the cut", "seed"),
}


def choices(table: Mapping[str, Promise]) -> list[tuple[str, Promise]]:
    """Return a table as a form field's choices, in its order (the words said lazily)."""
    return list(table.items())


def place(rank: int, group: int | None) -> str:
    """Return where a tie at a cut is: "place 4", "place 2 of group B"."""
    if group is None:
        return _("place %(rank)s") % {"rank": rank}
    return _("place %(rank)s of group %(group)s") % {
        "rank": rank,
        "group": formats.group_name(group),
    }


def decision(found: Any) -> str:
    """Return how a tie at a cut was decided (a ``CutDecision``): "lot drawn by ann at 21:04"."""
    at = timezone.localtime(found.decided_at).strftime("%H:%M")
    if found.method == "lot":
        return _("lot drawn by %(name)s at %(at)s") % {"name": found.decided_by_name, "at": at}
    return _("director's order (%(name)s at %(at)s)") % {"name": found.decided_by_name, "at": at}


def cut_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return the rows of ``competition.selectors.cut_explained`` with what put each place
    above the next in words (``above``), and the value of that tie-break (``value``)."""
    out = []
    for row in rows:
        why = row.get("above_next_why", "")
        if why == "decision" and row.get("decision") is not None:
            above = decision(row["decision"])
        elif why in _ABOVE:
            above = str(_ABOVE[why])
        else:
            above = said(TIEBREAKS, why)
        value = row.get("tiebreak_values", {}).get(why) if why in TIEBREAKS else None
        out.append({**row, "above": above, "value": value})
    return out


def names(items: list[str]) -> str:
    """Return names as a list in words: "A", "A and B", "A, B and C"."""
    if len(items) < 2:
        return "".join(items)
    return _("%(names)s and %(last)s") % {"names": ", ".join(items[:-1]), "last": items[-1]}
