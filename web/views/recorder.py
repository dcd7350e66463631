"""The recorder's page: a table played with real cards (table mode), recorded card by card.

For the match's score-keepers and the tournament's directors (anyone else finds no page:
404). Who deals first, then each deal's bid with the 4 floor cards turned up (or the
bidder's throw-in with the hand shown), then each play: a card, then what it does, among the
moves the engine lists (``web.recorder``). Every command goes through the one append service
with the page's head of the log and the client's own id (the idempotency key), as the score
page's do (``web.commands``): the page's script keeps a command on the phone until
the server has it (``keeper.js``). The last play can be withdrawn (``move_withdrawn``)
until the next one is recorded.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable
from typing import Any, TypeVar

from django import forms as django_forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

import seep_core as sc
from tournaments import errors as store_errors
from tournaments import matchlog
from tournaments import selectors as store
from tournaments.models import Match
from tournaments.reads import consistent_read

from .. import forms, moves, pages
from ..access import DIRECTOR, SCOREKEEPER, match_role
from ..clubtime import use_club_time
from ..commands import (
    FORM_REFUSED,
    MOVED_ON,
    append_command,
    plain_words,
    refused_json,
    sent_before,
    status_code,
    wants_json,
    written,
)
from ..recorder import floor_houses, recorder_page

K = matchlog.Kind
Sent = TypeVar("Sent", bound=forms.Command)

STALE_PLAY = gettext_lazy(
    "That play is not one the table can make now (the page was out of date): the page shows "
    "where the deal stands; choose again."
)


class Start(forms.Command):
    first_dealer = django_forms.TypedChoiceField(
        choices=[(n, n) for n in range(4)], coerce=int, label=gettext_lazy("Who deals first")
    )


class Bid(forms.Command):
    """The bidder's call: a bid of a value with the 4 floor cards turned up, or a throw-in
    with the 4 cards of the hand shown (B2)."""

    call = django_forms.ChoiceField(
        choices=[*((f"bid-{v}", f"Bid {v}") for v in sc.BID_VALUES), ("redeal", "Throw in")],
        label=gettext_lazy("The bidder"),
    )
    cards = django_forms.MultipleChoiceField(
        choices=[(c, c) for c in sc.ordered_deck()], label=gettext_lazy("The 4 cards turned up")
    )


class PlayForm(forms.Command):
    move = django_forms.CharField(required=False, max_length=moves.MAX_KEY)
    throw = django_forms.ChoiceField(required=False, choices=[(c, c) for c in sc.ordered_deck()])


def _recorder_match(request: HttpRequest, pk: int) -> tuple[Match, matchlog.MatchState]:
    """Return the table match and its state if the caller records it (a score-keeper of the
    match or a director of its tournament); anyone else finds nothing (404)."""
    match = get_object_or_404(
        pages.match_for_page(Match.objects.all()), pk=pk, mode=Match.Mode.TABLE
    )
    state = store.match_state(match)
    if match_role(request.user, match, state) not in (DIRECTOR, SCOREKEEPER):
        raise Http404("no such table to record")
    use_club_time(match.tournament)
    return match, state


def _context(request: HttpRequest, match: Match, state: matchlog.MatchState) -> dict[str, Any]:
    card = request.GET.get("card", "")[:3]
    page = recorder_page(match, state, card)
    return {
        "page": page,
        "match": match,
        "state": state,
        "client_id": uuid.uuid4().hex,
        "head": match.last_seq,
        "chosen_card": card,
    }


@login_required
@require_GET
def record_page(request: HttpRequest, pk: int) -> HttpResponse:
    with consistent_read():
        match, state = _recorder_match(request, pk)
        context = _context(request, match, state)
    return render(request, "web/record.html", context)


def _done(request: HttpRequest, match: Match, message: str) -> HttpResponse:
    return written(request, message, reverse("web:record", args=[match.pk]))


def _refused(
    request: HttpRequest,
    match: Match,
    message: str,
    exc: store_errors.AppendRefused | None = None,
    *,
    status: int = FORM_REFUSED,
) -> HttpResponse:
    """Say why nothing was recorded: the page again, at the log's head, with the refusal."""
    if exc is not None:
        status = status_code(exc)
    if wants_json(request):
        code, rule = getattr(exc, "code", ""), getattr(exc, "rule", "") or ""
        return refused_json(match, message, status, code=code, rule=rule)
    messages.error(request, message)
    match, state = _recorder_match(request, match.pk)
    return render(request, "web/record.html", _context(request, match, state), status=status)


def _form_errors(form: django_forms.Form) -> str:
    errors: list[str] = []
    for name, field_errors in form.errors.items():
        label = form.fields[name].label if name in form.fields else None
        errors.extend(f"{label}: {e}" if label else str(e) for e in field_errors)
    return " ".join(errors)


RECORDED_BEFORE = gettext_lazy(
    "Recorded already: it reached the server before the connection dropped."
)


