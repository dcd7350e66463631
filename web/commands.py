"""The commands the phone pages send (the score-keeper's, the seat's, the recorder's, and the
desk's taps): appended through the one append service, refused in words a player
understands, answered to the page's script in JSON or to a browser with a page.

Every command carries ``expected_seq`` (the head of the log the page showed) and the client's
own id, its idempotency key (``web-<id>``), so a phone that lost its connection and sends
again writes the command once. A refusal answers the HTTP status its kind answers on the API
(``competition.refusals``); a form the page refuses itself, before the store sees it, 422,
and a move or play no longer open (the match moved on) as the store's conflict, 409.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from competition import refusals
from tournaments import errors as store_errors
from tournaments import phones
from tournaments.models import Match, MatchEvent
from tournaments.services import match_append_event

from . import forms

#: the status of a form a page refuses itself (damaged, or not filled in as it must be)
FORM_REFUSED = 422
#: the status of a move or a play no longer open: the match moved on, as for the store
MOVED_ON = refusals.status_of(store_errors.MatchStateConflict)

#: what each refusal means to the person holding the phone
PLAIN: dict[str, Promise] = {
    "stale_expected_seq": gettext_lazy(
        "Something was recorded in this match since your page was loaded. The page now shows "
        "where the match stands; your numbers are still in the form: check them and send "
        "again."
    ),
    "store_unavailable": gettext_lazy(
        "The server could not save this just now. Nothing was recorded: send it again."
    ),
    "entry_pending": gettext_lazy(
        "This deal's result was entered already and waits for the other team."
    ),
    "already_entered": gettext_lazy(
        "Your side has entered this deal already; the other side enters theirs."
    ),
    "deal_disputed": gettext_lazy("This deal's result is disputed: the director decides it."),
    "own_entry": gettext_lazy("You entered this result: someone of the other team confirms it."),
    "own_team_entry": gettext_lazy("Your team entered this result: the other team confirms it."),
    "no_such_entry": gettext_lazy(
        "That result was answered already: the page now shows where things stand."
    ),
    "match_over": gettext_lazy("The match is over: nothing more can be entered."),
    "match_not_started": gettext_lazy("The match has not started yet."),
    "idempotency_key_reused": gettext_lazy(
        "This form was sent before with other numbers: reload the page."
    ),
}


def wants_json(request: HttpRequest) -> bool:
    """Whether the page's script sent the command (it reads the answer as JSON)."""
    return "application/json" in request.headers.get("Accept", "")


def plain_words(exc: store_errors.AppendRefused) -> str:
    """Return a refusal in words a player understands (the engine's own words for a rule)."""
    text = PLAIN.get(exc.code)
    if text is not None:
        return str(text)
    message = exc.message[:1].upper() + exc.message[1:]
    return f"{message} ({exc.rule})." if exc.rule else f"{message}."


def status_code(exc: store_errors.AppendRefused | None) -> int:
    """Return the status of a command refused: its refusal's (``competition.refusals``), or
    the page's own refusal of a form (``exc`` None)."""
    return FORM_REFUSED if exc is None else refusals.status_of(exc)


def _key(form: forms.Command) -> str:
    """The idempotency key of a page's command: its client id (kept while it is resent)."""
    return f"web-{form.cleaned_data['client_id']}"


def sent_before(match: Match, form: forms.Command) -> bool:
    """Whether this form's command (``form`` valid) is in the match's log already: a resend
    after a lost answer, which a page's checks against the position as it now stands would
    take for a stale command."""
    return MatchEvent.objects.filter(match=match, idempotency_key=_key(form)).exists()


