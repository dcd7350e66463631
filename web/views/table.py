"""The phone of a table card (docs/links.md, "One phone a table"): the round's cards page
prints a table card per table, whose link (``/t/<key>/``, ``tournaments.tables``) opens the
table's match on one phone, for no team. The phone sees the match, and a deal is entered or
confirmed on it only with a team's code, the code printed on that team's own card: the
code's team is the author, so the log names both teams as with two phones.

The link's key leaves the address at once (a redirect to ``/table/<id>/``), and the browser
keeps in its session the match and the two team links the key was made from, checked again
on every request: a team given a new link, a match over or a tournament over, and the phone
is told so in words. The forms are plain forms (no script queues them): a code is never kept
on the phone.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_POST

from competition import selectors as competition_reads
from scoring import selectors as scoring
from tournaments import matchlog, phones, tables
from tournaments import selectors as store
from tournaments.models import Match
from tournaments.reads import consistent_read

from .. import forms
from ..access import kept_by_nobody, key_in_address
from ..clubtime import use_club_time
from ..commands import append_command, code_words, columns, form_errors, plain_words, status_code
from ..heard import heard_from
from .keeper import OVER, SETTLE_PLAIN

K = matchlog.Kind
SESSION_KEY = "table_links"
#: the most table links one browser keeps (a phone serves one table an evening)
MAX_HELD = 4

#: why a table card's link opens nothing, in words
REFUSED = {
    "stopped": gettext_lazy(
        "This table card no longer works: a team at this table was given a new link since. "
        "Ask the director to print this round's cards again."
    ),
    "over": gettext_lazy(
        "This table card's match is over, or no longer played: nothing more can be entered "
        "with it. Ask the director for the card of the round being played."
    ),
}


def _refused_page(request: HttpRequest, why: str) -> HttpResponse:
    return render(request, "web/link_stopped.html", {"message": str(REFUSED[why])}, status=403)


@key_in_address
@require_GET
def open_table(request: HttpRequest, key: str) -> HttpResponse:
    """Keep the table link in this browser's session (a new session id first, as a team's
    link does) and show the table's page; a link out of date is refused in words."""
    opened = tables.open_key(key)
    if opened.match is None and opened.refused == "unknown":
        return render(request, "404.html", status=404)
    if opened.match is not None and competition_reads.tournaments_over(
        [opened.match.tournament_id]
    ):
        opened = tables.Opened(None, refused="over")
    if opened.match is None:
        return _refused_page(request, opened.refused)
    request.session.cycle_key()
    kept = [
        entry
        for entry in request.session.get(SESSION_KEY, [])
        if isinstance(entry, list) and len(entry) == 3 and entry[0] != opened.match.pk
    ]
    entry = [opened.match.pk, *opened.link_ids]
    request.session[SESSION_KEY] = [entry, *kept][:MAX_HELD]
    return redirect(reverse("web:table", args=[opened.match.pk]))


def _held(request: HttpRequest, pk: int) -> tuple[Match | None, bool]:
    """The match this browser holds the table link of (its teams' links unchanged), and
    whether it held one at all (held, and now out of date: refused in words)."""
    for entry in request.session.get(SESSION_KEY, []):
        if not (isinstance(entry, list) and len(entry) == 3 and entry[0] == pk):
            continue
        if not all(isinstance(x, int) for x in entry):
            continue
        return tables.still_open(pk, (entry[1], entry[2])), True
    return None, False


def table_phone(
    view: Callable[[HttpRequest, Match, matchlog.MatchState], HttpResponse],
) -> Callable[..., HttpResponse]:
    """Let in only a browser holding ``pk``'s table link (anyone else: a missing page), and
    call ``view`` with the match and its state; a link out of date is refused in words. No
    answer is kept by any cache."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, pk: int) -> HttpResponse:
        match, was = _held(request, pk)
        if match is None:
            if was:
                return kept_by_nobody(_refused_page(request, "stopped"))
            return kept_by_nobody(render(request, "404.html", status=404))
        use_club_time(match.tournament)
        if request.method != "GET":  # a command: its own transactions (the code's count)
            if _over(match):
                return kept_by_nobody(_refused(request, match, str(OVER), status=409))
            return kept_by_nobody(view(request, match, store.match_state(match)))
        with consistent_read():
            state = store.match_state(match)
            if state.status == matchlog.IN_PROGRESS:  # one phone for the table: both heard
                heard_from(request, match, 0)
                heard_from(request, match, 1)
            return kept_by_nobody(view(request, match, state))

    return wrapped


def _over(match: Match) -> bool:
    """Whether ``match`` is over, or called off, or its tournament is over."""
    return not tables.playing(match) or bool(
        competition_reads.tournaments_over([match.tournament_id])
    )


def _entry_shown(entry: matchlog.Entry, teams: tuple[str, str]) -> dict[str, Any]:
    return {
        "entry": entry,
        "by": "" if entry.side is None else teams[entry.side],
        "teams": [
            {
                "name": teams[i],
                "points": entry.points[i],
                "sweeps": entry.sweeps[i],
                "total": entry.total[i],
            }
            for i in (0, 1)
        ],
    }


def _page(
    request: HttpRequest,
    match: Match,
    state: matchlog.MatchState,
    *,
    entry_form: forms.CodeEntry | None = None,
    status: int = 200,
) -> HttpResponse:
    teams = (match.team0.name, match.team1.name)
    over = _over(match)
    in_play = state.status == matchlog.IN_PROGRESS and not over and not state.disputed
    confirmation = state.confirmation if state.users is not None else match.confirmation
    entered_sides = {e.side for e in state.entries}
    if confirmation == matchlog.Confirmation.OTHER_TEAM:
        can_enter = in_play and not state.entries
        waiting = [_entry_shown(e, teams) for e in state.entries] if in_play else []
    elif confirmation == matchlog.Confirmation.BOTH_ENTER:
        can_enter = in_play and not {0, 1} <= entered_sides
        waiting = []
    else:  # a score-keeper's match: no team enters
        can_enter = False
        waiting = []
    table = phones.table_of(match.pk)
    locked = table is not None and table.locked_at is not None
    initial = {"expected_seq": match.last_seq, "client_id": uuid.uuid4().hex}
    if entry_form is None:
        entry_form = forms.CodeEntry(initial=initial, rules=match.rules, teams=teams)
    fixture = getattr(match, "fixture", None)
    context = {
        "match": match,
        "state": state,
        "teams": teams,
        "table_no": getattr(fixture, "table", None),
        "over": over or state.status in (matchlog.FINISHED, matchlog.CALLED_OFF),
        "disputed": state.disputed,
        "keeper_only": confirmation == matchlog.Confirmation.NONE,
        "both_enter": confirmation == matchlog.Confirmation.BOTH_ENTER,
        "entered_by": [teams[s] for s in sorted(s for s in entered_sides if s is not None)],
        "can_enter": can_enter and not locked,
        "waiting": waiting,
        "locked": locked,
        "entry_form": entry_form,
        "columns": columns(entry_form, teams, None),
        "rules": entry_form.rules,
        "deal_no": state.deal_no + 1,
        "deals": list(scoring.deal_results(match=match)),
        "expected_seq": match.last_seq,
        "client_id": initial["client_id"],
    }
    return render(request, "web/table_phone.html", context, status=status)


@require_GET
@table_phone
def table_page(request: HttpRequest, match: Match, state: matchlog.MatchState) -> HttpResponse:
    """The table card's phone page: the match, the deal waiting, the forms with codes."""
    return _page(request, match, state)