#: a recorder's command: called with the match, its state and the command's valid form
TableCommand = Callable[[HttpRequest, Match, matchlog.MatchState, Sent], HttpResponse]


def table_command(
    form_class: type[Sent],
) -> Callable[[TableCommand[Sent]], Callable[[HttpRequest, int], HttpResponse]]:
    """Make a view a POST of a command to table ``pk`` by one who records it, read with its
    form (``form_class``): the one fetch-and-check of the recorder's commands. The view is
    called with the match, its state and the valid form, unless the answer is due already
    (the form refused, or the command written before: a resend after a lost answer)."""

    def decorate(view: TableCommand[Sent]) -> Callable[[HttpRequest, int], HttpResponse]:
        @login_required
        @require_POST
        @functools.wraps(view)
        def command(request: HttpRequest, pk: int) -> HttpResponse:
            match, state = _recorder_match(request, pk)
            form = form_class(request.POST)
            if not form.is_valid():
                return _refused(request, match, _form_errors(form))
            if sent_before(match, form):
                return _done(request, match, str(RECORDED_BEFORE))
            return view(request, match, state, form)

        return command

    return decorate


def _append(
    request: HttpRequest, match: Match, kind: str, payload: dict[str, Any], form: Any, done: str
) -> HttpResponse:
    refused = append_command(request, match, kind, payload, form)
    if refused is not None:
        return _refused(request, match, plain_words(refused), refused)
    return _done(request, match, done)


@table_command(Start)
def start(
    request: HttpRequest, match: Match, _state: matchlog.MatchState, form: Start
) -> HttpResponse:
    """Start the match: who deals first (the table decides, S2)."""
    payload = {"first_dealer": form.cleaned_data["first_dealer"]}
    return _append(request, match, K.MATCH_STARTED, payload, form, _("The match has started."))


@table_command(Bid)
def bid(request: HttpRequest, match: Match, state: matchlog.MatchState, form: Bid) -> HttpResponse:
    """The bid with the floor turned up, or the throw-in with the hand shown."""
    deal = state.deal
    if not isinstance(deal, sc.TableDeal) or deal.phase != "bid":
        return _refused(
            request,
            match,
            _(
                "No deal waits for its bid (it was recorded already, or the match is not in "
                "play): the page shows where the match stands."
            ),
            status=MOVED_ON,
        )
    call, cards = form.cleaned_data["call"], sorted(form.cleaned_data["cards"])
    if call == "redeal":
        move: dict[str, Any] = {"seat": deal.bidder, "action": "redeal", "hand": cards}
        done = _("The hand was thrown in: the same dealer deals again.")
    else:
        value = int(call.removeprefix("bid-"))
        move = {"seat": deal.bidder, "action": "bid", "value": value, "floor": cards}
        done = _("Bid %(value)s recorded, with the floor.") % {"value": value}
    return _append(request, match, K.MOVE_PLAYED, {"move": move}, form, done)


@table_command(PlayForm)
def play(
    request: HttpRequest, match: Match, state: matchlog.MatchState, form: PlayForm
) -> HttpResponse:
    """A card played: one of the moves the engine listed, or a throw the recorder saw made
    (the engine refuses it in words if the rules do not allow it)."""
    deal = state.deal
    if not isinstance(deal, sc.TableDeal) or deal.to_play is None or deal.phase == "bid":
        return _refused(request, match, str(STALE_PLAY), status=MOVED_ON)
    if form.cleaned_data["throw"]:
        move: dict[str, Any] | None = {
            "seat": deal.to_play, "action": "throw", "card": form.cleaned_data["throw"],
        }  # fmt: skip
    else:
        found = moves.chosen(sc.legal_moves(deal), form.cleaned_data["move"])
        move = None if found is None else dict(found)
    if move is None:
        return _refused(request, match, str(STALE_PLAY), status=MOVED_ON)
    seat = pages.seat_list(match)[move["seat"]][1].name
    # a message is read out as it stands: the cards in words, no glyph
    said = moves.describe(move, floor_houses(deal), spoken=True)
    done = _("Recorded: %(seat)s: %(move)s.") % {"seat": seat, "move": said}
    return _append(request, match, K.MOVE_PLAYED, {"move": move}, form, done)


@table_command(PlayForm)
def undo(
    request: HttpRequest, match: Match, state: matchlog.MatchState, form: PlayForm
) -> HttpResponse:
    """Withdraw the last play (``move_withdrawn``), before the next one is recorded."""
    last = state.last_play
    if last is None or form.cleaned_data["move"] != moves.key(last.move):
        return _refused(
            request,
            match,
            _(
                "Only the last play can be withdrawn, before the next one is recorded: the "
                "page shows where the deal stands."
            ),
            status=MOVED_ON,
        )
    done = _("The last play was withdrawn: record the play the table made.")
    return _append(request, match, K.MOVE_WITHDRAWN, {"move": last.move}, form, done)
