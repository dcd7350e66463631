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

from tournaments import matchlog


def _numbers(teams: list[dict[str, Any]]) -> str:
    """Each team's card points (and sweeps) as an entry gave them, the reader's team named
    "your team"."""
    out = []
    for t in teams:
        name = "your team" if t["mine"] else t["name"]
        sweeps = f" and sweeps {'+'.join(str(s) for s in t['sweeps'])}" if t["sweeps"] else ""
        out.append(f"{name} {t['points']}{sweeps}")
    return ", ".join(out)


def keep_words(page: dict[str, Any]) -> str:
    """Return where the phone page's match stands for its reader, in a sentence or two: the
    entry waiting for them, the deal confirmed, the dispute, the end. ``page`` is the phone
    page's context (``web.views.keeper``)."""
    state = page["state"]
    deal = page["deal_no"]
    if state.status == matchlog.SCHEDULED:
        return "The match has not started."
    said = []
    confirmed = page["confirmed"]
    if confirmed is not None and not page["shown_entries"]:
        said.append(f"Deal {confirmed['deal']} was confirmed by {confirmed['by']}: it counts.")
    after = page["after"]
    if after is not None:
        winner = "your team won" if after["won"] else after["winner"] or "a draw"
        if after["winner"] and not after["won"]:
            winner = f"{winner} won"
        return " ".join([*said, f"The match is over: {winner}."])
    if state.disputed:
        return f"Deal {deal} is disputed: the director decides it."
    for shown in page["shown_entries"]:
        numbers = _numbers(shown["teams"])
        if shown["yours"]:
            said.append(f"Your team entered deal {deal}: {numbers}. Waiting for the other team.")
        elif shown["answerable"]:
            said.append(f"{shown['by']} entered deal {deal}: {numbers}. Confirm or reject.")
        else:
            said.append(f"{shown['by']} entered deal {deal}: {numbers}.")
    if page["shown_entries"]:
        return " ".join(said)
    if page["reopened"] is not None:
        said.append("The director reopened this match.")
    said.append(f"Next: deal {deal}.")
    return " ".join(said)