def append_command(
    request: HttpRequest,
    match: Match,
    kind: str,
    payload: dict[str, Any],
    form: forms.Command,
    actor: Any = None,
) -> store_errors.AppendRefused | None:
    """Append the command through the store's service, with the head of the log and the
    client id ``form`` (valid) carried; return its refusal, or None. ``actor``: the signed-in
    person unless said (a team's link)."""
    try:
        match_append_event(
            match=match.pk,
            expected_seq=form.cleaned_data["expected_seq"],
            kind=kind,
            payload=payload,
            actor=request.user if actor is None else actor,
            idempotency_key=_key(form),
            via="session",
        )
    except store_errors.AppendRefused as exc:
        return exc
    return None


def written(request: HttpRequest, message: str, page: str) -> HttpResponse:
    """Answer a command written: ``message`` shown on the page the phone loads next (the
    script is told it in JSON; a browser is sent back to ``page``)."""
    messages.success(request, message)
    if wants_json(request):
        return JsonResponse({"ok": True, "message": message})
    return redirect(page)


def refused_json(match: Match, message: str, status: int, **more: Any) -> JsonResponse:
    """Answer the page's script that nothing was written, and why: ``retry`` (send it again:
    the server could not take it now), what the page adds (``more``), and the log's head."""
    head = Match.objects.values_list("last_seq", flat=True).get(pk=match.pk)
    return JsonResponse(
        {"ok": False, "message": message, "retry": status == 503, **more, "last_seq": head},
        status=status,
    )


# --- what the phones' forms share: the teams as a form shows them, errors and codes in words


def reader_order(mine: int | None) -> tuple[int, int]:
    """The match's two sides in the reader's order: their own team first."""
    return (1, 0) if mine == 1 else (0, 1)


def columns(
    form: forms.DealResult | forms.Reject | None, teams: tuple[str, str], mine: int | None
) -> list[dict[str, Any]]:
    """The two teams as a form shows them: the reader's own team first, marked, so "our
    points" typed in the first box are always the reader's team's (the fields keep their
    names: ``_a`` is the match's first team, ``_b`` its second)."""
    shown = []
    for index in reader_order(mine):
        letter = "ab"[index]
        column: dict[str, Any] = {"letter": letter, "name": teams[index], "mine": index == mine}
        if form is not None:
            for field in ("points", "sweeps", "first"):
                name = f"{field}_{letter}"
                column[field] = form[name] if name in form.fields else None
        shown.append(column)
    return shown


def form_errors(form: Any) -> str:
    """A form's errors as one sentence: its own, then each field's with its label."""
    errors = [str(e) for e in form.non_field_errors()]
    for name, field_errors in form.errors.items():
        if name != "__all__":
            label = form.fields[name].label or name
            errors.extend(f"{label}: {e}" for e in field_errors)
    return " ".join(errors)


#: a confirmation code refused, in words the person holding the phone understands
CODE_PLAIN = {
    "own_code": gettext_lazy(
        "That is your own team's code: the other team types the code printed on its own card."
    ),
    "codes_locked": gettext_lazy(
        "This phone has typed too many wrong codes: it takes none now. Ask the director to let "
        "it try again, or the other team confirms on its own phone."
    ),
    "not_your_match": gettext_lazy("This phone does not act for a team of this match."),
}


def code_words(exc: phones.CodeRefused) -> str:
    """A refused code in words: a wrong one with the tries left before the lock-out."""
    if exc.tries_left is None:
        return str(CODE_PLAIN.get(exc.code, CODE_PLAIN["not_your_match"]))
    if exc.tries_left == 0:
        return str(
            _(
                "That is not the other team's code, and this phone has typed too many wrong "
                "codes: it takes none now. Ask the director to let it try again, or the other "
                "team confirms on its own phone."
            )
        )
    return ngettext(
        "That is not the other team's code: nothing was confirmed. Check the code on their "
        "card: %(left)d more try before this phone is locked out of codes.",
        "That is not the other team's code: nothing was confirmed. Check the code on their "
        "card: %(left)d more tries before this phone is locked out of codes.",
        exc.tries_left,
    ) % {"left": exc.tries_left}