def _refused(
    request: HttpRequest, match: Match, message: str, status: int = 403, **kwargs: Any
) -> HttpResponse:
    messages.error(request, message)
    match.refresh_from_db()
    return _page(request, match, store.match_state(match), status=status, **kwargs)


def _entry_code_words(exc: phones.CodeRefused) -> str:
    """A code refused on entering, in words: a wrong one with the tries left."""
    if exc.tries_left is None or exc.tries_left == 0:
        return code_words(exc)
    return ngettext(
        "That is neither team's code: nothing was entered. Check the code on your team's "
        "card: %(left)d more try before this table's phone is locked out of codes.",
        "That is neither team's code: nothing was entered. Check the code on your team's "
        "card: %(left)d more tries before this table's phone is locked out of codes.",
        exc.tries_left,
    ) % {"left": exc.tries_left}


@require_POST
@table_phone
def table_enter(request: HttpRequest, match: Match, state: matchlog.MatchState) -> HttpResponse:
    """Enter the next deal's numbers for the team whose code is typed with them."""
    teams = (match.team0.name, match.team1.name)
    form = forms.CodeEntry(request.POST, rules=match.rules, teams=teams)
    if not form.is_valid():
        return _refused(request, match, form_errors(form), status=400, entry_form=form)
    try:
        author = phones.code_author(match=match, code=form.cleaned_data["code"])
    except phones.CodeRefused as exc:
        return _refused(request, match, _entry_code_words(exc), entry_form=form)
    refused = append_command(request, match, K.DEAL_ENTERED, form.payload(), form, author)
    if refused is not None:
        return _refused(request, match, plain_words(refused), status=status_code(refused))
    team = teams[author.side_in(match) or 0]
    deal = state.deal_no + 1
    if state.confirmation == matchlog.Confirmation.OTHER_TEAM:
        done = _(
            "Deal %(deal)d entered by %(team)s: it counts once the other team confirms it "
            "with its code."
        )
    else:
        done = _(
            "Deal %(deal)d entered by %(team)s: it counts once the other team's numbers, "
            "entered with its code, agree."
        )
    messages.success(request, done % {"deal": deal, "team": team})
    return redirect(reverse("web:table", args=[match.pk]))


@require_POST
@table_phone
def table_confirm(request: HttpRequest, match: Match, state: matchlog.MatchState) -> HttpResponse:
    """Confirm the entry waiting with the code of the team that did not enter it."""
    form = forms.CodeConfirm(request.POST)
    if not form.is_valid():
        return _refused(request, match, form_errors(form), status=400)
    number = form.cleaned_data["entry"]
    entry = next((e for e in state.entries if e.number == number), None)
    if entry is None:
        return _refused(request, match, str(SETTLE_PLAIN["no_such_entry"]), status=409)
    try:
        author = phones.code_author(
            match=match, code=form.cleaned_data["code"], refused_side=entry.side
        )
    except phones.CodeRefused as exc:
        if exc.code == "own_code":
            words = _(
                "That is the code of the team that entered this deal: the other team confirms "
                "it with the code printed on its own card."
            )
            return _refused(request, match, words)
        return _refused(request, match, code_words(exc))
    refused = append_command(request, match, K.DEAL_CONFIRMED, {"entry": number}, form, author)
    if refused is not None:
        return _refused(request, match, plain_words(refused), status=status_code(refused))
    team = (match.team0.name, match.team1.name)[author.side_in(match) or 0]
    messages.success(
        request,
        _("Deal %(deal)d confirmed by %(team)s with their code.")
        % {"deal": state.deal_no + 1, "team": team},
    )
    return redirect(reverse("web:table", args=[match.pk]))
