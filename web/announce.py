"""What a live page says to a screen reader when its part changes, in words.

A live part carries, hidden, a few sentences about itself, each keyed by what it is about
(``<span data-about="table-7" data-announce="Table 7: …">``, attributes, so no search of
the page's text finds them twice): live.js reads the ones that changed since the last version
into the page's one polite live region, so a person who cannot see the part change hears
what changed ("Lotus entered deal 3: Lotus 64, your team 36. Confirm or reject."), once,
and never the whole part. The tournament page's, the match sheet's, the seat page's and the
live board's sentences are written in their templates from what the part shows; the phone
page's, which depend on who holds the phone, here.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournaments import matchlog


def _numbers(teams: list[dict[str, Any]]) -> str:
    """Each team's card points (and sweeps) as an entry gave them, the reader's team named
    "your team"."""
    out = []
    for t in teams:
        name = _("your team") if t["mine"] else t["name"]
        if t["sweeps"]:
            said = _("%(team)s %(points)s and sweeps %(sweeps)s") % {
                "team": name,
                "points": t["points"],
                "sweeps": "+".join(str(s) for s in t["sweeps"]),
            }
        else:
            said = f"{name} {t['points']}"
        out.append(said)
    return pgettext("list separator", ", ").join(out)


def keep_words(page: dict[str, Any]) -> str:
    """Return where the phone page's match stands for its reader, in a sentence or two: the
    entry waiting for them, the deal confirmed, the dispute, the end. ``page`` is the phone
    page's context (``web.views.keeper``)."""
    state = page["state"]
    deal = page["deal_no"]
    if state.status == matchlog.SCHEDULED:
        return _("The match has not started.")
    said = []
    confirmed = page["confirmed"]
    if confirmed is not None and not page["shown_entries"]:
        said.append(
            _("Deal %(deal)s was confirmed by %(by)s: it counts.")
            % {"deal": confirmed["deal"], "by": confirmed["by"]}
        )
    after = page["after"]
    if after is not None:
        if after["won"]:
            over = _("The match is over: your team won.")
        elif after["winner"]:
            over = _("The match is over: %(team)s won.") % {"team": after["winner"]}
        else:
            over = _("The match is over: a draw.")
        return " ".join([*said, over])
    if state.disputed:
        return _("Deal %(deal)s is disputed: the director decides it.") % {"deal": deal}
    for shown in page["shown_entries"]:
        numbers = _numbers(shown["teams"])
        if shown["yours"]:
            said.append(
                _("Your team entered deal %(deal)s: %(numbers)s. Waiting for the other team.")
                % {"deal": deal, "numbers": numbers}
            )
        elif shown["answerable"]:
            said.append(
                _("%(by)s entered deal %(deal)s: %(numbers)s. Confirm or reject.")
                % {"by": shown["by"], "deal": deal, "numbers": numbers}
            )
        else:
            said.append(
                _("%(by)s entered deal %(deal)s: %(numbers)s.")
                % {"by": shown["by"], "deal": deal, "numbers": numbers}
            )
    if page["shown_entries"]:
        return " ".join(said)
    if page["reopened"] is not None:
        said.append(_("The director reopened this match."))
    said.append(_("Next: deal %(deal)s.") % {"deal": deal})
    return " ".join(said)
